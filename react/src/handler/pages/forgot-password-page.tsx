import { type FormEvent, useState } from 'react';
import { absoluteUrl } from '../../absolute-url.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useSendPasswordResetCode } from '../../generated/hooks.ts';
import { keepReturnTo } from '../../navigation.ts';
import { Card, RequestError, SubmitButton, validate } from '../../ui/form.tsx';
import { EmailField } from '../../ui/fields.tsx';
import { Link } from '../../ui/link.tsx';

export function ForgotPasswordPage() {
  const { urls } = useGatehouse();
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
    <Card title="Reset your password">
      {send.isSuccess ? (
        <p className="gh-success" role="status">
          If an account uses {email.trim()}, we sent it a link to reset the password. Check your inbox.
        </p>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Reset your password">
          <EmailField value={email} onChange={setEmail} error={error} />
          <RequestError error={send.error} />
          <SubmitButton pending={send.isPending}>Send reset link</SubmitButton>
        </form>
      )}
      <p className="gh-muted">
        <Link href={keepReturnTo(urls.signIn)}>Back to sign in</Link>
      </p>
    </Card>
  );
}
