import { type ComponentType, Suspense } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';
import { type HandlerPage, handlerPageOf } from '../handler-urls.ts';
import { useLocation } from '../navigation.ts';
import { Card, Loading } from '../ui/form.tsx';
import { AccountSettingsPage } from './pages/account-settings-page.tsx';
import { CliAuthConfirmPage } from './pages/cli-auth-confirm-page.tsx';
import { EmailVerificationPage } from './pages/email-verification-page.tsx';
import { ErrorPage } from './pages/error-page.tsx';
import { ForgotPasswordPage } from './pages/forgot-password-page.tsx';
import { MagicLinkCallbackPage } from './pages/magic-link-callback-page.tsx';
import { MfaPage } from './pages/mfa-page.tsx';
import { OAuthCallbackPage } from './pages/oauth-callback-page.tsx';
import { PasswordResetPage } from './pages/password-reset-page.tsx';
import { SignInPage } from './pages/sign-in-page.tsx';
import { SignOutPage } from './pages/sign-out-page.tsx';
import { SignUpPage } from './pages/sign-up-page.tsx';
import { TeamInvitationPage } from './pages/team-invitation-page.tsx';

const pages: Partial<Record<HandlerPage, ComponentType>> = {
  'sign-in': SignInPage,
  'sign-up': SignUpPage,
  'sign-out': SignOutPage,
  'email-verification': EmailVerificationPage,
  'forgot-password': ForgotPasswordPage,
  'password-reset': PasswordResetPage,
  'magic-link-callback': MagicLinkCallbackPage,
  'oauth-callback': OAuthCallbackPage,
  'account-settings': AccountSettingsPage,
  error: ErrorPage,
  'team-invitation': TeamInvitationPage,
  mfa: MfaPage,
  'cli-auth-confirm': CliAuthConfirmPage,
};

/**
 * Renders the handler page the URL names (`/handler/sign-in`, ...). Mount it for every path under
 * the handler path, e.g. `if (pathname.startsWith('/handler/')) return <GatehouseHandler />`.
 */
export function GatehouseHandler() {
  const { urls } = useGatehouse();
  const { pathname } = useLocation();
  const name = handlerPageOf(pathname, urls);
  const Page = name ? pages[name] : undefined;
  if (!Page) {
    return (
      <Card title="Page not found">
        <p className="gh-error">There is no page at {pathname}.</p>
      </Card>
    );
  }
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}
