import { continueWithMfa } from '../../auth/mfa-attempt.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useSignInWithCode } from '../../generated/hooks.ts';
import { Card, RequestError } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** The emailed sign-in link: one click signs in (a click, so that mail scanners do not use the code up). */
export function MagicLinkCallbackPage() {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const code = queryParam('code');
  const signIn = useSignInWithCode({ mutation: { onSuccess: (tokens) => gatehouse.completeSignIn(tokens, 'sign-in') } });
  const failure = signIn.error && !continueWithMfa(gatehouse, signIn.error) ? signIn.error : null;
  return (
    <Card title={t('signIn.title')}>
      {code ? (
        <div className="gh-stack">
          <RequestError error={failure} />
          <button type="button" className="gh-primary" disabled={signIn.isPending} onClick={() => signIn.mutate({ data: { code } })}>
            {t('common.signIn')}
          </button>
        </div>
      ) : (
        <p className="gh-error">{t('common.linkIncomplete')}</p>
      )}
      <Link href={gatehouse.urls.signIn}>{t('common.backToSignIn')}</Link>
    </Card>
  );
}
