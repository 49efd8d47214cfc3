import { useState } from 'react';
import { type Gatehouse, useGatehouse } from '../gatehouse-context.ts';
import { RequestError } from '../ui/form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

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
const startOAuth = async (gatehouse: Gatehouse, provider: string) =>
  (await import('../auth/oauth-flow.ts')).startOAuth(gatehouse, provider);

export const providerName = (provider: string) => providerNames[provider] ?? provider;

/** One button per OAuth provider the project enabled; nothing when there are none. */
export function OAuthButtons({ providers }: { providers: string[] }) {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  if (providers.length === 0) return null;
  return (
    <div className="gh-stack">
      {providers.map((provider) => (
        <button key={provider} type="button" onClick={() => startOAuth(gatehouse, provider).catch(setError)}>
          {t('signIn.continueWith', { provider: providerName(provider) })}
        </button>
      ))}
      <RequestError error={error} />
      <p className="gh-divider">{t('common.or')}</p>
    </div>
  );
}
