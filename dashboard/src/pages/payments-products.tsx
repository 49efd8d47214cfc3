import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, Section } from '../ui.tsx';
import {
  type ConfigPrice,
  type ConfigProduct,
  type CustomerType,
  currencies,
  type IncludedItem,
  type Interval,
  intervals,
  intervalText,
  type PaymentsConfig,
  priceText,
  without,
} from './payments-config.ts';
import { CatalogueEntries, CatalogueForm, useCatalogueEditor } from './payments-editor.tsx';
import { CustomerTypeSelect, customerTypeText, Field, IdField } from './payments-fields.tsx';

const emptyForm = {
  id: '',
  displayName: '',
  customerType: 'user' as CustomerType,
  productLineId: '',
  stackable: false,
  free: false,
  priceId: 'monthly',
  currency: 'USD',
  amount: '',
  interval: 'month',
  itemId: '',
  quantity: '0',
};
type ProductForm = typeof emptyForm;
/** What the form showed of the product being edited: its first price (and currency) and first included item. */
type Shown = { priceId?: string; currency?: string; interval?: Interval; itemId?: string };

/** The price fields of an existing product's price (its first currency), and what they show. */
function priceFormOf(product: ConfigProduct, wanted?: string) {
  const prices = product.prices === 'include-by-default' ? {} : product.prices;
  const priceId = wanted ?? Object.keys(prices).sort()[0];
  const price = priceId ? prices[priceId] : undefined;
  const currency = price ? currencies.find((code) => typeof price[code] === 'string') : undefined;
  const standard = price?.interval && price.interval[0] === 1 && price.interval[1] !== 'day';
  return {
    fields: {
      priceId: priceId ?? 'monthly',
      currency: currency ?? 'USD',
      amount: currency && price ? String(price[currency]) : '',
      interval: !price?.interval ? 'once' : standard ? price.interval[1] : 'current',
    },
    shown: { priceId, currency, interval: price?.interval },
  };
}

/** The form for an existing product: one price (the first by id, or the one chosen) and its first included item; the others stay as they are. */
function formOf(id: string, product: ConfigProduct): { form: ProductForm; shown: Shown } {
  const price = priceFormOf(product);
  const [itemId, included] = Object.entries(product.includedItems ?? {}).sort(([a], [b]) => a.localeCompare(b))[0] ?? [];
  return {
    form: {
      ...price.fields,
      id,
      displayName: product.displayName ?? '',
      customerType: product.customerType,
      productLineId: product.productLineId ?? '',
      stackable: product.stackable ?? false,
      free: product.prices === 'include-by-default',
      itemId: itemId ?? '',
      quantity: String(included?.quantity ?? 0),
    },
    shown: { ...price.shown, itemId },
  };
}

/**
 * A product from the form. A new one is just the form; an edited one keeps what the form does not show
 * (its other prices and currencies, other included items, flags): the form replaces only what it showed.
 */
function productOf(form: ProductForm, existing: ConfigProduct | undefined, shown: Shown): ConfigProduct {
  const id = form.id.trim();
  const interval = form.interval === 'current' ? shown.interval : intervals[form.interval];
  let prices: ConfigProduct['prices'] = 'include-by-default';
  if (!form.free) {
    const previous = existing && existing.prices !== 'include-by-default' ? existing.prices : {};
    const priceId = form.priceId.trim() || 'default';
    const others = shown.priceId && shown.priceId !== priceId ? without(previous, shown.priceId) : previous;
    const base: ConfigPrice = { ...(shown.priceId === priceId ? previous[priceId] : undefined) };
    if (shown.currency) delete base[shown.currency];
    delete base.interval;
    prices = { ...others, [priceId]: { ...base, [form.currency]: form.amount.trim(), ...(interval ? { interval } : {}) } };
  }
  const keptItems = shown.itemId ? without(existing?.includedItems ?? {}, shown.itemId) : (existing?.includedItems ?? {});
  const included: IncludedItem = {
    repeat: 'never',
    expires: 'never',
    ...(form.itemId === shown.itemId ? existing?.includedItems?.[form.itemId] : {}),
  };
  const product: ConfigProduct = {
    ...existing,
    displayName: form.displayName.trim() || id,
    customerType: form.customerType,
    stackable: form.stackable,
    prices,
    includedItems: form.itemId ? { ...keptItems, [form.itemId]: { ...included, quantity: Number(form.quantity) } } : keptItems,
  };
  if (form.productLineId) product.productLineId = form.productLineId;
  else delete product.productLineId;
  return product;
}

const priceIdsOf = (product: ConfigProduct | undefined) =>
  product && product.prices !== 'include-by-default' ? Object.keys(product.prices).sort() : [];

/** Products: added, edited (what the form shows) and deleted; the server's rule messages at the field they name. */
export function Products({ payments }: { payments: PaymentsConfig }) {
  const editor = useCatalogueEditor<ProductForm, { id: string; shown: Shown }>({
    noun: 'product',
    empty: emptyForm,
    fields: [
      ['id', /^payments\.products$/],
      ['amount', /^payments\.products\.[^.]+\.prices/],
      ['quantity', /^payments\.products\.[^.]+\.includedItems/],
      ['productLineId', /^payments\.products\.[^.]+\.productLineId$/],
      ['customerType', /^payments\.products\.[^.]+\.customerType$/],
    ],
    remove: (id, save) => save({ 'payments.products': without(payments.products, id) }),
  });
  const { form, setForm, editing, setEditing, at } = editor;
  const { t } = useDashboardTranslation();
  const itemsOfType = Object.entries(payments.items).filter(([, item]) => item.customerType === form.customerType);

  function submit() {
    const id = form.id.trim();
    const product = productOf(form, editing ? payments.products[editing.id] : undefined, editing?.shown ?? {});
    editor.submit({ [`payments.products.${id}`]: product });
  }

  return (
    <Section title={t('payments.products')} description={t('payments.productsDescription')}>
      <CatalogueEntries
        editor={editor}
        label={t('payments.products')}
        emptyText={t('payments.noProducts')}
        entries={Object.entries(payments.products)}
        summary={(id, product) => (
          <>
            <strong>{product.displayName ?? id}</strong> <code>{id}</code>{' '}
            <span className="dash-badge">{customerTypeText(product.customerType, t)}</span>
            {product.productLineId ? <span className="dash-badge">{t('payments.lineBadge', { id: product.productLineId })}</span> : null}
            <br />
            <span className="dash-muted">
              {product.prices === 'include-by-default'
                ? t('payments.includedByDefault')
                : Object.entries(product.prices)
                    .map(([priceId, price]) => `${priceId}: ${priceText(price, t)}`)
                    .join(' · ')}
              {Object.entries(product.includedItems ?? {}).map(
                ([itemId, included]) => ` · ${t('payments.includes', { quantity: included.quantity ?? 0, item: itemId })}`,
              )}
            </span>
          </>
        )}
        onEdit={(id, product) => {
          const loaded = formOf(id, product);
          editor.edit({ id, shown: loaded.shown }, loaded.form);
        }}
      />
      <CatalogueForm editor={editor} addLabel={t('payments.addAProduct')} onSubmit={submit}>
        {editing ? <p className="dash-muted">{t('payments.formShowsOne')}</p> : null}
        <div className="dash-grid-3">
          <IdField value={form.id} locked={editing !== null} onChange={(id) => setForm({ ...form, id })} problem={at('id')} />
          <Field label={t('payments.productName')}>
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            label={t('payments.productCustomerType')}
            value={form.customerType}
            problem={at('customerType')}
            onChange={(customerType) => setForm({ ...form, customerType: customerType as CustomerType, itemId: '' })}
          />
          <Field label={t('payments.productLine')} problem={at('productLineId')}>
            {(id, describedBy) => (
              <select
                id={id}
                value={form.productLineId}
                aria-describedby={describedBy}
                onChange={(event) => setForm({ ...form, productLineId: event.target.value })}
              >
                <option value="">{t('payments.none')}</option>
                {Object.entries(payments.productLines).map(([lineId, line]) => (
                  <option key={lineId} value={lineId}>
                    {line.displayName ?? lineId}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="dash-row">
          <Checkbox label={t('payments.stackable')} checked={form.stackable} onChange={(stackable) => setForm({ ...form, stackable })} />
          <Checkbox label={t('payments.free')} checked={form.free} onChange={(free) => setForm({ ...form, free })} />
        </div>
        {editing && priceIdsOf(payments.products[editing.id]).length > 1 ? (
          <Field label={t('payments.priceToEdit')}>
            {(id) => (
              <select
                id={id}
                value={editing.shown.priceId ?? ''}
                onChange={(event) => {
                  const price = priceFormOf(payments.products[editing.id] as ConfigProduct, event.target.value);
                  setEditing({ ...editing, shown: { ...editing.shown, ...price.shown } });
                  setForm({ ...form, ...price.fields });
                }}
              >
                {priceIdsOf(payments.products[editing.id]).map((priceId) => (
                  <option key={priceId}>{priceId}</option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {form.free ? null : <PriceFields form={form} setForm={setForm} problem={at('amount')} current={editing?.shown.interval} />}
        <fieldset className="dash-fieldset">
          <legend>{t('payments.includedItem')}</legend>
          <div className="dash-grid-3">
            <Field label={t('payments.includedItem')}>
              {(id) => (
                <select id={id} value={form.itemId} onChange={(event) => setForm({ ...form, itemId: event.target.value })}>
                  <option value="">{t('payments.none')}</option>
                  {itemsOfType.map(([itemId, item]) => (
                    <option key={itemId} value={itemId}>
                      {item.displayName ?? itemId}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('payments.quantityIncluded')} problem={at('quantity')}>
              {(id, describedBy) => (
                <input
                  id={id}
                  type="number"
                  min={0}
                  value={form.quantity}
                  disabled={!form.itemId}
                  aria-describedby={describedBy}
                  onChange={(event) => setForm({ ...form, quantity: event.target.value })}
                />
              )}
            </Field>
          </div>
        </fieldset>
      </CatalogueForm>
    </Section>
  );
}

function PriceFields({
  form,
  setForm,
  problem,
  current,
}: {
  form: ProductForm;
  setForm: (form: ProductForm) => void;
  problem: string | null;
  current: Interval | undefined;
}) {
  const { t } = useDashboardTranslation();
  return (
    <fieldset className="dash-fieldset">
      <legend>{t('payments.price')}</legend>
      <div className="dash-grid-3">
        <Field label={t('payments.priceId')}>
          {(id) => <input id={id} value={form.priceId} onChange={(event) => setForm({ ...form, priceId: event.target.value })} />}
        </Field>
        <Field label={t('payments.currency')}>
          {(id) => (
            <select id={id} value={form.currency} onChange={(event) => setForm({ ...form, currency: event.target.value })}>
              {currencies.map((currency) => (
                <option key={currency}>{currency}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('payments.amount')} problem={problem}>
          {(id, describedBy) => (
            <input
              id={id}
              inputMode="decimal"
              placeholder="9.99"
              value={form.amount}
              aria-invalid={problem ? true : undefined}
              aria-describedby={describedBy}
              onChange={(event) => setForm({ ...form, amount: event.target.value })}
            />
          )}
        </Field>
        <Field label={t('payments.billing')}>
          {(id) => (
            <select id={id} value={form.interval} onChange={(event) => setForm({ ...form, interval: event.target.value })}>
              <option value="once">{t('payments.oneTime')}</option>
              <option value="week">{t('payments.billingWeek')}</option>
              <option value="month">{t('payments.billingMonth')}</option>
              <option value="year">{t('payments.billingYear')}</option>
              {current && (current[0] !== 1 || current[1] === 'day') ? (
                <option value="current">{t('payments.asNow', { interval: intervalText(current, t) })}</option>
              ) : null}
            </select>
          )}
        </Field>
      </div>
    </fieldset>
  );
}
