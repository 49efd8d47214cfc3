import { oauthProviderNames } from '@gatehouse/protocol/oauth-providers';
import { useState } from 'react';
import { type Gatehouse, useGatehouse } from '../gatehouse-context.ts';
import { RequestError } from '../ui/form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';
import type { BotChallenge } from './bot-challenge-widget.tsx';

const providerNames: Readonly<Record<string, string>> = oauthProviderNames;

/** The flow's code (PKCE, the pending-flow store, the wait for the widget) loads on the click, not with the sign-in page. */
const startOAuth = async (gatehouse: Gatehouse, provider: string, botChallenge: BotChallenge | undefined) =>
  (await import('../auth/oauth-flow.ts')).startOAuthWithChallenge(gatehouse, provider, botChallenge);

export const providerName = (provider: string) => providerNames[provider] ?? provider;

/**
 * One button per OAuth provider the project enabled; nothing when there are none. A project's own
 * OpenID provider (`oidc_providers`) is a button like the others, labelled with its display name.
 * With the page's bot challenge, its widget is shown here and each click carries its token.
 */
export function OAuthButtons({
  providers,
  botChallenge,
}: {
  providers: Array<{ id: string; display_name?: string }>;
  botChallenge?: BotChallenge;
}) {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  if (providers.length === 0) return null;
  return (
    <div className="gh-stack">
      {providers.map(({ id, display_name }) => (
        <button key={id} type="button" onClick={() => startOAuth(gatehouse, id, botChallenge).catch(setError)}>
          {t('signIn.continueWith', { provider: display_name ?? providerName(id) })}
        </button>
      ))}
      {botChallenge?.widget}
      <RequestError error={error} />
      <p className="gh-divider">{t('common.or')}</p>
    </div>
  );
}
