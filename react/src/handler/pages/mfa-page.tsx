import { type FormEvent, useState } from 'react';
import { clearMfaAttemptCode, takeMfaAttemptCode } from '../../auth/mfa-attempt.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useSignInWithMfa } from '../../generated/hooks.ts';
import { Card, Field, RequestError, SubmitButton } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';

/** The second factor: a code from the authenticator app, or one of the recovery codes. */
export function MfaPage() {
  const gatehouse = useGatehouse();
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
      <Card title="Two-factor authentication">
        <p className="gh-error">Start by signing in: this page continues a sign-in.</p>
        <Link href={gatehouse.urls.signIn}>Sign in</Link>
      </Card>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    setError(typed ? undefined : 'Enter the code from your authenticator app.');
    if (typed) signIn.mutate({ data: { type: 'totp', totp: typed, code: attemptCode } });
  };
  return (
    <Card title="Two-factor authentication">
      <form onSubmit={submit} noValidate aria-label="Two-factor authentication">
        <p className="gh-muted">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
        <Field
          label="Authentication code"
          name="totp"
          autoComplete="one-time-code"
          inputMode="text"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
        />
        <RequestError error={signIn.error} />
        <SubmitButton pending={signIn.isPending}>Verify</SubmitButton>
      </form>
    </Card>
  );
}
