import { type ComponentType, lazy, Suspense } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';
import { type HandlerPage, handlerPageOf } from '../handler-urls.ts';
import { useLocation } from '../navigation.ts';
import { Card, Loading } from '../ui/form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/**
 * Each page is its own chunk, loaded when its URL is visited (issue #20: a visitor of the sign-in
 * page downloads neither the account settings nor the other pages). The import paths are literal so
 * bundlers split them.
 */
const pages: Partial<Record<HandlerPage, ComponentType>> = {
  'sign-in': lazy(() => import('./pages/sign-in-page.tsx').then((page) => ({ default: page.SignInPage }))),
  'sign-up': lazy(() => import('./pages/sign-up-page.tsx').then((page) => ({ default: page.SignUpPage }))),
  'sign-out': lazy(() => import('./pages/sign-out-page.tsx').then((page) => ({ default: page.SignOutPage }))),
  'email-verification': lazy(() => import('./pages/email-verification-page.tsx').then((page) => ({ default: page.EmailVerificationPage }))),
  'forgot-password': lazy(() => import('./pages/forgot-password-page.tsx').then((page) => ({ default: page.ForgotPasswordPage }))),
  'password-reset': lazy(() => import('./pages/password-reset-page.tsx').then((page) => ({ default: page.PasswordResetPage }))),
  'magic-link-callback': lazy(() =>
    import('./pages/magic-link-callback-page.tsx').then((page) => ({ default: page.MagicLinkCallbackPage })),
  ),
  'oauth-callback': lazy(() => import('./pages/oauth-callback-page.tsx').then((page) => ({ default: page.OAuthCallbackPage }))),
  'account-settings': lazy(() => import('./pages/account-settings-page.tsx').then((page) => ({ default: page.AccountSettingsPage }))),
  error: lazy(() => import('./pages/error-page.tsx').then((page) => ({ default: page.ErrorPage }))),
  'team-invitation': lazy(() => import('./pages/team-invitation-page.tsx').then((page) => ({ default: page.TeamInvitationPage }))),
  mfa: lazy(() => import('./pages/mfa-page.tsx').then((page) => ({ default: page.MfaPage }))),
  'cli-auth-confirm': lazy(() => import('./pages/cli-auth-confirm-page.tsx').then((page) => ({ default: page.CliAuthConfirmPage }))),
  'oauth-consent': lazy(() => import('./pages/oauth-consent-page.tsx').then((page) => ({ default: page.OAuthConsentPage }))),
};

/**
 * Renders the handler page the URL names (`/handler/sign-in`, ...). Mount it for every path under
 * the handler path, e.g. `if (pathname.startsWith('/handler/')) return <GatehouseHandler />`.
 */
export function GatehouseHandler() {
  const { urls } = useGatehouse();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const name = handlerPageOf(pathname, urls);
  const Page = name ? pages[name] : undefined;
  if (!Page) {
    return (
      <Card title={t('handler.notFoundTitle')}>
        <p className="gh-error">{t('handler.notFound', { path: pathname })}</p>
      </Card>
    );
  }
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}
