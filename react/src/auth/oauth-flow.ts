import type { Gatehouse } from '../gatehouse-context.ts';
import type { BotChallenge } from '../components/bot-challenge-widget.tsx';
import { LocalisedError } from '../ui/error-message.ts';
import type { BotChallengeFields } from './bot-challenge.ts';
import { absoluteUrl } from '../absolute-url.ts';
import { RETURN_TO_PARAM } from '../navigation.ts';

/** What the callback page needs to finish a flow this tab started, keyed by the flow's `state`. */
export type PendingOAuthFlow = { codeVerifier: string; redirectUri: string; returnTo: string | null; type: 'authenticate' | 'link' };

const storageKey = (state: string) => `gatehouse-oauth-${state}`;

/**
 * Starts an OAuth sign-in (or, with `type: 'link'`, connects a provider to the signed-in user):
 * PKCE S256 with a fresh verifier and state kept in session storage, then a full navigation to the
 * platform's authorize endpoint, which sends the browser on to the provider. `botChallenge`: the
 * project's bot-challenge fields for a sign-in that may sign a user up (the server verifies them at
 * authorize and holds a new user to them at the callback); a link flow sends none.
 */
export async function startOAuth(
  gatehouse: Gatehouse,
  provider: string,
  options: {
    type?: 'authenticate' | 'link';
    providerScope?: string;
    returnTo?: string | null;
    botChallenge?: BotChallengeFields;
  } = {},
): Promise<void> {
  const type = options.type ?? 'authenticate';
  const flow = await newFlow(gatehouse, type, options.returnTo);
  const url = new URL(`${apiBase(gatehouse)}/auth/oauth/authorize/${encodeURIComponent(provider)}`);
  const params: Record<string, string> = {
    ...flow.params,
    scope: 'legacy',
    grant_type: 'authorization_code',
    response_type: 'code',
    type,
    error_redirect_url: absoluteUrl(gatehouse.urls.error),
  };
  if (type === 'link') params.token = (await gatehouse.session.getAccessToken()) ?? '';
  if (options.providerScope) params.provider_scope = options.providerScope;
  if (type === 'authenticate') for (const [name, value] of Object.entries(options.botChallenge ?? {})) if (value) params[name] = value;
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  window.location.assign(url.href);
}

/** How long a click waits for a widget still at work (an invisible one runs when the page opens). */
const widgetWaitMillis = 5_000;

/**
 * An OAuth button's click with the page's bot challenge. A sign-in through a provider may sign a user
 * up, and only the server knows at the callback, so the token goes with every click: `required`
 * without an answer stops here (the provider would be visited for a refusal), `invisible` goes on
 * with what the widget gave (a missing token only counts in the bot risk score).
 */
export async function startOAuthWithChallenge(gatehouse: Gatehouse, provider: string, botChallenge: BotChallenge | undefined) {
  const settled = (fields: BotChallengeFields) => fields.bot_challenge_token || fields.bot_challenge_unavailable;
  const deadline = Date.now() + widgetWaitMillis;
  while (botChallenge?.challenge && !settled(botChallenge.fields()) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const fields = botChallenge?.fields() ?? {};
  if (botChallenge?.challenge?.mode === 'required' && !settled(fields)) throw new LocalisedError('error.BOT_CHALLENGE_REQUIRED');
  // A token is single-use: a click after coming back to this page gets a fresh one.
  botChallenge?.renew();
  await startOAuth(gatehouse, provider, { botChallenge: fields });
}

/**
 * Starts a sign-in through a team's SSO connection (home-realm discovery found it): the same PKCE
 * flow as OAuth, finished by the same callback page, with the email as the IdP's login hint.
 */
export async function startSso(gatehouse: Gatehouse, connectionId: string, email: string): Promise<void> {
  const flow = await newFlow(gatehouse, 'authenticate');
  const url = new URL(`${apiBase(gatehouse)}/auth/sso/authorize/${encodeURIComponent(connectionId)}`);
  const params: Record<string, string> = { ...flow.params, login_hint: email, error_redirect_uri: absoluteUrl(gatehouse.urls.error) };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  window.location.assign(url.href);
}

const apiBase = (gatehouse: Gatehouse) => `${gatehouse.baseUrl.replace(/\/$/, '')}/api/v1`;

/** A fresh PKCE verifier and state, kept in session storage for the callback page; the authorize query's common part. */
async function newFlow(gatehouse: Gatehouse, type: PendingOAuthFlow['type'], returnToOption?: string | null) {
  const codeVerifier = randomBase64Url(32);
  const state = randomBase64Url(24);
  const redirectUri = absoluteUrl(gatehouse.urls.oauthCallback);
  const returnTo = returnToOption ?? new URLSearchParams(window.location.search).get(RETURN_TO_PARAM);
  const flow: PendingOAuthFlow = { codeVerifier, redirectUri, returnTo, type };
  sessionStorage.setItem(storageKey(state), JSON.stringify(flow));
  return {
    params: {
      client_id: gatehouse.projectId,
      client_secret: gatehouse.publishableClientKey,
      redirect_uri: redirectUri,
      state,
      code_challenge: await s256(codeVerifier),
      code_challenge_method: 'S256',
    },
  };
}

/** The flow a callback belongs to; each flow can be finished once. */
export function takePendingOAuthFlow(state: string): PendingOAuthFlow | null {
  const saved = sessionStorage.getItem(storageKey(state));
  sessionStorage.removeItem(storageKey(state));
  return saved ? (JSON.parse(saved) as PendingOAuthFlow) : null;
}

function randomBase64Url(bytes: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function s256(verifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
