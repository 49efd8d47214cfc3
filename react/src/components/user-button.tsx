import { lazy } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';
import { useUser } from '../hooks/use-user.ts';
import { Link } from '../ui/link.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

// The menu (and sign-out) only means something to a signed-in user: a visitor of the sign-in page never
// downloads it (issue #37's budget). It suspends once, inside the app's Suspense, as useUser() does.
const UserMenu = lazy(() => import('./user-menu.tsx').then((module) => ({ default: module.UserMenu })));

/** The signed-in user's avatar with a menu (account settings, sign out), or a sign-in link. */
export function UserButton() {
  const { urls } = useGatehouse();
  const { t } = useTranslation();
  const user = useUser();
  if (!user) {
    return (
      <span className="gh">
        <Link href={urls.signIn}>{t('common.signIn')}</Link>
      </span>
    );
  }
  return <UserMenu user={user} />;
}
