import { useEffect, useRef } from 'react';
import { useSignOut } from '../../hooks/use-sign-out.ts';
import { Loading } from '../../ui/form.tsx';

export function SignOutPage() {
  const signOut = useSignOut();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut();
  }, [signOut]);
  return <Loading label="Signing out…" />;
}
