import { type FormEvent, useState } from 'react';
import { type Gatehouse, useGatehouse } from '../gatehouse-context.ts';
import { useGetSsoConnectionForEmail } from '../generated/hooks.ts';
import { RequestError, SubmitButton, useValidate } from '../ui/form.tsx';
import { EmailField } from '../ui/fields.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/** The SSO flow's code (PKCE, the pending-flow store) loads when an email turns out to have a connection. */
const startSso = async (gatehouse: Gatehouse, connectionId: string, email: string) =>
  (await import('../auth/oauth-flow.ts')).startSso(gatehouse, connectionId, email);

/**
 * Home-realm discovery, the sign-in page's first step when the project asks for the email first:
 * an email on a team's verified domain with an SSO connection goes to that team's identity
 * provider; any other email goes on to the project's usual methods (`onUsualMethods`).
 */
export function EmailFirstForm({ onUsualMethods }: { onUsualMethods: (email: string) => void }) {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const validate = useValidate();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [redirecting, setRedirecting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);
  const discover = useGetSsoConnectionForEmail({
    mutation: {
      onSuccess: (found, { data }) => {
        if (!found.connection_id) return onUsualMethods(data.email);
        setRedirecting(true);
        startSso(gatehouse, found.connection_id, data.email).catch((error: unknown) => {
          setRedirecting(false);
          setStartError(error);
        });
      },
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate.email(email);
    setEmailError(found);
    if (!found) discover.mutate({ data: { email: email.trim() } });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('signIn.emailFirstForm')}>
      <EmailField value={email} onChange={setEmail} error={emailError} />
      <RequestError error={discover.error ?? startError} />
      {redirecting ? (
        <p className="gh-muted" role="status">
          {t('signIn.ssoRedirecting')}
        </p>
      ) : null}
      <SubmitButton pending={discover.isPending || redirecting}>{t('common.continue')}</SubmitButton>
    </form>
  );
}
