import { useState } from 'react';
import { startOAuth } from '../auth/oauth-flow.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { RequestError } from '../ui/form.tsx';

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

export const providerName = (provider: string) => providerNames[provider] ?? provider;

/** One button per OAuth provider the project enabled; nothing when there are none. */
export function OAuthButtons({ providers }: { providers: string[] }) {
  const gatehouse = useGatehouse();
  const [error, setError] = useState<unknown>(null);
  if (providers.length === 0) return null;
  return (
    <div className="gh-stack">
      {providers.map((provider) => (
        <button key={provider} type="button" onClick={() => startOAuth(gatehouse, provider).catch(setError)}>
          Continue with {providerName(provider)}
        </button>
      ))}
      <RequestError error={error} />
      <p className="gh-divider">or</p>
    </div>
  );
}
