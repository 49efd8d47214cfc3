import { useEffect, useRef, useState } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';
import { useSignOut } from '../hooks/use-sign-out.ts';
import { useUser } from '../hooks/use-user.ts';
import { Link } from '../ui/link.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/** The signed-in user's avatar with a menu (account settings, sign out), or a sign-in link. */
export function UserButton() {
  const { urls, navigate } = useGatehouse();
  const { t } = useTranslation();
  const user = useUser();
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !menu.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (!user) {
    return (
      <span className="gh">
        <Link href={urls.signIn}>{t('common.signIn')}</Link>
      </span>
    );
  }
  const name = user.display_name ?? user.primary_email ?? t('userButton.account');
  return (
    <div className="gh gh-menu" ref={menu}>
      <button type="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)} className="gh-row">
        {user.profile_image_url ? (
          <img className="gh-avatar" src={user.profile_image_url} alt="" />
        ) : (
          <span className="gh-avatar" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <span>{name}</span>
      </button>
      {open ? (
        <div className="gh-menu-items" role="menu">
          {user.primary_email ? <p className="gh-muted">{user.primary_email}</p> : null}
          <button type="button" role="menuitem" onClick={() => navigate(urls.accountSettings)}>
            {t('userButton.accountSettings')}
          </button>
          <button type="button" role="menuitem" onClick={() => void signOut()}>
            {t('userButton.signOut')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
