import { useState } from 'react';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useDeleteCurrentUser } from '../../generated/hooks.ts';
import { RequestError } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** Deletes the account after a second click; every session ends with it. */
export function DeleteAccountSection() {
  const { session, urls, navigate } = useGatehouse();
  const [confirming, setConfirming] = useState(false);
  const { t } = useTranslation();
  const remove = useDeleteCurrentUser({
    mutation: {
      onSuccess: () => {
        session.signOut();
        navigate(urls.afterSignOut, { replace: true });
      },
    },
  });
  return (
    <section aria-labelledby="gh-delete-account">
      <h2 id="gh-delete-account">{t('account.tabDelete')}</h2>
      <p className="gh-muted">{t('deleteAccount.explain')}</p>
      {confirming ? (
        <div className="gh-row">
          <button type="button" className="gh-danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {t('deleteAccount.confirm')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('deleteAccount.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
          {t('account.tabDelete')}
        </button>
      )}
      <RequestError error={remove.error} />
    </section>
  );
}
