import { type FormEvent, useEffect, useState } from 'react';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useCheckPasswordResetCode, useResetPassword } from '../../generated/hooks.ts';
import { type NewPassword, NewPasswordFields } from '../../ui/fields.tsx';
import { Card, Loading, RequestError, SubmitButton, useValidate } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** The emailed reset link lands here: the code is checked first, then the new password is set with it. */
export function PasswordResetPage() {
  const { urls } = useGatehouse();
  const { t } = useTranslation();
  const validate = useValidate();
  const code = queryParam('code');
  const check = useCheckPasswordResetCode();
  const reset = useResetPassword();
  const [newPassword, setNewPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const { mutate: checkCode } = check;

  useEffect(() => {
    if (code) checkCode({ data: { code } });
  }, [code, checkCode]);

  if (!code) {
    return (
      <Card title={t('passwordReset.title')}>
        <p className="gh-error">{t('common.linkIncomplete')}</p>
      </Card>
    );
  }
  if (reset.isSuccess) {
    return (
      <Card title={t('passwordReset.doneTitle')}>
        <p className="gh-success" role="status">
          {t('passwordReset.done')}
        </p>
        <Link href={urls.signIn}>{t('common.signIn')}</Link>
      </Card>
    );
  }
  if (check.isPending || check.isIdle) return <Loading label={t('passwordReset.checking')} />;
  if (check.isError) {
    return (
      <Card title={t('passwordReset.title')}>
        <RequestError error={check.error} />
        <Link href={urls.forgotPassword}>{t('passwordReset.sendNewLink')}</Link>
      </Card>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate.newPassword(newPassword);
    setErrors(found);
    if (!found.password && !found.repeat) reset.mutate({ data: { code, password: newPassword.password } });
  };
  return (
    <Card title={t('passwordReset.title')}>
      <form onSubmit={submit} noValidate aria-label={t('passwordReset.title')}>
        <NewPasswordFields label={t('field.newPassword')} value={newPassword} onChange={setNewPassword} errors={errors} />
        <RequestError error={reset.error} />
        <SubmitButton pending={reset.isPending}>{t('passwordReset.submit')}</SubmitButton>
      </form>
    </Card>
  );
}
