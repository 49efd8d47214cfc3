import { useState } from 'react';
import { type Gatehouse, useGatehouse } from '../gatehouse-context.ts';
import type { BotChallengeFields } from '../auth/bot-challenge.ts';
import { RequestError } from '../ui/form.tsx';
import { LocalisedError } from '../ui/error-message.ts';
import { useTranslation } from '../i18n/i18n-context.ts';
import type { BotChallenge } from './bot-challenge-widget.tsx';

const providerNames: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  microsoft: 'Microsoft',
  spotify: 'Spotify',
  facebook: 'Facebook',
  discord: 'Discord',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  linkedin: 'LinkedIn',
  apple: 'Apple',
  x: 'X',
  twitch: 'Twitch',
};

/** The flow's code (PKCE, the pending-flow store) loads on the click, not with the sign-in page. */
const startOAuth = async (gatehouse: Gatehouse, provider: string, botChallenge: BotChallengeFields) =>
  (await import('../auth/oauth-flow.ts')).startOAuth(gatehouse, provider, { botChallenge });

export const providerName = (provider: string) => providerNames[provider] ?? provider;

/** How long a click waits for a widget still at work (an invisible one runs when the page opens). */
const widgetWaitMillis = 5_000;

/**
 * The bot-challenge fields for an OAuth click. A sign-in through a provider may sign a user up, and
 * only the server knows at the callback, so the token goes with every click: `required` without an
 * answer stops here (the provider would be visited for a refusal), `invisible` goes on with what the
 * widget gave (a missing token only counts in the bot risk score).
 */
async function challengeFields(botChallenge: BotChallenge | undefined): Promise<BotChallengeFields> {
  if (!botChallenge?.challenge) return {};
  const fields = await botChallenge.settledFields(widgetWaitMillis);
  if (botChallenge.challenge.mode === 'required' && !fields.bot_challenge_token && !fields.bot_challenge_unavailable)
    throw new LocalisedError('error.BOT_CHALLENGE_REQUIRED');
  // A token is single-use: the next click (after coming back to this page) gets a fresh one.
  botChallenge.renew();
  return fields;
}

/**
 * One button per OAuth provider the project enabled; nothing when there are none. With the page's
 * bot challenge, its widget is shown here and each click carries its token.
 */
export function OAuthButtons({ providers, botChallenge }: { providers: string[]; botChallenge?: BotChallenge }) {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  if (providers.length === 0) return null;
  const start = (provider: string) => {
    setError(null);
    setPending(true);
    challengeFields(botChallenge)
      .then((fields) => startOAuth(gatehouse, provider, fields))
      .catch(setError)
      // The browser is leaving (or the click failed): a page restored from the back-forward cache is usable again.
      .finally(() => setPending(false));
  };
  return (
    <div className="gh-stack">
      {providers.map((provider) => (
        <button key={provider} type="button" disabled={pending} aria-busy={pending} onClick={() => start(provider)}>
          {t('signIn.continueWith', { provider: providerName(provider) })}
        </button>
      ))}
      {botChallenge?.widget}
      <RequestError error={error} />
      <p className="gh-divider">{t('common.or')}</p>
    </div>
  );
}
