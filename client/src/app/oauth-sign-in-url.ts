/** The OAuth client secret that means "no publishable key" (docs/protocol/overview.md §6). */
export const PUBLIC_CLIENT_SECRET = '__stack_public_client__';

/** Providers the protocol knows (docs/protocol/overview.md §10); a project enables some of them. */
export type OAuthProvider =
  | 'google'
  | 'github'
  | 'microsoft'
  | 'spotify'
  | 'facebook'
  | 'discord'
  | 'gitlab'
  | 'bitbucket'
  | 'linkedin'
  | 'apple'
  | 'x'
  | 'twitch';

export type OAuthSignInUrlOptions = {
  /** Where the platform sends the browser back with `?code=…&state=…`; must be a trusted domain of the project. */
  redirectUrl: string;
  /** Where errors are sent instead (with `error`, `errorCode`, `message` in the query). */
  errorRedirectUrl?: string;
  /** Echoed back by the token exchange, e.g. the page the user started from. */
  afterCallbackRedirectUrl?: string;
  /** Extra provider scopes, space separated (not with the shared development keys). */
  providerScope?: string;
  /** Opaque value echoed to the redirect; random by default. */
  state?: string;
  /** PKCE verifier (43–128 characters of `[A-Za-z0-9._~-]`); random by default. */
  codeVerifier?: string;
  /**
   * The project's bot challenge, when it has one (`config.bot_challenge` of the current project): the
   * widget's token (`phase` `invisible` for a widget the user never saw), or `unavailable` when its
   * script could not load. A sign-in that signs a user up is held to it at the callback.
   */
  botChallenge?: { token?: string; phase?: 'invisible' | 'visible'; unavailable?: boolean };
};

export type OAuthSignInUrl = {
  /** Navigate the browser here. */
  url: string;
  /** Compare with the `state` of the redirect. */
  state: string;
  /** Keep it (e.g. in sessionStorage under `state`): the token exchange needs it. */
  codeVerifier: string;
};

export type OAuthClient = { baseUrl: string; projectId: string; publishableClientKey?: string };

/**
 * The authorize URL of docs/protocol/endpoints.md §7 (authorization code with PKCE S256), without calling the
 * server: the browser navigates to it, the provider signs the user in, and the platform redirects to
 * `redirectUrl` with a code to exchange for tokens together with `codeVerifier`.
 */
export async function buildOAuthSignInUrl(client: OAuthClient, provider: OAuthProvider | string, options: OAuthSignInUrlOptions) {
  const state = options.state ?? randomBase64Url(24);
  const codeVerifier = options.codeVerifier ?? randomBase64Url(32);
  const url = new URL(`${client.baseUrl.replace(/\/$/, '')}/api/v1/auth/oauth/authorize/${encodeURIComponent(provider)}`);
  const query: Record<string, string | undefined> = {
    client_id: client.projectId,
    client_secret: client.publishableClientKey ?? PUBLIC_CLIENT_SECRET,
    redirect_uri: options.redirectUrl,
    scope: 'legacy',
    state,
    grant_type: 'authorization_code',
    code_challenge: await codeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    response_type: 'code',
    type: 'authenticate',
    error_redirect_url: options.errorRedirectUrl,
    after_callback_redirect_url: options.afterCallbackRedirectUrl,
    provider_scope: options.providerScope,
    bot_challenge_token: options.botChallenge?.token || undefined,
    bot_challenge_phase: options.botChallenge?.token ? (options.botChallenge.phase ?? 'visible') : undefined,
    bot_challenge_unavailable: options.botChallenge?.unavailable ? 'true' : undefined,
  };
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  return { url: url.toString(), state, codeVerifier } satisfies OAuthSignInUrl;
}

/** base64url(SHA-256(verifier)), RFC 7636 §4.2. */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

function randomBase64Url(bytes: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
