import { useGatehouse } from '../../gatehouse-context.ts';
import { useCompleteCliLogin } from '../../generated/hooks.ts';
import { useUser } from '../../hooks/use-user.ts';
import { Card, RequestError } from '../../ui/form.tsx';
import { queryParam } from './query-param.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** A CLI waiting for a login: the signed-in user confirms it here and the CLI's next poll gets a session. */
export function CliAuthConfirmPage() {
  const { session } = useGatehouse();
  const { t } = useTranslation();
  const user = useUser({ or: 'redirect' });
  const loginCode = queryParam('login_code');
  const complete = useCompleteCliLogin();
  if (!loginCode) {
    return (
      <Card title={t('cli.title')}>
        <p className="gh-error">{t('cli.incomplete')}</p>
      </Card>
    );
  }
  if (complete.isSuccess) {
    return (
      <Card title={t('cli.doneTitle')}>
        <p className="gh-success" role="status">
          {t('cli.done', { user: user.primary_email ?? user.display_name })}
        </p>
      </Card>
    );
  }
  const authorize = () => {
    const refreshToken = session.getTokens().refreshToken;
    if (refreshToken) complete.mutate({ data: { login_code: loginCode, mode: 'complete', refresh_token: refreshToken } });
  };
  return (
    <Card title={t('cli.title')}>
      <p>{t('cli.asks', { user: user.primary_email ?? user.display_name })}</p>
      <RequestError error={complete.error} />
      <button type="button" className="gh-primary" disabled={complete.isPending} onClick={authorize}>
        {t('cli.authorize')}
      </button>
    </Card>
  );
}
