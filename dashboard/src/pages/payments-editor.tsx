import { type FormEvent, type ReactNode, type RefObject, useRef, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage } from '../ui.tsx';
import { problemOf, useSavePayments } from './payments-config.ts';
import { type CatalogueNoun, catalogueWords, focusFormSoon, useEntryDeletion } from './payments-fields.tsx';

/**
 * What the catalogue's editors (items, product lines, products) share: the entry's form (empty to add one,
 * filled to edit one whose id stays), saved at once through the config override and rolled back when refused
 * with the server's rule message at the field its path names, deletion behind a confirmation, and the list of
 * entries with their Edit and Delete buttons.
 */
export function useCatalogueEditor<Form extends { id: string }, Editing extends { id: string } = { id: string }>(options: {
  /** Which kind of entry: the buttons' and the dialog's words follow it. */
  noun: CatalogueNoun;
  empty: Form;
  /** Which field a refusal's config path belongs to (see problemOf). */
  fields: Parameters<typeof problemOf>[1];
  /** Deletes an entry with `save` (the config change); a refusal shows at the entry. */
  remove: (id: string, save: SavePayments) => Promise<unknown>;
}) {
  const { save, mutation } = useSavePayments();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState(options.empty);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [error, setError] = useState<unknown>(null);
  const problem = problemOf(error, options.fields);
  const deletion = useEntryDeletion(options.noun, (id) => options.remove(id, save));
  const stopEditing = () => {
    setEditing(null);
    setForm(options.empty);
    setError(null);
  };
  return {
    noun: options.noun,
    mutation,
    formRef,
    form,
    setForm,
    editing,
    setEditing,
    error,
    problem,
    deletion,
    stopEditing,
    /** The server's message for a field, when its refusal is about that field. */
    at: (field: string) => (problem?.field === field ? problem.message : null),
    /** Fills the form with an entry to edit and moves to it. */
    edit(entry: Editing, filled: Form) {
      setError(null);
      setEditing(entry);
      focusFormSoon(formRef.current);
      setForm(filled);
    },
    /** Saves a change (config paths to values): the form empties when the server took it, else its refusal shows. */
    submit(change: Record<string, unknown>) {
      setError(null);
      save(change).then(stopEditing, setError);
    },
  };
}

type SavePayments = ReturnType<typeof useSavePayments>['save'];

/** What the list and the form read of an editor. */
type CatalogueEditor = {
  noun: CatalogueNoun;
  formRef: RefObject<HTMLFormElement | null>;
  form: { id: string };
  editing: { id: string } | null;
  error: unknown;
  problem: { field: string } | null;
  mutation: { isPending: boolean };
  deletion: ReturnType<typeof useEntryDeletion>;
  stopEditing: () => void;
};

/** The entries of a catalogue kind, each with what it is and its Edit and Delete buttons; the deletion dialog. */
export function CatalogueEntries<Entry>({
  editor,
  label,
  emptyText,
  entries,
  summary,
  onEdit,
}: {
  editor: CatalogueEditor;
  label: string;
  emptyText: string;
  entries: Array<[string, Entry]>;
  summary: (id: string, entry: Entry) => ReactNode;
  onEdit: (id: string, entry: Entry) => void;
}) {
  return (
    <>
      <ul className="dash-list" aria-label={label}>
        {entries.length === 0 ? <li className="dash-muted">{emptyText}</li> : null}
        {entries.map(([id, entry]) => (
          <li key={id}>
            <span>
              {summary(id, entry)}
              <br />
              {editor.deletion.refusal(id)}
            </span>
            {editor.deletion.actions(id, id, () => onEdit(id, entry))}
          </li>
        ))}
      </ul>
      {editor.deletion.dialog}
    </>
  );
}

/** The form adding an entry (`addLabel`) or editing one; its fields, then a refusal about no field, Save/Add and Cancel. */
export function CatalogueForm({
  editor,
  addLabel,
  onSubmit,
  children,
}: {
  editor: CatalogueEditor;
  addLabel: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const { t } = useDashboardTranslation();
  const words = catalogueWords(editor.noun, t);
  return (
    <form
      ref={editor.formRef}
      className="dash-form"
      onSubmit={submit}
      aria-label={editor.editing ? words.editNamed(editor.editing.id) : addLabel}
      noValidate
    >
      {children}
      {editor.problem?.field === 'form' ? <ErrorMessage error={editor.error} /> : null}
      <div className="dash-row">
        <button type="submit" className="gh-primary" disabled={editor.mutation.isPending || !editor.form.id.trim()}>
          {editor.mutation.isPending ? t('settings.saving') : editor.editing ? words.save : words.add}
        </button>
        {editor.editing ? (
          <button type="button" onClick={editor.stopEditing}>
            {t('payments.cancelEditing')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
