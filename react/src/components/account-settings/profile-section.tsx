import { type FormEvent, useState } from 'react';
import type { CurrentUser } from '../../generated/hooks.schemas.ts';
import { useUpdateUser } from '../../hooks/use-update-user.ts';
import { Field, RequestError, SubmitButton } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

export function ProfileSection({ user }: { user: CurrentUser }) {
  const [displayName, setDisplayName] = useState(user.display_name ?? '');
  const update = useUpdateUser();
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ data: { display_name: displayName.trim() || null } });
  };
  return (
    <section aria-labelledby="gh-profile">
      <h2 id="gh-profile">{t('account.tabProfile')}</h2>
      <form onSubmit={submit} noValidate aria-label={t('account.tabProfile')}>
        <Field
          label={t('profile.displayName')}
          name="display-name"
          maxLength={256}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <RequestError error={update.error} />
        {update.isSuccess && !update.isPending ? (
          <p className="gh-success" role="status">
            {t('profile.saved')}
          </p>
        ) : null}
        <SubmitButton pending={update.isPending}>{t('profile.save')}</SubmitButton>
      </form>
    </section>
  );
}
