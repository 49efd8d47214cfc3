import type { Schema } from '@gatehouse/protocol/operation-types';

/** Where the setup page keeps its session (this tab only: a reload keeps it, another tab does not get it). */
const sessionKey = 'gatehouse-sso-setup-session';

/** A refusal of the setup API, with its catalogued code. */
export class SetupError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const friendly: Record<string, string> = {
  SSO_SETUP_LINK_EXPIRED: 'This setup link has expired. Ask for a new one.',
  SSO_SETUP_LINK_REVOKED: 'This setup link was revoked. Ask for a new one.',
  SSO_SETUP_LINK_ALREADY_USED: 'This setup link was already opened. Ask for a new one.',
  SSO_SETUP_LINK_NOT_FOUND: 'This setup link is not valid.',
  SSO_SETUP_SESSION_INVALID: 'Your setup session has ended. Ask for a new link.',
};

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
    const code = answer.code ?? 'UNKNOWN';
    throw new SetupError(code, friendly[code] ?? answer.error ?? 'The request failed.');
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
  if (!kept) throw new SetupError('SSO_SETUP_LINK_NOT_FOUND', friendly.SSO_SETUP_LINK_NOT_FOUND as string);
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
