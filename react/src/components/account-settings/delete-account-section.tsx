import { useState } from 'react';
import { useGatehouse } from '../../gatehouse-context.ts';
import { useDeleteCurrentUser } from '../../generated/hooks.ts';
import { RequestError } from '../../ui/form.tsx';

/** Deletes the account after a second click; every session ends with it. */
export function DeleteAccountSection() {
  const { session, urls, navigate } = useGatehouse();
  const [confirming, setConfirming] = useState(false);
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
      <h2 id="gh-delete-account">Delete account</h2>
      <p className="gh-muted">This removes your account and everything in it. It cannot be undone.</p>
      {confirming ? (
        <div className="gh-row">
          <button type="button" className="gh-danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Yes, delete my account
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
          Delete account
        </button>
      )}
      <RequestError error={remove.error} />
    </section>
  );
}
