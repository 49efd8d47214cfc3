import type { IncomingMessage } from 'node:http';
import { OAuth2Server } from 'oauth2-mock-server';
import type { ProviderEndpoints } from '@gatehouse/server/src/modules/authentication/oauth/provider-table.ts';

type TokenAnswer = { statusCode: number; body: Record<string, unknown> | '' };

/**
 * A real OpenID provider on 127.0.0.1 (oauth2-mock-server) that approves every authorization: the
 * tests follow its redirect back to our callback. It grants the scopes that were asked for, and
 * answers its userinfo endpoint with the profile the test sets (and, under `?emails`, an email list).
 */
export async function startMockProvider() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  // The mock names itself `localhost`; keep every request on the loopback address it listens on.
  const issuer = (server.issuer.url as string).replace('//localhost:', '//127.0.0.1:');
  server.issuer.url = issuer;
  const scopesByCode = new Map<string, string>();
  const state = {
    profile: {} as Record<string, unknown>,
    emails: undefined as unknown,
    /** Changes the next token answers (an error, no refresh token, a short lifetime...). */
    tokenHook: undefined as ((answer: TokenAnswer, body: Record<string, unknown>) => void) | undefined,
    /** Changes the next userinfo answers (a refusal...). */
    userinfoHook: undefined as ((answer: TokenAnswer) => void) | undefined,
    /** Every token request's form body, oldest first. */
    tokenRequests: [] as Array<Record<string, unknown>>,
  };

  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, request: IncomingMessage & { query?: Record<string, string> }) => {
    const code = redirect.url.searchParams.get('code');
    if (code) scopesByCode.set(code, String(request.query?.scope ?? ''));
  });
  server.service.on('beforeResponse', (answer: TokenAnswer, request: IncomingMessage & { body: Record<string, unknown> }) => {
    state.tokenRequests.push(request.body);
    if (answer.body !== '' && typeof request.body.code === 'string') answer.body.scope = scopesByCode.get(request.body.code) ?? '';
    if (answer.body !== '' && request.body.grant_type === 'refresh_token') delete answer.body.scope;
    state.tokenHook?.(answer, request.body);
  });
  server.service.on('beforeUserinfo', (answer: TokenAnswer, request: IncomingMessage) => {
    answer.body = (request.url?.includes('emails') ? state.emails : state.profile) as Record<string, unknown>;
    state.userinfoHook?.(answer);
  });

  return {
    issuer,
    state,
    /** Endpoint overrides that send a provider type here. */
    endpoints(withEmails = false): Partial<ProviderEndpoints> {
      return {
        issuer,
        authorizationUrl: `${issuer}/authorize`,
        tokenUrl: `${issuer}/token`,
        userinfoUrl: `${issuer}/userinfo`,
        ...(withEmails ? { emailsUrl: `${issuer}/userinfo?emails` } : {}),
      };
    },
    stop: () => server.stop(),
  };
}

export type MockProvider = Awaited<ReturnType<typeof startMockProvider>>;
