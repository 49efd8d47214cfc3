import { useEffect, useRef, useState } from 'react';
import { continueWithMfa } from '../../auth/mfa-attempt.ts';
import { takePendingOAuthFlow } from '../../auth/oauth-flow.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import { exchangeOAuthToken } from '../../generated/hooks.ts';
import { Card, Loading, RequestError } from '../../ui/form.tsx';
import { LocalisedError } from '../../ui/error-message.ts';
import { Link } from '../../ui/link.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/**
 * Where the platform sends the browser back from the provider: `code` and `state` leave the URL at
 * once (so they are neither bookmarked nor sent on as a referrer), the code is exchanged with this
 * tab's PKCE verifier, and the user is signed in (or the new link is in place).
 */
export function OAuthCallbackPage() {
  const gatehouse = useGatehouse();
  const { t } = useTranslation();
  const [failure, setFailure] = useState<unknown>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const params = new URLSearchParams(window.location.search);
    const code = params.get('code');
    const state = params.get('state');
    const clean = new URL(window.location.href);
    clean.searchParams.delete('code');
    clean.searchParams.delete('state');
    window.history.replaceState(null, '', clean.pathname + clean.search + clean.hash);

    const flow = state ? takePendingOAuthFlow(state) : null;
    if (!code || !flow) {
      setFailure(new LocalisedError('error.oauthOtherTab'));
      return;
    }
    exchangeOAuthToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.codeVerifier,
      client_id: gatehouse.projectId,
      client_secret: gatehouse.publishableClientKey,
    }).then(
      (tokens) => {
        if (flow.type === 'link') gatehouse.completeSignIn(tokens, 'sign-in', flow.returnTo ?? gatehouse.urls.accountSettings);
        else gatehouse.completeSignIn(tokens, tokens.is_new_user ? 'sign-up' : 'sign-in', flow.returnTo);
      },
      (error: unknown) => {
        if (!continueWithMfa(gatehouse, error)) setFailure(new LocalisedError('error.oauthCallbackFailed', { cause: error }));
      },
    );
  }, [gatehouse]);

  if (!failure) return <Loading label={t('oauthCallback.pending')} />;
  return (
    <Card title={t('oauthCallback.failedTitle')}>
      <RequestError error={failure} />
      <Link href={gatehouse.urls.signIn}>{t('common.backToSignIn')}</Link>
    </Card>
  );
}
