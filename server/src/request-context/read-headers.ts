import type { IncomingHttpHeaders } from 'node:http';

/** The project-authentication headers of docs/protocol/overview.md §2, by their name after the prefix. */
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

const spellings = (name: string): [string, string] => [`x-hexclave-${name}`, `x-stack-${name}`];

/**
 * Reads a header sent as `x-hexclave-<name>` or `x-stack-<name>`. The hexclave spelling wins when
 * both are present (our documented choice where the protocol leaves it open). Empty values count
 * as absent: the SDKs send an empty secret key on admin calls.
 */
export function readPrefixedHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  return readSpelled(headers, spellings(name));
}

function readSpelled(headers: IncomingHttpHeaders, [hexclave, stack]: [string, string]): string | undefined {
  const value = headers[hexclave] ?? headers[stack];
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined || single === '' ? undefined : single;
}

/** Both spellings of each header, built once: every authenticated request reads all of them. */
const names = {
  projectId: spellings('project-id'),
  branchId: spellings('branch-id'),
  accessType: spellings('access-type'),
  publishableClientKey: spellings('publishable-client-key'),
  secretServerKey: spellings('secret-server-key'),
  superSecretAdminKey: spellings('super-secret-admin-key'),
  adminAccessToken: spellings('admin-access-token'),
  accessToken: spellings('access-token'),
  refreshToken: spellings('refresh-token'),
  allowAnonymousUser: spellings('allow-anonymous-user'),
  allowRestrictedUser: spellings('allow-restricted-user'),
  overrideErrorStatus: spellings('override-error-status'),
};

export function readAuthHeaders(headers: IncomingHttpHeaders): AuthHeaders {
  return {
    projectId: readSpelled(headers, names.projectId),
    branchId: readSpelled(headers, names.branchId),
    accessType: readSpelled(headers, names.accessType),
    publishableClientKey: readSpelled(headers, names.publishableClientKey),
    secretServerKey: readSpelled(headers, names.secretServerKey),
    superSecretAdminKey: readSpelled(headers, names.superSecretAdminKey),
    adminAccessToken: readSpelled(headers, names.adminAccessToken),
    accessToken: readSpelled(headers, names.accessToken),
    refreshToken: readSpelled(headers, names.refreshToken),
    allowAnonymousUser: readSpelled(headers, names.allowAnonymousUser) === 'true',
    allowRestrictedUser: readSpelled(headers, names.allowRestrictedUser) === 'true',
    overrideErrorStatus: headers[names.overrideErrorStatus[0]] !== undefined || headers[names.overrideErrorStatus[1]] !== undefined,
  };
}
