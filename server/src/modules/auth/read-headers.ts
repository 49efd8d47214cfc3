import type { IncomingHttpHeaders } from 'node:http';

/** The project-authentication headers of protocol README §2, by their name after the prefix. */
export type AuthHeaders = {
  projectId?: string;
  branchId?: string;
  accessType?: string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  adminAccessToken?: string;
  accessToken?: string;
  refreshToken?: string;
  allowAnonymousUser: boolean;
  allowRestrictedUser: boolean;
  overrideErrorStatus: boolean;
};

/**
 * Reads a header sent as `x-hexclave-<name>` or `x-stack-<name>`. The hexclave spelling wins when
 * both are present (our documented choice where the protocol leaves it open). Empty values count
 * as absent: the SDKs send an empty secret key on admin calls.
 */
export function readPrefixedHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[`x-hexclave-${name}`] ?? headers[`x-stack-${name}`];
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined || single === '' ? undefined : single;
}

export function readAuthHeaders(headers: IncomingHttpHeaders): AuthHeaders {
  const read = (name: string) => readPrefixedHeader(headers, name);
  return {
    projectId: read('project-id'),
    branchId: read('branch-id'),
    accessType: read('access-type'),
    publishableClientKey: read('publishable-client-key'),
    secretServerKey: read('secret-server-key'),
    superSecretAdminKey: read('super-secret-admin-key'),
    adminAccessToken: read('admin-access-token'),
    accessToken: read('access-token'),
    refreshToken: read('refresh-token'),
    allowAnonymousUser: read('allow-anonymous-user') === 'true',
    allowRestrictedUser: read('allow-restricted-user') === 'true',
    overrideErrorStatus:
      headers['x-hexclave-override-error-status'] !== undefined || headers['x-stack-override-error-status'] !== undefined,
  };
}
