import { getListMyOAuthConnectionsQueryKey, useListMyOAuthConnectionsSuspense, useRevokeMyOAuthConnection } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { RequestError } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';
import { intlLocaleOf } from '../../i18n/language-formats.ts';
import { scopeDescription } from '../../ui/protocol-words.ts';

/** The OAuth applications the user allowed on the consent page; disconnecting one ends its access at once. */
export function ConnectedAppsSection() {
  const connections = useListMyOAuthConnectionsSuspense().data.items;
  const { t, language } = useTranslation();
  // Dates in the user's language (the pseudo-locale's are English's).
  const dates = new Intl.DateTimeFormat(intlLocaleOf(language), { dateStyle: 'medium' });
  const invalidate = useInvalidate();
  const revoke = useRevokeMyOAuthConnection({ mutation: { onSuccess: invalidate(getListMyOAuthConnectionsQueryKey()) } });
  return (
    <section aria-labelledby="gh-connected-apps">
      <h2 id="gh-connected-apps">{t('connectedApps.title')}</h2>
      {connections.length === 0 ? <p className="gh-muted">{t('connectedApps.none')}</p> : null}
      <ul className="gh-list">
        {connections.map((connection) => (
          <li key={connection.client_id}>
            <span>
              {connection.logo_url ? <img src={connection.logo_url} alt="" width={24} height={24} /> : null}{' '}
              <strong>{connection.application_name}</strong>{' '}
              <span className="gh-muted">{t('connectedApps.grantedOn', { when: dates.format(connection.granted_at_millis) })}</span>
              <ul aria-label={t('connectedApps.scopesOf', { name: connection.application_name })}>
                {connection.scopes.map((scope) => (
                  <li key={scope.name}>{scopeDescription(t, scope)}</li>
                ))}
              </ul>
            </span>
            <button
              type="button"
              className="gh-danger"
              aria-label={t('connectedApps.revokeAria', { name: connection.application_name })}
              disabled={revoke.isPending}
              onClick={() => revoke.mutate({ clientId: connection.client_id })}
            >
              {t('connectedApps.revoke')}
            </button>
          </li>
        ))}
      </ul>
      <RequestError error={revoke.error} />
    </section>
  );
}
