import { useGatehouse } from '../../gatehouse-context.ts';
import { Card } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** Where flows that fail outside the app (OAuth providers, links) land with `errorCode` and `message`. */
export function ErrorPage() {
  const { urls } = useGatehouse();
  const { t } = useTranslation();
  const message = queryParam('message') ?? queryParam('error_description') ?? t('errorPage.title');
  const code = queryParam('errorCode') ?? queryParam('error');
  return (
    <Card title={t('errorPage.title')}>
      <p className="gh-error" role="alert">
        {message}
      </p>
      {code ? <p className="gh-muted">{t('errorPage.code', { code })}</p> : null}
      <Link href={urls.signIn}>{t('common.backToSignIn')}</Link>
    </Card>
  );
}
