import type { Middleware } from '../api-client.ts';

export type AccessType = 'client' | 'server' | 'admin';

export const CLIENT_VERSION = 'js @gatehouse/client@0.1.0';

export type RequestHeadersOptions = {
  projectId: string;
  accessType: AccessType;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** Source of the per-request nonce; random hex by default. */
  nonce?: () => string;
  /**
   * Ask for Stack's override mode (`x-stack-override-error-status`): 4xx arrive as 200 with the real status
   * in `x-stack-actual-status`, so browsers do not log expected refusals as failed requests. Off by default:
   * answers then carry their real status, as the OpenAPI document describes them, so validating proxies,
   * gateways and monitoring see what happened. The client reads both kinds of answer either way.
   */
  overrideErrorStatus?: boolean;
};

/**
 * Adds the project headers of docs/protocol/overview.md §2. Headers the caller already set on a request win,
 * so one call can override the access type. Tokens are the token-refresh middleware's business.
 */
export function requestHeaders(options: RequestHeadersOptions): Middleware {
  const nonce = options.nonce ?? randomNonce;
  return (request, next) => {
    const defaults: Record<string, string | undefined> = {
      'x-stack-project-id': options.projectId,
      'x-stack-access-type': options.accessType,
      'x-stack-publishable-client-key': options.publishableClientKey,
      'x-stack-secret-server-key': options.secretServerKey,
      'x-stack-super-secret-admin-key': options.superSecretAdminKey,
      'x-stack-client-version': CLIENT_VERSION,
      'x-stack-override-error-status': options.overrideErrorStatus === true ? 'true' : undefined,
    };
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(defaults)) {
      if (value !== undefined && !headers.has(name)) headers.set(name, value);
    }
    // Always fresh: its only purpose is to defeat caches.
    headers.set('x-stack-random-nonce', nonce());
    return next(new Request(request, { headers }));
  };
}

/** getRandomValues, unlike randomUUID, also exists on plain-http pages. */
function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
