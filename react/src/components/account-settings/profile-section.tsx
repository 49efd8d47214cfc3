import { type FormEvent, useState } from 'react';
import type { CurrentUser } from '../../generated/hooks.schemas.ts';
import { useUpdateUser } from '../../hooks/use-update-user.ts';
import { Field, RequestError, SubmitButton } from '../../ui/form.tsx';

export function ProfileSection({ user }: { user: CurrentUser }) {
  const [displayName, setDisplayName] = useState(user.display_name ?? '');
  const update = useUpdateUser();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ data: { display_name: displayName.trim() || null } });
  };
  return (
    <section aria-labelledby="gh-profile">
      <h2 id="gh-profile">Profile</h2>
      <form onSubmit={submit} noValidate aria-label="Profile">
        <Field
          label="Display name"
          name="display-name"
          maxLength={256}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <RequestError error={update.error} />
        {update.isSuccess && !update.isPending ? (
          <p className="gh-success" role="status">
            Saved.
          </p>
        ) : null}
        <SubmitButton pending={update.isPending}>Save</SubmitButton>
      </form>
    </section>
  );
}
