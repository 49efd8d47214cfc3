import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { type Translate, useErrorMessages, useTranslation } from '../i18n/i18n-context.ts';
import { errorMessageOf } from './error-message.ts';

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined };

/** A labelled input whose error is announced and tied to it (aria-invalid, aria-describedby). */
export function Field({ label, error, ...input }: FieldProps) {
  const inputId = useId();
  const errorId = useId();
  return (
    <div className="gh-field">
      <label htmlFor={inputId}>{label}</label>
      <input {...input} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} />
      {error ? (
        <span id={errorId} className="gh-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <button type="submit" className="gh-primary" disabled={pending} aria-busy={pending}>
      {pending ? t('common.pleaseWait') : children}
    </button>
  );
}

/** The error of a request, worded for people; nothing when there is none. */
export function RequestError({ error }: { error: unknown }) {
  if (!error) return null;
  return <ErrorText error={error} />;
}

/** Its own component: the first error shown suspends it (not the form) while the error messages load. */
function ErrorText({ error }: { error: unknown }) {
  const { language } = useTranslation();
  const messages = useErrorMessages();
  return (
    <p className="gh-error" role="alert">
      {errorMessageOf(error, messages, language)}
    </p>
  );
}

export function Card({ title, wide, children }: { title?: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`gh gh-card${wide ? ' gh-wide' : ''}`}>
      {title ? <h1>{title}</h1> : null}
      {children}
    </div>
  );
}

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="gh gh-muted" aria-live="polite">
      {label ?? t('common.loading')}
    </p>
  );
}

/** Client-side checks with the spec's rules, so the obvious mistakes are caught before a request. */
export function validators(t: Translate) {
  return {
    email(value: string): string | undefined {
      if (!value.trim()) return t('validate.emailMissing');
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? undefined : t('validate.emailInvalid');
    },
    password(value: string): string | undefined {
      if (!value) return t('validate.passwordMissing');
      if (value.length < 8) return t('validate.passwordTooShort', { min: 8 });
      if (value.length > 70) return t('validate.passwordTooLong', { max: 70 });
      return undefined;
    },
    /** The checks of a new password typed twice. */
    newPassword(value: { password: string; repeat: string }): { password?: string | undefined; repeat?: string | undefined } {
      return {
        password: this.password(value.password),
        repeat: value.repeat === value.password ? undefined : t('validate.passwordsDiffer'),
      };
    },
  };
}

/** The form checks in the active language. */
export function useValidate() {
  return validators(useTranslation().t);
}
