import { Field } from './form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

type ValueProps = { value: string; onChange: (value: string) => void; error?: string | undefined };

/** The email input of every form that asks for one. */
export function EmailField({ label, name = 'email', ...props }: ValueProps & { label?: string; name?: string }) {
  const { t } = useTranslation();
  return (
    <Field
      label={label ?? t('field.email')}
      name={name}
      type="email"
      autoComplete="email"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={props.error}
    />
  );
}

/** A password input; `autoComplete` tells password managers whether to fill in or to suggest one. */
export function PasswordField({
  label,
  name,
  autoComplete,
  ...props
}: ValueProps & { label: string; name: string; autoComplete: 'current-password' | 'new-password' }) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete={autoComplete}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={props.error}
    />
  );
}

export type NewPassword = { password: string; repeat: string };

/** A new password typed twice (sign-up, password reset). */
export function NewPasswordFields({
  label,
  value,
  onChange,
  errors,
}: {
  label?: string;
  value: NewPassword;
  onChange: (value: NewPassword) => void;
  errors: { password?: string | undefined; repeat?: string | undefined };
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={label ?? t('field.password')}
        name="password"
        autoComplete="new-password"
        value={value.password}
        onChange={(password) => onChange({ ...value, password })}
        error={errors.password}
      />
      <PasswordField
        label={t('field.repeatPassword')}
        name="repeat-password"
        autoComplete="new-password"
        value={value.repeat}
        onChange={(repeat) => onChange({ ...value, repeat })}
        error={errors.repeat}
      />
    </>
  );
}
