import { lazy, Suspense, useState } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';
import { useProject } from '../hooks/use-project.ts';
import { keepReturnTo } from '../navigation.ts';
import { Loading } from '../ui/form.tsx';
import { Link } from '../ui/link.tsx';
import type { BotChallenge } from './bot-challenge-widget.tsx';
import { OAuthButtons } from './oauth-buttons.tsx';
import { PasswordSignInForm } from './password-sign-in-form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

// What a first look at the page does not show loads when used (the page's size budget): the emailed-link
// form (behind its tab while the password form is the first, with its bot challenge) and the passkey button.
const MagicLinkForm = lazy(() => import('./magic-link-form.tsx').then((module) => ({ default: module.MagicLinkForm })));
const PasskeySignInButton = lazy(() => import('./passkey-sign-in-button.tsx').then((module) => ({ default: module.PasskeySignInButton })));

/**
 * The sign-in methods the project offers (OAuth, passkey, password, emailed link/code). `botChallenge`:
 * the page's one widget, shown by the OAuth buttons and shared by the emailed-code form.
 */
export function SignInMethods({ initialEmail, botChallenge }: { initialEmail: string; botChallenge?: BotChallenge }) {
  const { t } = useTranslation();
  const { urls } = useGatehouse();
  const { config } = useProject();
  const [method, setMethod] = useState<'password' | 'magic-link'>(config.credential_enabled ? 'password' : 'magic-link');
  const both = config.credential_enabled && config.magic_link_enabled;
  return (
    <div className="gh-stack">
      <OAuthButtons providers={[...config.enabled_oauth_providers, ...(config.oidc_providers ?? [])]} botChallenge={botChallenge} />
      {config.passkey_enabled ? (
        <Suspense fallback={null}>
          <PasskeySignInButton />
        </Suspense>
      ) : null}
      {both ? (
        <div className="gh-tabs" role="tablist" aria-label={t('signIn.methods')}>
          <button type="button" role="tab" aria-selected={method === 'password'} onClick={() => setMethod('password')}>
            {t('signIn.passwordTab')}
          </button>
          <button type="button" role="tab" aria-selected={method === 'magic-link'} onClick={() => setMethod('magic-link')}>
            {t('signIn.emailLinkTab')}
          </button>
        </div>
      ) : null}
      {method === 'password' && config.credential_enabled ? <PasswordSignInForm initialEmail={initialEmail} /> : null}
      {method === 'magic-link' && config.magic_link_enabled ? (
        <Suspense fallback={<Loading />}>
          <MagicLinkForm sharedChallenge={botChallenge} />
        </Suspense>
      ) : null}
      {config.credential_enabled ? <Link href={keepReturnTo(urls.forgotPassword)}>{t('signIn.forgotPassword')}</Link> : null}
      {config.sign_up_enabled ? (
        <p className="gh-muted">
          {t('signIn.noAccount')} <Link href={keepReturnTo(urls.signUp)}>{t('common.signUp')}</Link>
        </p>
      ) : null}
    </div>
  );
}
