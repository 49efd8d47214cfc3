import { useEffect } from 'react';
import { getGetOAuthConsentRequestQueryKey, useCompleteOAuthConsentRequest, useGetOAuthConsentRequest } from '../../generated/hooks.ts';
import { useUser } from '../../hooks/use-user.ts';
import { Card, Loading, RequestError } from '../../ui/form.tsx';
import { scopeDescription } from '../../ui/protocol-words.ts';
import { queryParam } from './query-param.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';

/**
 * The consent step of the project as an OpenID provider: an application asks to act for the signed-in user (who
 * signs in first and comes back here); the user allows or denies, and the browser returns to the provider, which
 * sends it on to the application. A request the user already allowed for that application is answered at once.
 */
export function OAuthConsentPage() {
  const user = useUser({ or: 'redirect' });
  const interaction = queryParam('interaction') ?? '';
  const { t } = useTranslation();
  const request = useGetOAuthConsentRequest(interaction, {
    query: { enabled: interaction !== '', queryKey: getGetOAuthConsentRequestQueryKey(interaction) },
  });
  const answer = useCompleteOAuthConsentRequest({
    mutation: { onSuccess: (next: { redirect_to: string }) => window.location.assign(next.redirect_to) },
  });
  const remembered = request.data?.remembered === true;
  const { mutate } = answer;
  useEffect(() => {
    if (remembered) mutate({ interactionId: interaction, data: { allow: true } });
  }, [remembered, interaction, mutate]);

  if (!interaction) {
    return (
      <Card title={t('consent.title')}>
        <p className="gh-error">{t('consent.incomplete')}</p>
      </Card>
    );
  }
  if (request.isError) {
    return (
      <Card title={t('consent.title')}>
        <RequestError error={request.error} />
      </Card>
    );
  }
  if (!request.data || remembered || answer.isSuccess) return <Loading label={t('consent.returning')} />;
  const { application_name: name, logo_url: logo, scopes } = request.data;
  return (
    <Card title={t('consent.titleFor', { name })}>
      {logo ? <img src={logo} alt="" width={48} height={48} /> : null}
      <p>{t('consent.asks', { name, account: user.primary_email ?? user.display_name ?? '' })}</p>
      <ul aria-label={t('consent.scopesLabel')}>
        {scopes.map((scope) => (
          <li key={scope.name}>{scopeDescription(t, scope)}</li>
        ))}
      </ul>
      <p>{t('consent.revokeLater')}</p>
      <RequestError error={answer.error} />
      <div className="gh-actions">
        <button
          type="button"
          className="gh-primary"
          disabled={answer.isPending}
          onClick={() => answer.mutate({ interactionId: interaction, data: { allow: true } })}
        >
          {t('consent.allow')}
        </button>
        <button
          type="button"
          disabled={answer.isPending}
          onClick={() => answer.mutate({ interactionId: interaction, data: { allow: false } })}
        >
          {t('consent.deny')}
        </button>
      </div>
    </Card>
  );
}
