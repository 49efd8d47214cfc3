import { createApiClient, type Middleware } from '../api-client.ts';
import { type RequestHeadersOptions, requestHeaders } from '../middleware/request-headers.ts';
import { retry } from '../middleware/retry.ts';
import type { AppCall } from './app-call.ts';

/** An admin access token, or where to get a current one (e.g. `() => dashboardApp.getAccessToken()`). */
export type AdminAccessTokenSource = string | (() => string | undefined | Promise<string | undefined>);

export type BackendCallOptions = Omit<RequestHeadersOptions, 'nonce'> & {
  baseUrl: string;
  adminAccessToken?: AdminAccessTokenSource;
  fetch?: typeof fetch;
};

/**
 * The call of a server or admin app: project headers with its key → retry → fetch. No user session:
 * a backend acts for the project, and names the user in each call.
 */
export function createBackendCall(options: BackendCallOptions): AppCall {
  const middleware = [requestHeaders(options), retry()];
  if (options.adminAccessToken !== undefined) middleware.splice(1, 0, adminAccessTokenHeader(options.adminAccessToken));
  return createApiClient({ baseUrl: options.baseUrl, fetch: options.fetch, middleware }).call;
}

/** Read for every request, so a function source can hand out a refreshed token. */
function adminAccessTokenHeader(source: AdminAccessTokenSource): Middleware {
  return async (request, next) => {
    const token = typeof source === 'function' ? await source() : source;
    if (!token) return next(request);
    const headers = new Headers(request.headers);
    headers.set('x-stack-admin-access-token', token);
    return next(new Request(request, { headers }));
  };
}
