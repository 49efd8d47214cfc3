import { type ReactNode, useEffect } from 'react';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useUser } from '../../hooks/use-user.ts';
import { RETURN_TO_PARAM } from '../../navigation.ts';
import { Loading } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** Signed-in users have nothing to do on the sign-in/up pages: send them on (to the return-to page if trusted). */
export function RedirectIfSignedIn({ kind, children }: { kind: 'sign-in' | 'sign-up'; children: ReactNode }) {
  const gatehouse = useGatehouse();
  const user = useUser();
  const { t } = useTranslation();
  useEffect(() => {
    if (!user) return;
    const returnTo = new URLSearchParams(window.location.search).get(RETURN_TO_PARAM);
    gatehouse.redirect(returnTo, kind === 'sign-up' ? gatehouse.urls.afterSignUp : gatehouse.urls.afterSignIn);
  }, [user, gatehouse, kind]);
  return user ? <Loading label={t('common.redirecting')} /> : children;
}
