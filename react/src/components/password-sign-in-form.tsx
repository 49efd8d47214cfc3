import { type FormEvent, useState } from 'react';
import { continueWithMfa } from '../auth/mfa-attempt.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { useSignInWithPassword } from '../generated/hooks.ts';
import { RequestError, SubmitButton, validate } from '../ui/form.tsx';
import { EmailField, PasswordField } from '../ui/fields.tsx';

export function PasswordSignInForm() {
  const gatehouse = useGatehouse();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const signIn = useSignInWithPassword({ mutation: { onSuccess: (tokens) => gatehouse.completeSignIn(tokens, 'sign-in') } });
  const failure = signIn.error && !continueWithMfa(gatehouse, signIn.error) ? signIn.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { email: validate.email(email), password: password ? undefined : 'Enter your password.' };
    setErrors(found);
    if (found.email || found.password) return;
    signIn.mutate({ data: { email: email.trim(), password } });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in with password">
      <EmailField value={email} onChange={setEmail} error={errors.email} />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <RequestError error={failure} />
      <SubmitButton pending={signIn.isPending}>Sign in</SubmitButton>
    </form>
  );
}
