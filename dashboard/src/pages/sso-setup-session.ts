import type { Schema } from '@gatehouse/protocol/operation-types';

/** Where the setup page keeps its session (this tab only: a reload keeps it, another tab does not get it). */
const sessionKey = 'gatehouse-sso-setup-session';

/** A refusal of the setup API, with its catalogued code and details (the page words it in the admin's language). */
export class SetupError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

async function call<T>(method: 'GET' | 'POST', path: string, body: unknown, sessionToken?: string): Promise<T> {
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(sessionToken ? { authorization: `Bearer ${sessionToken}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as T & { code?: string; error?: string };
  if (!response.ok) {
    const details = (answer as { details?: unknown }).details;
    throw new SetupError(answer.code ?? 'UNKNOWN', answer.error ?? `HTTP ${response.status}`, details);
  }
  return answer;
}

/** The setup session of this tab: the link's token in the URL fragment is exchanged once, then removed from the URL. */
export async function openSetupSession(): Promise<string> {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) {
    window.history.replaceState(null, '', window.location.pathname);
    const opened = await call<Schema<'SsoSetupSession'>>('POST', '/sso-setup/sessions', { token });
    sessionStorage.setItem(sessionKey, opened.session_token);
    return opened.session_token;
  }
  const kept = sessionStorage.getItem(sessionKey);
  if (!kept) throw new SetupError('SSO_SETUP_LINK_NOT_FOUND', 'This setup link is not valid.');
  return kept;
}

/** The setup operations of one session. */
export const setupApi = (sessionToken: string) => ({
  overview: () => call<Schema<'SsoSetupOverview'>>('GET', '/sso-setup/current', undefined, sessionToken),
  createConnection: (body: Schema<'SsoSetupConnectionCreate'>) =>
    call<Schema<'SsoConnection'>>('POST', '/sso-setup/current/connections', body, sessionToken),
  createDomain: (domain: string) => call<Schema<'TeamDomain'>>('POST', '/sso-setup/current/domains', { domain }, sessionToken),
  verifyDomain: (id: string) =>
    call<Schema<'TeamDomain'>>('POST', `/sso-setup/current/domains/${encodeURIComponent(id)}/verify`, undefined, sessionToken),
  createScimDirectory: () => call<Schema<'ScimDirectoryWithToken'>>('POST', '/sso-setup/current/scim-directories', {}, sessionToken),
});
