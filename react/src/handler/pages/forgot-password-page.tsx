import { type FormEvent, useState } from 'react';
import { absoluteUrl } from '../../absolute-url.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useSendPasswordResetCode } from '../../generated/hooks.ts';
import { keepReturnTo } from '../../navigation.ts';
import { Card, RequestError, SubmitButton, useValidate } from '../../ui/form.tsx';
import { EmailField } from '../../ui/fields.tsx';
import { Link } from '../../ui/link.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

export function ForgotPasswordPage() {
  const { urls } = useGatehouse();
  const { t } = useTranslation();
  const validate = useValidate();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const send = useSendPasswordResetCode();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validate.email(email);
    setError(invalid);
    if (!invalid) send.mutate({ data: { email: email.trim(), callback_url: absoluteUrl(urls.passwordReset) } });
  };
  return (
    <Card title={t('forgotPassword.title')}>
      {send.isSuccess ? (
        <p className="gh-success" role="status">
          {t('forgotPassword.sent', { email: email.trim() })}
        </p>
      ) : (
        <form onSubmit={submit} noValidate aria-label={t('forgotPassword.title')}>
          <EmailField value={email} onChange={setEmail} error={error} />
          <RequestError error={send.error} />
          <SubmitButton pending={send.isPending}>{t('forgotPassword.send')}</SubmitButton>
        </form>
      )}
      <p className="gh-muted">
        <Link href={keepReturnTo(urls.signIn)}>{t('common.backToSignIn')}</Link>
      </p>
    </Card>
  );
}
