import { type FormEvent, useState } from 'react';
import { absoluteUrl } from '../absolute-url.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { useSignUpWithPassword } from '../generated/hooks.ts';
import { useProject } from '../hooks/use-project.ts';
import { keepReturnTo } from '../navigation.ts';
import { EmailField, type NewPassword, NewPasswordFields } from '../ui/fields.tsx';
import { Card, newPasswordErrors, RequestError, SubmitButton, validate } from '../ui/form.tsx';
import { Link } from '../ui/link.tsx';
import { useBotChallenge } from './bot-challenge-widget.tsx';
import { OAuthButtons } from './oauth-buttons.tsx';

/** Creates an account with email and password (and offers the project's OAuth providers). */
export function SignUp({ title = 'Create your account' }: { title?: string }) {
  const gatehouse = useGatehouse();
  const { config, display_name } = useProject();
  const [email, setEmail] = useState('');
  const [newPassword, setNewPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [errors, setErrors] = useState<{ email?: string; password?: string; repeat?: string }>({});
  const botChallenge = useBotChallenge(config.bot_challenge);
  const signUp = useSignUpWithPassword({
    mutation: {
      onSuccess: (tokens) => gatehouse.completeSignIn(tokens, 'sign-up'),
      // A challenge token is good for one try.
      onError: () => botChallenge.renew(),
    },
  });

  if (!config.sign_up_enabled) {
    return (
      <Card title={title}>
        <p className="gh-error">Sign-up is turned off for {display_name}.</p>
      </Card>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { email: validate.email(email), ...newPasswordErrors(newPassword) };
    setErrors(found);
    if (found.email || found.password || found.repeat) return;
    signUp.mutate({
      data: {
        email: email.trim(),
        password: newPassword.password,
        verification_callback_url: absoluteUrl(gatehouse.urls.emailVerification),
        ...botChallenge.fields(),
      },
    });
  };

  return (
    <Card title={title}>
      <p className="gh-muted">for {display_name}</p>
      <div className="gh-stack">
        <OAuthButtons providers={config.enabled_oauth_providers.map((provider) => provider.id)} />
        {config.credential_enabled ? (
          <form onSubmit={submit} noValidate aria-label="Sign up with password">
            <EmailField value={email} onChange={setEmail} error={errors.email} />
            <NewPasswordFields value={newPassword} onChange={setNewPassword} errors={errors} />
            {botChallenge.widget}
            <RequestError error={signUp.error} />
            <SubmitButton pending={signUp.isPending}>Sign up</SubmitButton>
          </form>
        ) : null}
        <p className="gh-muted">
          Already have an account? <Link href={keepReturnTo(gatehouse.urls.signIn)}>Sign in</Link>
        </p>
      </div>
    </Card>
  );
}
