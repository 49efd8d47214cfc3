import { ApiHttpError } from '../api-client.ts';
import { connectionErrorFor } from '../connection-error.ts';
import { isCodeInFamily, knownErrorFromBody, RefreshTokenError } from '../errors.ts';
import { actualStatus, knownErrorCode } from '../response-status.ts';

export type RefreshGrantOptions = {
  baseUrl: string;
  projectId: string;
  publishableClientKey?: string;
  fetch: typeof fetch;
};

/** The OAuth client secret that means "no publishable key" (docs/protocol/overview.md §6). */
const PUBLIC_CLIENT_SECRET = '__stack_public_client__';

/**
 * Exchanges the refresh token for a new access token at the token endpoint, straight over `fetch`
 * (no middleware: this runs inside the token-refresh middleware). Resolves to the access token, or
 * to undefined when the session has ended (a REFRESH_TOKEN_ERROR, or an answer without a token).
 * Anything else (network, 5xx, a misconfigured client) throws and leaves the session alone.
 */
export async function requestRefreshGrant(options: RefreshGrantOptions, refreshToken: string): Promise<string | undefined> {
  const url = `${options.baseUrl.replace(/\/$/, '')}/api/v1/auth/oauth/token`;
  const body = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: options.projectId,
    client_secret: options.publishableClientKey ?? PUBLIC_CLIENT_SECRET,
  });
  let response: Response;
  try {
    response = await options.fetch(new Request(url, { method: 'POST', body }));
  } catch (error) {
    if (error instanceof TypeError) throw connectionErrorFor(url, error);
    throw error;
  }

  const status = actualStatus(response);
  const code = knownErrorCode(response);
  if (isCodeInFamily(code, RefreshTokenError)) {
    await response.body?.cancel();
    return undefined;
  }
  if (status >= 200 && status < 300) {
    const answer: unknown = await response.json().catch(() => undefined);
    const accessToken = (answer as { access_token?: unknown } | undefined)?.access_token;
    return typeof accessToken === 'string' && accessToken ? accessToken : undefined;
  }
  const text = await response.text();
  if (code) {
    const known = await parseKnownError(text, status);
    if (known?.code === code) throw known;
  }
  throw new ApiHttpError(status, text);
}

async function parseKnownError(text: string, status: number) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return knownErrorFromBody(body as Parameters<typeof knownErrorFromBody>[0], status);
}
