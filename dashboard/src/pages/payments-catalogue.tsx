import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage, Section } from '../ui.tsx';
import {
  type ConfigItem,
  type ConfigLine,
  type CustomerType,
  type PaymentsConfig,
  problemOf,
  useSavePayments,
  without,
} from './payments-config.ts';
import { CustomerTypeSelect, Field, focusFormSoon, IdField, useEntryDeletion } from './payments-fields.tsx';

/**
 * Items: added, edited (name, customer type; the id stays) and deleted. Each save shows at once and
 * rolls back when refused; a refusal about a product that includes the item shows at the field.
 */
export function Items({ payments }: { payments: PaymentsConfig }) {
  const { save, mutation } = useSavePayments();
  const formRef = useRef<HTMLFormElement>(null);
  const empty = { id: '', displayName: '', customerType: 'user' as CustomerType };
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const problem = problemOf(error, [
    ['id', /^payments\.items$/],
    ['customerType', /^payments\.items\.[^.]+\.customerType$/],
    ['customerType', /^payments\.products\.[^.]+\.includedItems\./, true],
  ]);
  const deletion = useEntryDeletion('item', (id) => save({ 'payments.items': without(payments.items, id) }));
  const stopEditing = () => {
    setEditing(null);
    setForm(empty);
    setError(null);
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const id = editing ?? form.id.trim();
    const item: ConfigItem = {
      ...(editing ? payments.items[editing] : {}),
      displayName: form.displayName.trim() || id,
      customerType: form.customerType,
    };
    save({ [`payments.items.${id}`]: item }).then(() => {
      setForm(empty);
      setEditing(null);
    }, setError);
  }
  const entries = Object.entries(payments.items);
  return (
    <Section title="Items" description="What customers have a quantity of (credits, seats); products include them.">
      <ul className="dash-list" aria-label="Items">
        {entries.length === 0 ? <li className="dash-muted">No items yet.</li> : null}
        {entries.map(([id, item]) => (
          <li key={id}>
            <span>
              <strong>{item.displayName ?? id}</strong> <code>{id}</code> <span className="dash-badge">{item.customerType}</span>
              <br />
              {deletion.refusal(id)}
            </span>
            {deletion.actions(id, id, () => {
              setError(null);
              setEditing(id);
              focusFormSoon(formRef.current);
              setForm({ id, displayName: item.displayName ?? '', customerType: item.customerType });
            })}
          </li>
        ))}
      </ul>
      {deletion.dialog}
      <form ref={formRef} className="dash-form" onSubmit={submit} aria-label={editing ? `Edit item ${editing}` : 'Add an item'}>
        <div className="dash-grid-3">
          <IdField
            value={form.id}
            locked={editing !== null}
            onChange={(id) => setForm({ ...form, id })}
            problem={problem?.field === 'id' ? problem.message : null}
          />
          <Field label="Item name">
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            value={form.customerType}
            problem={problem?.field === 'customerType' ? problem.message : null}
            onChange={(customerType) => setForm({ ...form, customerType: customerType as CustomerType })}
          />
        </div>
        {problem?.field === 'form' ? <ErrorMessage error={error} /> : null}
        <div className="dash-row">
          <button type="submit" className="gh-primary" disabled={mutation.isPending || !form.id.trim()}>
            {editing ? 'Save item' : 'Add item'}
          </button>
          {editing ? (
            <button type="button" onClick={stopEditing}>
              Cancel editing
            </button>
          ) : null}
        </div>
      </form>
    </Section>
  );
}

/** Product lines: added, edited and deleted like items; a product still in a line keeps it from being deleted. */
export function ProductLines({ payments }: { payments: PaymentsConfig }) {
  const { save, mutation } = useSavePayments();
  const formRef = useRef<HTMLFormElement>(null);
  const empty = { id: '', displayName: '', customerType: '' };
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const problem = problemOf(error, [
    ['id', /^payments\.productLines$/],
    ['customerType', /^payments\.productLines\.[^.]+\.customerType$/],
    ['customerType', /^payments\.products\.[^.]+\.(customerType|productLineId)$/, true],
  ]);
  const deletion = useEntryDeletion('product line', (id) => save({ 'payments.productLines': without(payments.productLines, id) }));
  const stopEditing = () => {
    setEditing(null);
    setForm(empty);
    setError(null);
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const id = editing ?? form.id.trim();
    const { customerType: _previousType, ...kept } = editing ? (payments.productLines[editing] ?? {}) : {};
    const line: ConfigLine = { ...kept, displayName: form.displayName.trim() || id };
    if (form.customerType) line.customerType = form.customerType as CustomerType;
    save({ [`payments.productLines.${id}`]: line }).then(() => {
      setForm(empty);
      setEditing(null);
    }, setError);
  }
  const entries = Object.entries(payments.productLines);
  return (
    <Section
      title="Product lines"
      description="A customer owns at most one product of a line (plans: Free, Pro, Max); buying another switches."
    >
      <ul className="dash-list" aria-label="Product lines">
        {entries.length === 0 ? <li className="dash-muted">No product lines yet.</li> : null}
        {entries.map(([id, line]) => (
          <li key={id}>
            <span>
              <strong>{line.displayName ?? id}</strong> <code>{id}</code>
              {line.customerType ? <span className="dash-badge">{line.customerType}</span> : null}
              <br />
              {deletion.refusal(id)}
            </span>
            {deletion.actions(id, id, () => {
              setError(null);
              setEditing(id);
              focusFormSoon(formRef.current);
              setForm({ id, displayName: line.displayName ?? '', customerType: line.customerType ?? '' });
            })}
          </li>
        ))}
      </ul>
      {deletion.dialog}
      <form
        ref={formRef}
        className="dash-form"
        onSubmit={submit}
        aria-label={editing ? `Edit product line ${editing}` : 'Add a product line'}
      >
        <div className="dash-grid-3">
          <IdField
            value={form.id}
            locked={editing !== null}
            onChange={(id) => setForm({ ...form, id })}
            problem={problem?.field === 'id' ? problem.message : null}
          />
          <Field label="Line name">
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            label="Line customer type"
            optional
            value={form.customerType}
            problem={problem?.field === 'customerType' ? problem.message : null}
            onChange={(customerType) => setForm({ ...form, customerType })}
          />
        </div>
        {problem?.field === 'form' ? <ErrorMessage error={error} /> : null}
        <div className="dash-row">
          <button type="submit" className="gh-primary" disabled={mutation.isPending || !form.id.trim()}>
            {editing ? 'Save product line' : 'Add product line'}
          </button>
          {editing ? (
            <button type="button" onClick={stopEditing}>
              Cancel editing
            </button>
          ) : null}
        </div>
      </form>
    </Section>
  );
}
