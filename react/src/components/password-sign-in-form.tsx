import { type FormEvent, useState } from 'react';
import { continueWithMfa } from '../auth/mfa-attempt.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { useSignInWithPassword } from '../generated/hooks.ts';
import { RequestError, SubmitButton, useValidate } from '../ui/form.tsx';
import { EmailField, PasswordField } from '../ui/fields.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/** `initialEmail`: the address the email-first step was given. */
export function PasswordSignInForm({ initialEmail = '' }: { initialEmail?: string }) {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const validate = useValidate();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const signIn = useSignInWithPassword({ mutation: { onSuccess: (tokens) => gatehouse.completeSignIn(tokens, 'sign-in') } });
  const failure = signIn.error && !continueWithMfa(gatehouse, signIn.error) ? signIn.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { email: validate.email(email), password: password ? undefined : t('validate.passwordMissingSignIn') };
    setErrors(found);
    if (found.email || found.password) return;
    signIn.mutate({ data: { email: email.trim(), password } });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('signIn.withPasswordForm')}>
      <EmailField value={email} onChange={setEmail} error={errors.email} />
      <PasswordField
        label={t('field.password')}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <RequestError error={failure} />
      <SubmitButton pending={signIn.isPending}>{t('common.signIn')}</SubmitButton>
    </form>
  );
}
