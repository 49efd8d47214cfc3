import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
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
  return (
    <button type="submit" className="gh-primary" disabled={pending} aria-busy={pending}>
      {pending ? 'Please wait…' : children}
    </button>
  );
}

/** The error of a request, worded for people; nothing when there is none. */
export function RequestError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="gh-error" role="alert">
      {errorMessageOf(error)}
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

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="gh gh-muted" aria-live="polite">
      {label}
    </p>
  );
}

/** Client-side checks with the spec's rules, so the obvious mistakes are caught before a request. */
export const validate = {
  email(value: string): string | undefined {
    if (!value.trim()) return 'Enter your email.';
    return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? undefined : 'Enter a valid email address.';
  },
  password(value: string): string | undefined {
    if (!value) return 'Enter a password.';
    if (value.length < 8) return 'The password must be at least 8 characters long.';
    if (value.length > 70) return 'The password must be at most 70 characters long.';
    return undefined;
  },
  required(value: string, what: string): string | undefined {
    return value.trim() ? undefined : `Enter ${what}.`;
  },
};

/** The checks of a new password typed twice, with the messages the forms show. */
export function newPasswordErrors(value: { password: string; repeat: string }): { password?: string; repeat?: string } {
  return {
    password: validate.password(value.password),
    repeat: value.repeat === value.password ? undefined : 'The passwords do not match.',
  };
}
