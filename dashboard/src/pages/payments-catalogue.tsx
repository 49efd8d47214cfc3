import type { ConfigItem, ConfigLine, CustomerType, PaymentsConfig } from './payments-config.ts';
import { without } from './payments-config.ts';
import { CatalogueEntries, CatalogueForm, useCatalogueEditor } from './payments-editor.tsx';
import { CustomerTypeSelect, customerTypeText, Field, IdField } from './payments-fields.tsx';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Section } from '../ui.tsx';

/**
 * Items: added, edited (name, customer type; the id stays) and deleted. Each save shows at once and
 * rolls back when refused; a refusal about a product that includes the item shows at the field.
 */
export function Items({ payments }: { payments: PaymentsConfig }) {
  const editor = useCatalogueEditor({
    noun: 'item',
    empty: { id: '', displayName: '', customerType: 'user' as CustomerType },
    fields: [
      ['id', /^payments\.items$/],
      ['customerType', /^payments\.items\.[^.]+\.customerType$/],
      ['customerType', /^payments\.products\.[^.]+\.includedItems\./, true],
    ],
    remove: (id, save) => save({ 'payments.items': without(payments.items, id) }),
  });
  const { t } = useDashboardTranslation();
  const { form, setForm } = editor;
  function submit() {
    const id = editor.editing?.id ?? form.id.trim();
    const item: ConfigItem = {
      ...(editor.editing ? payments.items[editor.editing.id] : {}),
      displayName: form.displayName.trim() || id,
      customerType: form.customerType,
    };
    editor.submit({ [`payments.items.${id}`]: item });
  }
  return (
    <Section title={t('payments.items')} description={t('payments.itemsDescription')}>
      <CatalogueEntries
        editor={editor}
        label={t('payments.items')}
        emptyText={t('payments.noItems')}
        entries={Object.entries(payments.items)}
        summary={(id, item) => (
          <>
            <strong>{item.displayName ?? id}</strong> <code>{id}</code>{' '}
            <span className="dash-badge">{customerTypeText(item.customerType, t)}</span>
          </>
        )}
        onEdit={(id, item) => editor.edit({ id }, { id, displayName: item.displayName ?? '', customerType: item.customerType })}
      />
      <CatalogueForm editor={editor} addLabel={t('payments.addAnItem')} onSubmit={submit}>
        <div className="dash-grid-3">
          <IdField value={form.id} locked={editor.editing !== null} onChange={(id) => setForm({ ...form, id })} problem={editor.at('id')} />
          <Field label={t('payments.itemName')}>
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            value={form.customerType}
            problem={editor.at('customerType')}
            onChange={(customerType) => setForm({ ...form, customerType: customerType as CustomerType })}
          />
        </div>
      </CatalogueForm>
    </Section>
  );
}

/** Product lines: added, edited and deleted like items; a product still in a line keeps it from being deleted. */
export function ProductLines({ payments }: { payments: PaymentsConfig }) {
  const editor = useCatalogueEditor({
    noun: 'product line',
    empty: { id: '', displayName: '', customerType: '' },
    fields: [
      ['id', /^payments\.productLines$/],
      ['customerType', /^payments\.productLines\.[^.]+\.customerType$/],
      ['customerType', /^payments\.products\.[^.]+\.(customerType|productLineId)$/, true],
    ],
    remove: (id, save) => save({ 'payments.productLines': without(payments.productLines, id) }),
  });
  const { t } = useDashboardTranslation();
  const { form, setForm } = editor;
  function submit() {
    const id = editor.editing?.id ?? form.id.trim();
    const { customerType: _previousType, ...kept } = editor.editing ? (payments.productLines[editor.editing.id] ?? {}) : {};
    const line: ConfigLine = { ...kept, displayName: form.displayName.trim() || id };
    if (form.customerType) line.customerType = form.customerType as CustomerType;
    editor.submit({ [`payments.productLines.${id}`]: line });
  }
  return (
    <Section title={t('payments.productLines')} description={t('payments.productLinesDescription')}>
      <CatalogueEntries
        editor={editor}
        label={t('payments.productLines')}
        emptyText={t('payments.noProductLines')}
        entries={Object.entries(payments.productLines)}
        summary={(id, line) => (
          <>
            <strong>{line.displayName ?? id}</strong> <code>{id}</code>
            {line.customerType ? <span className="dash-badge">{customerTypeText(line.customerType, t)}</span> : null}
          </>
        )}
        onEdit={(id, line) => editor.edit({ id }, { id, displayName: line.displayName ?? '', customerType: line.customerType ?? '' })}
      />
      <CatalogueForm editor={editor} addLabel={t('payments.addAProductLine')} onSubmit={submit}>
        <div className="dash-grid-3">
          <IdField value={form.id} locked={editor.editing !== null} onChange={(id) => setForm({ ...form, id })} problem={editor.at('id')} />
          <Field label={t('payments.lineName')}>
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            label={t('payments.lineCustomerType')}
            optional
            value={form.customerType}
            problem={editor.at('customerType')}
            onChange={(customerType) => setForm({ ...form, customerType })}
          />
        </div>
      </CatalogueForm>
    </Section>
  );
}
