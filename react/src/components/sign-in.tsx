import { lazy, Suspense, useState } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';
import { useProject } from '../hooks/use-project.ts';
import { keepReturnTo } from '../navigation.ts';
import { Card, Loading } from '../ui/form.tsx';
import { Link } from '../ui/link.tsx';
import { useBotChallenge } from './bot-challenge-widget.tsx';
import { OAuthButtons } from './oauth-buttons.tsx';
import { PasswordSignInForm } from './password-sign-in-form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

// Only projects that ask for the email first need it: a lazy chunk keeps it out of every other
// project's sign-in page (the page's size budget).
const EmailFirstForm = lazy(() => import('./email-first-form.tsx').then((module) => ({ default: module.EmailFirstForm })));
// The same for what a first look at the page does not show: the emailed-link form (behind its tab while
// the password form is the first, with its bot challenge) and the passkey button of projects that have one.
const MagicLinkForm = lazy(() => import('./magic-link-form.tsx').then((module) => ({ default: module.MagicLinkForm })));
const PasskeySignInButton = lazy(() => import('./passkey-sign-in-button.tsx').then((module) => ({ default: module.PasskeySignInButton })));

/**
 * The sign-in form with every method the project offers (password, emailed link/code, OAuth); when
 * the project asks for the email first (`email_first`), home-realm discovery comes before them.
 */
export function SignIn({ title }: { title?: string }) {
  const { t } = useTranslation();
  const { urls } = useGatehouse();
  const { config, display_name } = useProject();
  const [method, setMethod] = useState<'password' | 'magic-link'>(config.credential_enabled ? 'password' : 'magic-link');
  const both = config.credential_enabled && config.magic_link_enabled;
  // The email the first step sent on to the usual methods (null: that step is still to take).
  const [discoveredEmail, setDiscoveredEmail] = useState<string | null>(null);
  const providers = config.enabled_oauth_providers.map((provider) => provider.id);
  // An OAuth click may sign a newcomer up: with providers, the page's one widget sits by their buttons
  // and the emailed-code form (also a way to sign up) shares it. Without sign-up nobody is challenged.
  const botChallenge = useBotChallenge(providers.length > 0 && config.sign_up_enabled ? config.bot_challenge : undefined);
  const sharedChallenge = botChallenge.challenge ? botChallenge : undefined;
  if (config.email_first && discoveredEmail === null)
    return (
      <Card title={title ?? t('signIn.title')}>
        <p className="gh-muted">{t('signIn.toContinueTo', { project: display_name })}</p>
        <EmailFirstForm onUsualMethods={setDiscoveredEmail} />
      </Card>
    );
  return (
    <Card title={title ?? t('signIn.title')}>
      <p className="gh-muted">{t('signIn.toContinueTo', { project: display_name })}</p>
      <div className="gh-stack">
        <OAuthButtons providers={providers} botChallenge={sharedChallenge} />
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
        {method === 'password' && config.credential_enabled ? <PasswordSignInForm initialEmail={discoveredEmail ?? ''} /> : null}
        {method === 'magic-link' && config.magic_link_enabled ? (
          <Suspense fallback={<Loading />}>
            <MagicLinkForm sharedChallenge={sharedChallenge} />
          </Suspense>
        ) : null}
        {config.credential_enabled ? <Link href={keepReturnTo(urls.forgotPassword)}>{t('signIn.forgotPassword')}</Link> : null}
        {config.sign_up_enabled ? (
          <p className="gh-muted">
            {t('signIn.noAccount')} <Link href={keepReturnTo(urls.signUp)}>{t('common.signUp')}</Link>
          </p>
        ) : null}
      </div>
    </Card>
  );
}
