import { useEffect, useRef } from 'react';
import { useSignOut } from '../../hooks/use-sign-out.ts';
import { Loading } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

export function SignOutPage() {
  const signOut = useSignOut();
  const { t } = useTranslation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut();
  }, [signOut]);
  return <Loading label={t('signOut.pending')} />;
}
