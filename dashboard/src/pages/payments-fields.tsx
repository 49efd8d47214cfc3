import { type ReactNode, useId, useState } from 'react';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
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
  const { t } = useDashboardTranslation();
  return (
    <Field label={t('payments.id')} problem={problem}>
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

/** A customer type in the active language (the select's values stay the API's). */
export function customerTypeText(type: CustomerType, t: Translate): string {
  if (type === 'user') return t('payments.customerTypeUser');
  if (type === 'team') return t('payments.customerTypeTeam');
  return t('payments.customerTypeCustom');
}

export function CustomerTypeSelect({
  label,
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
  const { t } = useDashboardTranslation();
  return (
    <Field label={label ?? t('payments.customerType')} problem={problem}>
      {(id, describedBy) => (
        <select
          id={id}
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value as CustomerType)}
        >
          {optional ? <option value="">{t('payments.any')}</option> : null}
          {customerTypes.map((type) => (
            <option key={type} value={type}>
              {customerTypeText(type, t)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The catalogue kinds whose entries are edited alike (see useCatalogueEditor). */
export type CatalogueNoun = 'item' | 'product line' | 'product';

/** The catalogue editors' words for one kind of entry, in the active language. */
export function catalogueWords(noun: CatalogueNoun, t: Translate) {
  if (noun === 'item')
    return {
      deleteTitle: (id: string) => t('payments.deleteItemTitle', { id }),
      deleteConfirm: t('payments.deleteItem'),
      editNamed: (name: string) => t('payments.editItemNamed', { name }),
      deleteNamed: (name: string) => t('payments.deleteItemNamed', { name }),
      save: t('payments.saveItem'),
      add: t('payments.addItem'),
    };
  if (noun === 'product line')
    return {
      deleteTitle: (id: string) => t('payments.deleteLineTitle', { id }),
      deleteConfirm: t('payments.deleteLine'),
      editNamed: (name: string) => t('payments.editLineNamed', { name }),
      deleteNamed: (name: string) => t('payments.deleteLineNamed', { name }),
      save: t('payments.saveLine'),
      add: t('payments.addLine'),
    };
  return {
    deleteTitle: (id: string) => t('payments.deleteProductTitle', { id }),
    deleteConfirm: t('payments.deleteProduct'),
    editNamed: (name: string) => t('payments.editProductNamed', { name }),
    deleteNamed: (name: string) => t('payments.deleteProductNamed', { name }),
    save: t('payments.saveProduct'),
    add: t('payments.addProduct'),
  };
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
export function useEntryDeletion(noun: CatalogueNoun, remove: (id: string) => Promise<unknown>) {
  const { t } = useDashboardTranslation();
  const words = catalogueWords(noun, t);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ id: string; message: string } | null>(null);
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={words.deleteTitle(deleting ?? '')}
      confirmLabel={words.deleteConfirm}
      onClose={() => setDeleting(null)}
      onConfirm={() => {
        const id = deleting as string;
        setDeleting(null);
        setRefused(null);
        remove(id).catch((error: unknown) => setRefused({ id, message: messageOf(error) }));
      }}
    >
      <p>{t('payments.deleteExplained')}</p>
    </ConfirmDialog>
  );
  const actions = (id: string, name: string, onEdit: () => void) => (
    <span className="dash-row">
      <button type="button" aria-label={words.editNamed(name)} onClick={onEdit}>
        {t('payments.edit')}
      </button>
      <button
        type="button"
        className="gh-danger"
        aria-label={words.deleteNamed(name)}
        onClick={() => {
          setRefused(null);
          setDeleting(id);
        }}
      >
        {t('payments.delete')}
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
