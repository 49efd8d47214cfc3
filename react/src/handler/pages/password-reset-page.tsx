import { type FormEvent, useEffect, useState } from 'react';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useCheckPasswordResetCode, useResetPassword } from '../../generated/hooks.ts';
import { type NewPassword, NewPasswordFields } from '../../ui/fields.tsx';
import { Card, Loading, newPasswordErrors, RequestError, SubmitButton } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';

/** The emailed reset link lands here: the code is checked first, then the new password is set with it. */
export function PasswordResetPage() {
  const { urls } = useGatehouse();
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
      <Card title="Choose a new password">
        <p className="gh-error">This link is incomplete. Open the link from the email again.</p>
      </Card>
    );
  }
  if (reset.isSuccess) {
    return (
      <Card title="Password changed">
        <p className="gh-success" role="status">
          Your password has been changed.
        </p>
        <Link href={urls.signIn}>Sign in</Link>
      </Card>
    );
  }
  if (check.isPending || check.isIdle) return <Loading label="Checking the link…" />;
  if (check.isError) {
    return (
      <Card title="Choose a new password">
        <RequestError error={check.error} />
        <Link href={urls.forgotPassword}>Send a new link</Link>
      </Card>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = newPasswordErrors(newPassword);
    setErrors(found);
    if (!found.password && !found.repeat) reset.mutate({ data: { code, password: newPassword.password } });
  };
  return (
    <Card title="Choose a new password">
      <form onSubmit={submit} noValidate aria-label="Choose a new password">
        <NewPasswordFields label="New password" value={newPassword} onChange={setNewPassword} errors={errors} />
        <RequestError error={reset.error} />
        <SubmitButton pending={reset.isPending}>Change password</SubmitButton>
      </form>
    </Card>
  );
}
