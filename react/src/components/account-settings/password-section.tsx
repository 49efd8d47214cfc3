import { type FormEvent, useState } from 'react';
import type { CurrentUser } from '../../generated/hooks.schemas.ts';
import { getGetCurrentUserQueryKey, useSetPassword, useUpdatePassword } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { RequestError, SubmitButton, useValidate } from '../../ui/form.tsx';
import { PasswordField } from '../../ui/fields.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** Changes the password (current one required), or sets a first one for users who have none. */
export function PasswordSection({ user }: { user: CurrentUser }) {
  const invalidate = useInvalidate();
  const { t } = useTranslation();
  const validate = useValidate();
  const update = useUpdatePassword();
  const set = useSetPassword({ mutation: { onSuccess: invalidate(getGetCurrentUserQueryKey()) } });
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string }>({});
  const mutation = user.has_password ? update : set;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      current: user.has_password && !current ? t('validate.currentPasswordMissing') : undefined,
      next: validate.password(next),
    };
    setErrors(found);
    if (found.current || found.next) return;
    const reset = {
      onSuccess: () => {
        setCurrent('');
        setNext('');
      },
    };
    if (user.has_password) update.mutate({ data: { old_password: current, new_password: next } }, reset);
    else set.mutate({ data: { password: next } }, reset);
  };

  return (
    <section aria-labelledby="gh-password">
      <h2 id="gh-password">{t('account.tabPassword')}</h2>
      <form onSubmit={submit} noValidate aria-label={t('account.tabPassword')}>
        {user.has_password ? (
          <PasswordField
            label={t('password.current')}
            name="current-password"
            autoComplete="current-password"
            value={current}
            onChange={setCurrent}
            error={errors.current}
          />
        ) : null}
        <PasswordField
          label={t('password.new')}
          name="new-password"
          autoComplete="new-password"
          value={next}
          onChange={setNext}
          error={errors.next}
        />
        <RequestError error={mutation.error} />
        {mutation.isSuccess ? (
          <p className="gh-success" role="status">
            {t('password.saved')}
          </p>
        ) : null}
        <SubmitButton pending={mutation.isPending}>{user.has_password ? t('password.change') : t('password.set')}</SubmitButton>
      </form>
    </section>
  );
}
