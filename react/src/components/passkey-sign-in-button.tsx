import { useMutation } from '@tanstack/react-query';
import { continueWithMfa } from '../auth/mfa-attempt.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { RequestError } from '../ui/form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/** The ceremony's code (WebAuthn, the passkey operations) loads on the click, not with the sign-in page. */
const signInWithPasskey = async () => (await import('../auth/passkeys.ts')).signInWithPasskeyInBrowser();

export function PasskeySignInButton() {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const signIn = useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: (tokens) => gatehouse.completeSignIn(tokens, 'sign-in'),
  });
  const failure = signIn.error && !continueWithMfa(gatehouse, signIn.error) ? signIn.error : null;
  return (
    <div className="gh-stack">
      <button type="button" disabled={signIn.isPending} onClick={() => signIn.mutate()}>
        {t('signIn.withPasskey')}
      </button>
      <RequestError error={failure} />
    </div>
  );
}
