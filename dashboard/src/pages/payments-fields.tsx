import { type ReactNode, useId, useState } from 'react';
import { ConfirmDialog } from '../ui.tsx';
import { type CustomerType, customerTypes, messageOf } from './payments-config.ts';

/** A field with its label, and the server's message for it when it names this field. */
export function Field({
  label,
  problem,
  children,
}: {
  label: string;
  problem?: string | null;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{label}</label>
      {children(id, problem ? `${id}-problem` : undefined)}
      {problem ? (
        <span id={`${id}-problem`} className="dash-error" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}

/** The id of a new entry; an entry being edited keeps its id (shown, not editable). */
export function IdField({
  value,
  onChange,
  problem,
  locked,
}: {
  value: string;
  onChange: (value: string) => void;
  problem?: string | null;
  locked?: boolean;
}) {
  return (
    <Field label="Id" problem={problem}>
      {(id, describedBy) => (
        <input
          id={id}
          required
          value={value}
          readOnly={locked}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

export function CustomerTypeSelect({
  label = 'Customer type',
  value,
  onChange,
  optional,
  problem,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  optional?: boolean;
  problem?: string | null;
}) {
  return (
    <Field label={label} problem={problem}>
      {(id, describedBy) => (
        <select
          id={id}
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value as CustomerType)}
        >
          {optional ? <option value="">Any</option> : null}
          {customerTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Moves focus into a form opened for editing (its first field the owner can change), once it has rendered. */
export function focusFormSoon(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('input:not([readonly]), select')?.focus());
}

/**
 * Edit and delete of the entries of one catalogue list. A deletion is confirmed, then shown at once;
 * when the server refuses it (another entry still uses this one) the entry comes back with the
 * server's message beside it.
 */
export function useEntryDeletion(what: string, remove: (id: string) => Promise<unknown>) {
  const [deleting, setDeleting] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ id: string; message: string } | null>(null);
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={`Delete ${what} ${deleting ?? ''}?`}
      confirmLabel={`Delete ${what}`}
      onClose={() => setDeleting(null)}
      onConfirm={() => {
        const id = deleting as string;
        setDeleting(null);
        setRefused(null);
        remove(id).catch((error: unknown) => setRefused({ id, message: messageOf(error) }));
      }}
    >
      <p>Customers who own it keep what they bought; it can no longer be bought, granted or included.</p>
    </ConfirmDialog>
  );
  const actions = (id: string, name: string, onEdit: () => void) => (
    <span className="dash-row">
      <button type="button" aria-label={`Edit ${what} ${name}`} onClick={onEdit}>
        Edit
      </button>
      <button
        type="button"
        className="gh-danger"
        aria-label={`Delete ${what} ${name}`}
        onClick={() => {
          setRefused(null);
          setDeleting(id);
        }}
      >
        Delete
      </button>
    </span>
  );
  const refusal = (id: string) =>
    refused?.id === id ? (
      <span role="alert" className="dash-error">
        {refused.message}
      </span>
    ) : null;
  return { dialog, actions, refusal };
}
