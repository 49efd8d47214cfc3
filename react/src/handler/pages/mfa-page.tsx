import { type FormEvent, useState } from 'react';
import { clearMfaAttemptCode, takeMfaAttemptCode } from '../../auth/mfa-attempt.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useSignInWithMfa } from '../../generated/hooks.ts';
import { Card, Field, RequestError, SubmitButton } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** The second factor: a code from the authenticator app, or one of the recovery codes. */
export function MfaPage() {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const [attemptCode] = useState(() => takeMfaAttemptCode(gatehouse.projectId));
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const signIn = useSignInWithMfa({
    mutation: {
      onSuccess: (tokens) => {
        clearMfaAttemptCode(gatehouse.projectId);
        gatehouse.completeSignIn(tokens, 'sign-in');
      },
    },
  });
  if (!attemptCode) {
    return (
      <Card title={t('mfa.title')}>
        <p className="gh-error">{t('mfa.noAttempt')}</p>
        <Link href={gatehouse.urls.signIn}>{t('common.signIn')}</Link>
      </Card>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    setError(typed ? undefined : t('mfa.codeMissing'));
    if (typed) signIn.mutate({ data: { type: 'totp', totp: typed, code: attemptCode } });
  };
  return (
    <Card title={t('mfa.title')}>
      <form onSubmit={submit} noValidate aria-label={t('mfa.title')}>
        <p className="gh-muted">{t('mfa.explain')}</p>
        <Field
          label={t('mfa.codeField')}
          name="totp"
          autoComplete="one-time-code"
          inputMode="text"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
        />
        <RequestError error={signIn.error} />
        <SubmitButton pending={signIn.isPending}>{t('mfa.submit')}</SubmitButton>
      </form>
    </Card>
  );
}
