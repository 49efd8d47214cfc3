import type { ClientBotChallenge } from '../generated/hooks.schemas.ts';

/** The bot-challenge fields a sign-up request (or an OAuth authorize URL) carries (Stack's names). */
export type BotChallengeFields = {
  bot_challenge_token?: string;
  bot_challenge_phase?: 'invisible' | 'visible';
  bot_challenge_unavailable?: 'true';
};

/** What a provider's widget script puts on `window` (the part of Turnstile's, hCaptcha's and reCAPTCHA's APIs used here). */
type WidgetApi = {
  render(container: HTMLElement, options: Record<string, unknown>): string | number;
  execute?(widgetId?: string | number): void;
  reset?(widgetId?: string | number): void;
  remove?(widgetId?: string | number): void;
};

const globalNames: Record<ClientBotChallenge['provider'], string> = {
  turnstile: 'turnstile',
  hcaptcha: 'hcaptcha',
  recaptcha: 'grecaptcha',
};

const loading = new Map<string, Promise<WidgetApi>>();

/**
 * Loads the provider's widget script once per URL and waits for its global (`render=explicit`: the
 * page decides where the widget goes). Rejects when the script fails or the global does not appear
 * within ten seconds; the form then sends `bot_challenge_unavailable`.
 */
export function loadWidgetApi(challenge: ClientBotChallenge): Promise<WidgetApi> {
  const known = loading.get(challenge.script_url);
  if (known) return known;
  const name = globalNames[challenge.provider];
  const promise = new Promise<WidgetApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = challenge.script_url;
    script.async = true;
    script.onerror = () => reject(new Error('the bot challenge script did not load'));
    document.head.appendChild(script);
    const started = Date.now();
    const poll = () => {
      const api = (window as unknown as Record<string, WidgetApi | undefined>)[name];
      if (api && typeof api.render === 'function') resolve(api);
      else if (Date.now() - started > 10_000) reject(new Error('the bot challenge script did not start'));
      else setTimeout(poll, 50);
    };
    poll();
  });
  promise.catch(() => loading.delete(challenge.script_url));
  loading.set(challenge.script_url, promise);
  return promise;
}

/**
 * Renders the widget into `container`: invisible mode runs without asking anything (hCaptcha's and
 * reCAPTCHA's `size: invisible` with `execute`, Turnstile's `appearance: interaction-only`); required
 * mode shows it. `onToken` gets each token (null when it expires or fails); returns the cleanup.
 */
export function renderWidget(
  api: WidgetApi,
  container: HTMLElement,
  challenge: ClientBotChallenge,
  onToken: (token: string | null) => void,
): () => void {
  const invisible = challenge.mode === 'invisible';
  const options: Record<string, unknown> = {
    sitekey: challenge.site_key,
    callback: (token: string) => onToken(token),
    'expired-callback': () => onToken(null),
    'error-callback': () => onToken(null),
  };
  if (challenge.provider === 'turnstile') options.appearance = invisible ? 'interaction-only' : 'always';
  else if (invisible) options.size = 'invisible';
  const id = api.render(container, options);
  if (invisible && challenge.provider !== 'turnstile') api.execute?.(id);
  return () => {
    try {
      api.remove?.(id);
    } catch {
      // The widget is gone with its container already.
    }
  };
}
