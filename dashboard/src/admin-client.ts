import { type ApiClient, createApiClient, type Middleware, requestHeaders, retry, type SessionClient } from '@gatehouse/client';
import { setApiClient } from '@gatehouse/react';

/**
 * The generated hooks call one configured client. The dashboard's calls are of two kinds: its own
 * (client access on `internal` with the owner's session: the owner, their teams, their projects) and
 * admin calls on one project with the owner's access token as `x-stack-admin-access-token`. A hook
 * names the project of an admin call with this header (see `adminRequest`); it never leaves the browser.
 */
export const PROJECT_HEADER = 'x-gatehouse-dashboard-project';

/** The `request` option of a generated hook that makes it an admin call on `projectId`. */
export const adminRequest = (projectId: string): RequestInit => ({ headers: { [PROJECT_HEADER]: projectId } });

/** Routes each hook's request to the owner's session client or to the admin client of its project. */
export function installDashboardApiClient(internal: SessionClient, baseUrl: string): void {
  const adminClients = new Map<string, ApiClient>();
  const adminClientOf = (projectId: string) => {
    let client = adminClients.get(projectId);
    if (!client) {
      client = createApiClient({
        baseUrl,
        middleware: [requestHeaders({ projectId, accessType: 'admin', overrideErrorStatus: true }), ownerToken(internal), retry()],
      });
      adminClients.set(projectId, client);
    }
    return client;
  };
  setApiClient({
    fetchJson(path, init) {
      const headers = new Headers(init.headers);
      const projectId = headers.get(PROJECT_HEADER);
      if (!projectId) return internal.fetchJson(path, init);
      headers.delete(PROJECT_HEADER);
      return adminClientOf(projectId).fetchJson(path, { ...init, headers });
    },
  });
}

/** The owner's current access token (refreshed by the session when near its end) as the admin access token. */
function ownerToken(internal: SessionClient): Middleware {
  return async (request, next) => {
    const token = await internal.session.getAccessToken();
    if (!token) return next(request);
    const headers = new Headers(request.headers);
    headers.set('x-stack-admin-access-token', token);
    return next(new Request(request, { headers }));
  };
}
