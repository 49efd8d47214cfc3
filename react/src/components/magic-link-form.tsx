import { type FormEvent, useState } from 'react';
import { absoluteUrl } from '../absolute-url.ts';
import { continueWithMfa } from '../auth/mfa-attempt.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { useSendSignInCode, useSignInWithCode } from '../generated/hooks.ts';
import { Field, RequestError, SubmitButton, useValidate } from '../ui/form.tsx';
import { EmailField } from '../ui/fields.tsx';
import { useProject } from '../hooks/use-project.ts';
import { type BotChallenge, useBotChallenge } from './bot-challenge-widget.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/**
 * Emails a sign-in link that also carries a 6-character code to type here instead. `sharedChallenge`:
 * the page's bot challenge when its widget is shown elsewhere on the page (by the OAuth buttons).
 */
export function MagicLinkForm({ sharedChallenge }: { sharedChallenge?: BotChallenge } = {}) {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const validate = useValidate();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [otp, setOtp] = useState('');
  // A code for an email with no account yet is a sign-up: the project's bot challenge applies.
  const { config } = useProject();
  const ownChallenge = useBotChallenge(sharedChallenge ? undefined : config.bot_challenge);
  const botChallenge = sharedChallenge ?? ownChallenge;
  const send = useSendSignInCode({ mutation: { onError: () => botChallenge.renew() } });
  const signIn = useSignInWithCode({ mutation: { onSuccess: (tokens) => gatehouse.completeSignIn(tokens, 'sign-in') } });
  const failure = signIn.error && !continueWithMfa(gatehouse, signIn.error) ? signIn.error : null;

  const sendLink = (event: FormEvent) => {
    event.preventDefault();
    const error = validate.email(email);
    setEmailError(error);
    if (!error)
      send.mutate({ data: { email: email.trim(), callback_url: absoluteUrl(gatehouse.urls.magicLinkCallback), ...botChallenge.fields() } });
  };

  if (send.data) {
    const submitOtp = (event: FormEvent) => {
      event.preventDefault();
      signIn.mutate({ data: { code: `${otp.trim().toUpperCase()}${send.data.nonce}` } });
    };
    return (
      <form onSubmit={submitOtp} noValidate aria-label={t('magicLink.codeForm')}>
        <p className="gh-success" role="status">
          {t('magicLink.sent', { email: email.trim() })}
        </p>
        <Field
          label={t('magicLink.codeField')}
          name="otp"
          autoComplete="one-time-code"
          value={otp}
          onChange={(e) => setOtp(e.target.value)}
        />
        <RequestError error={failure} />
        <SubmitButton pending={signIn.isPending}>{t('magicLink.signInWithCode')}</SubmitButton>
      </form>
    );
  }
  return (
    <form onSubmit={sendLink} noValidate aria-label={t('magicLink.form')}>
      <EmailField value={email} onChange={setEmail} error={emailError} />
      {sharedChallenge ? null : botChallenge.widget}
      <RequestError error={send.error} />
      <SubmitButton pending={send.isPending}>{t('magicLink.send')}</SubmitButton>
    </form>
  );
}
