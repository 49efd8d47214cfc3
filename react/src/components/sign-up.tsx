import { type FormEvent, useState } from 'react';
import { absoluteUrl } from '../absolute-url.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { useSignUpWithPassword } from '../generated/hooks.ts';
import { useProject } from '../hooks/use-project.ts';
import { keepReturnTo } from '../navigation.ts';
import { EmailField, type NewPassword, NewPasswordFields } from '../ui/fields.tsx';
import { Card, RequestError, SubmitButton, useValidate } from '../ui/form.tsx';
import { Link } from '../ui/link.tsx';
import { useBotChallenge } from './bot-challenge-widget.tsx';
import { OAuthButtons } from './oauth-buttons.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/** Creates an account with email and password (and offers the project's OAuth providers). */
export function SignUp({ title: customTitle }: { title?: string }) {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const validate = useValidate();
  const title = customTitle ?? t('signUp.title');
  const { config, display_name } = useProject();
  const [email, setEmail] = useState('');
  const [newPassword, setNewPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [errors, setErrors] = useState<{ email?: string; password?: string; repeat?: string }>({});
  // One widget for the page: its token goes with the password form or an OAuth button (an OAuth sign-up is challenged too).
  const botChallenge = useBotChallenge(config.bot_challenge);
  const providers = [...config.enabled_oauth_providers, ...(config.oidc_providers ?? [])];
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
        <p className="gh-error">{t('signUp.disabled', { project: display_name })}</p>
      </Card>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { email: validate.email(email), ...validate.newPassword(newPassword) };
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
      <p className="gh-muted">{t('signUp.forProject', { project: display_name })}</p>
      <div className="gh-stack">
        <OAuthButtons providers={providers} botChallenge={botChallenge} />
        {config.credential_enabled ? (
          <form onSubmit={submit} noValidate aria-label={t('signUp.form')}>
            <EmailField value={email} onChange={setEmail} error={errors.email} />
            <NewPasswordFields value={newPassword} onChange={setNewPassword} errors={errors} />
            {providers.length === 0 ? botChallenge.widget : null}
            <RequestError error={signUp.error} />
            <SubmitButton pending={signUp.isPending}>{t('common.signUp')}</SubmitButton>
          </form>
        ) : null}
        <p className="gh-muted">
          {t('signUp.haveAccount')} <Link href={keepReturnTo(gatehouse.urls.signIn)}>{t('common.signIn')}</Link>
        </p>
      </div>
    </Card>
  );
}
