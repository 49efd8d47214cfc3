import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/** How the next ID token is spoiled on its way out of the token endpoint (`tamperNext`). */
export type IdTokenTampering = 'signature' | 'issuer' | 'nonce';

/**
 * A local OpenID provider (oidc-provider) on a free loopback port, with one confidential client and
 * the library's development login and consent pages (any login is an account; its claims say
 * `<login>` is the email). `signIn` walks those pages as a browser would, with a cookie jar.
 */
export async function startOidcIdp() {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let provider: Provider | undefined;
  // The provider signs with a key the test holds, so a spoiled ID token can be signed again (claims wrong, signature right).
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };
  const state: { tamperNext: IdTokenTampering | null } = { tamperNext: null };
  return {
    issuer,
    /** Set to spoil the next ID token the token endpoint hands out (then cleared). */
    state,
    /** Starts answering, for a client whose callback is `redirectUri`. */
    configure(client: { clientId: string; clientSecret: string; redirectUri: string }) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: client.clientId,
            client_secret: client.clientSecret,
            redirect_uris: [client.redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        findAccount: async (_context, id) => ({
          accountId: id,
          claims: async () => ({
            sub: `sub-${id}`,
            email: id,
            email_verified: true,
            name: `OIDC ${id.split('@')[0]}`,
            groups: ['Engineers'],
          }),
        }),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
        cookies: { keys: ['oidc test cookie key'] },
        jwks: { keys: [signingKey] },
      });
      const handle = provider.callback();
      server.removeAllListeners('request');
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const tampering = state.tamperNext;
        if (tampering && request.method === 'POST' && request.url?.startsWith('/token')) {
          state.tamperNext = null;
          spoilIdToken(response, tampering, signingKey);
        }
        handle(request, response);
      });
    },
    /** From the IdP's authorization URL through login and consent to the redirect back (its URL). */
    async signIn(authorizationUrl: string, login: string): Promise<string> {
      const jar = new Map<string, string>();
      const send = async (url: string, init: RequestInit = {}) => {
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const at = (pair ?? '').indexOf('=');
          jar.set((pair ?? '').slice(0, at), (pair ?? '').slice(at + 1));
        }
        return response;
      };
      let url = authorizationUrl;
      for (let step = 0; step < 12; step += 1) {
        if (!url.startsWith(issuer)) return url;
        const response = await send(url);
        const location = response.headers.get('location');
        if (location) {
          url = new URL(location, url).href;
          continue;
        }
        const page = await response.text();
        const action = new URL(/action="([^"]+)"/.exec(page)?.[1] ?? '', url).href;
        const form = page.includes('name="login"')
          ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
          : new URLSearchParams({ prompt: 'consent' });
        const submitted = await send(action, {
          method: 'POST',
          body: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        url = new URL(submitted.headers.get('location') ?? '', action).href;
      }
      throw new Error('the OpenID provider did not redirect back');
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Rewrites the token endpoint's JSON answer as it is sent: the ID token's signature broken, or a claim changed and signed again. */
function spoilIdToken(response: ServerResponse, tampering: IdTokenTampering, key: JWK) {
  const end = response.end.bind(response) as (body?: unknown) => ServerResponse;
  response.end = ((body?: unknown) => {
    const answer = JSON.parse(String(body)) as { id_token: string };
    void spoiled(answer.id_token, tampering, key).then((idToken) => {
      const text = JSON.stringify({ ...answer, id_token: idToken });
      response.setHeader('content-length', Buffer.byteLength(text));
      end(text);
    });
    return response;
  }) as ServerResponse['end'];
}

async function spoiled(idToken: string, tampering: IdTokenTampering, key: JWK): Promise<string> {
  if (tampering === 'signature') {
    const [header, payload, signature = ''] = idToken.split('.');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    return `${header}.${payload}.${flipped}`;
  }
  const claims = decodeJwt(idToken);
  const changed =
    tampering === 'issuer' ? { ...claims, iss: 'http://127.0.0.1:9/not-the-issuer' } : { ...claims, nonce: 'another-sign-in' };
  return new SignJWT(changed).setProtectedHeader({ alg: 'RS256', kid: key.kid as string }).sign(await importJWK(key, 'RS256'));
}
