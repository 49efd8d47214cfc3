import type { Middleware } from '../api-client.ts';
import { InvalidAccessTokenError, isCodeInFamily } from '../errors.ts';
import { actualStatus, knownErrorCode } from '../response-status.ts';
import type { Session } from '../session/session.ts';

/**
 * Sends the session's tokens with every request, refreshing the access token first when it has
 * under 20 s left. When the server still rejects the access token (any INVALID_ACCESS_TOKEN code),
 * refreshes once and replays the request once; a second rejection is returned as it is.
 */
export function tokenRefresh(session: Session): Middleware {
  return async (request, next) => {
    const accessToken = await session.getAccessToken();
    // The first attempt gets a copy, so the request can still be replayed after a refresh.
    const response = await next(withTokens(request.clone(), accessToken, session.getTokens().refreshToken));
    if (!accessToken || !rejectsAccessToken(response)) return response;

    session.markAccessTokenExpired(accessToken);
    const renewed = await session.refresh();
    // The session is over: the rejection is the honest answer.
    if (!renewed) return response;
    await response.body?.cancel();
    return next(withTokens(request, renewed, session.getTokens().refreshToken));
  };
}

function rejectsAccessToken(response: Response): boolean {
  return actualStatus(response) >= 400 && isCodeInFamily(knownErrorCode(response), InvalidAccessTokenError);
}

function withTokens(request: Request, accessToken: string | undefined, refreshToken: string | undefined): Request {
  if (!accessToken && !refreshToken) return request;
  const headers = new Headers(request.headers);
  if (accessToken) headers.set('x-stack-access-token', accessToken);
  if (refreshToken) headers.set('x-stack-refresh-token', refreshToken);
  return new Request(request, { headers });
}
