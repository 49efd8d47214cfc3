import { lazy, Suspense, useState } from 'react';
import { useProject } from '../hooks/use-project.ts';
import { Card, Loading } from '../ui/form.tsx';
import { SignInMethods } from './sign-in-methods.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

// Only projects that ask for the email first need it: a lazy chunk keeps it out of every other
// project's sign-in page (the page's size budget).
const EmailFirstForm = lazy(() => import('./email-first-form.tsx').then((module) => ({ default: module.EmailFirstForm })));
// The same for the bot challenge's state and widget: only projects that turn a challenge on load them.
const ChallengedSignInMethods = lazy(() =>
  import('./challenged-sign-in-methods.tsx').then((module) => ({ default: module.ChallengedSignInMethods })),
);

/**
 * The sign-in form with every method the project offers (password, emailed link/code, OAuth); when
 * the project asks for the email first (`email_first`), home-realm discovery comes before them.
 */
export function SignIn({ title }: { title?: string }) {
  const { t } = useTranslation();
  const { config, display_name } = useProject();
  // The email the first step sent on to the usual methods (null: that step is still to take).
  const [discoveredEmail, setDiscoveredEmail] = useState<string | null>(null);
  // An OAuth click may sign a newcomer up: with providers, the page's one widget sits by their buttons
  // and the emailed-code form (also a way to sign up) shares it. Without sign-up nobody is challenged.
  const challenge =
    (config.enabled_oauth_providers.length > 0 || !!config.oidc_providers?.length) && config.sign_up_enabled
      ? config.bot_challenge
      : undefined;
  const initialEmail = discoveredEmail ?? '';
  return (
    <Card title={title ?? t('signIn.title')}>
      <p className="gh-muted">{t('signIn.toContinueTo', { project: display_name })}</p>
      {config.email_first && discoveredEmail === null ? (
        <EmailFirstForm onUsualMethods={setDiscoveredEmail} />
      ) : challenge ? (
        <Suspense fallback={<Loading />}>
          <ChallengedSignInMethods challenge={challenge} initialEmail={initialEmail} />
        </Suspense>
      ) : (
        <SignInMethods initialEmail={initialEmail} />
      )}
    </Card>
  );
}
