import { useState } from 'react';
import { startOAuth } from '../../auth/oauth-flow.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import { getListOAuthProvidersQueryKey, listOAuthProviders, useDeleteOAuthProvider } from '../../generated/hooks.ts';
import type { OAuthProviderView } from '../../generated/hooks.schemas.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { useSignedInQuery } from '../../hooks/use-signed-in-query.ts';
import { useProject } from '../../hooks/use-project.ts';
import { RequestError } from '../../ui/form.tsx';
import { providerName } from '../oauth-buttons.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

const myProviders = { user_id: 'me' } as const;

/** The OAuth accounts linked to the user; the project's other providers can be connected from here. */
export function ConnectedAccountsSection() {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const { config } = useProject();
  const linked = useSignedInQuery<OAuthProviderView[]>(
    getListOAuthProvidersQueryKey(myProviders),
    [],
    async (signal) => (await listOAuthProviders(myProviders, { signal })).items,
  );
  const invalidate = useInvalidate();
  const unlink = useDeleteOAuthProvider({ mutation: { onSuccess: invalidate(getListOAuthProvidersQueryKey(myProviders)) } });
  const [error, setError] = useState<unknown>(null);
  const linkedConfigs = new Set(linked.map((account) => account.provider_config_id));
  // A project's own OpenID provider is named by its display name, not its key (`oidc-acme`).
  const ownProviders = config.oidc_providers ?? [];
  const nameOf = (id: string) => ownProviders.find((provider) => provider.id === id)?.display_name ?? providerName(id);
  const connectable = [...config.enabled_oauth_providers, ...ownProviders].filter((provider) => !linkedConfigs.has(provider.id));

  return (
    <section aria-labelledby="gh-connected-accounts">
      <h2 id="gh-connected-accounts">{t('account.tabConnectedAccounts')}</h2>
      {linked.length === 0 ? <p className="gh-muted">{t('connected.none')}</p> : null}
      <ul className="gh-list" aria-label={t('account.tabConnectedAccounts')}>
        {linked.map((account) => (
          <li key={account.id}>
            <span>
              {nameOf(account.provider_config_id)} {account.email ? <span className="gh-muted">{account.email}</span> : null}
            </span>
            <button type="button" className="gh-danger" onClick={() => unlink.mutate({ userId: 'me', providerId: account.id })}>
              {t('connected.disconnect')}
            </button>
          </li>
        ))}
      </ul>
      <div className="gh-row">
        {connectable.map((provider) => (
          <button
            key={provider.id}
            type="button"
            onClick={() => startOAuth(gatehouse, provider.id, { type: 'link', returnTo: window.location.href }).catch(setError)}
          >
            {t('connected.connect', { provider: nameOf(provider.id) })}
          </button>
        ))}
      </div>
      <RequestError error={error ?? unlink.error} />
    </section>
  );
}
