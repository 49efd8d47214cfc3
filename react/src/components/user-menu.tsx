import { useEffect, useRef, useState } from 'react';
import type { CurrentUser } from '../generated/hooks.schemas.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { useSignOut } from '../hooks/use-sign-out.ts';
import { useTranslation } from '../i18n/i18n-context.ts';

/** The signed-in user's avatar and its menu (account settings, sign out). */
export function UserMenu({ user }: { user: CurrentUser }) {
  const { urls, navigate } = useGatehouse();
  const { t } = useTranslation();
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
