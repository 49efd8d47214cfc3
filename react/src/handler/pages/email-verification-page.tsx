import { useGatehouse } from '../../gatehouse-context.ts';
import { useVerifyContactChannel } from '../../generated/hooks.ts';
import { Card, RequestError } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** Verifies an email from the emailed link, on a click (mail scanners open links but do not click). */
export function EmailVerificationPage() {
  const { urls } = useGatehouse();
  const { t } = useTranslation();
  const code = queryParam('code');
  const verify = useVerifyContactChannel();
  if (!code) {
    return (
      <Card title={t('emailVerification.title')}>
        <p className="gh-error">{t('common.linkIncomplete')}</p>
      </Card>
    );
  }
  return (
    <Card title={t('emailVerification.title')}>
      {verify.isSuccess ? (
        <div className="gh-stack">
          <p className="gh-success" role="status">
            {t('emailVerification.done')}
          </p>
          <Link href={urls.home}>{t('common.continue')}</Link>
        </div>
      ) : (
        <div className="gh-stack">
          <RequestError error={verify.error} />
          <button type="button" className="gh-primary" disabled={verify.isPending} onClick={() => verify.mutate({ data: { code } })}>
            {t('emailVerification.submit')}
          </button>
        </div>
      )}
    </Card>
  );
}
