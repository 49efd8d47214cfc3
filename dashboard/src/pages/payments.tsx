import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, Link } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ErrorMessage, errorText, PageHeader, Section } from '../ui.tsx';
import { StripeSection } from './payments-stripe.tsx';

type CustomerType = Schema<'CustomerType'>;
type Interval = [number, 'day' | 'week' | 'month' | 'year'];
type ConfigItem = { displayName?: string; customerType: CustomerType };
type ConfigLine = { displayName?: string; customerType?: CustomerType };
type ConfigPrice = Record<string, unknown> & { interval?: Interval };
type ConfigProduct = {
  displayName?: string;
  customerType: CustomerType;
  productLineId?: string;
  stackable?: boolean;
  serverOnly?: boolean;
  prices: Record<string, ConfigPrice> | 'include-by-default';
  includedItems?: Record<string, { quantity?: number; repeat?: Interval | 'never'; expires?: string }>;
};
type PaymentsConfig = {
  testMode: boolean;
  blockNewPurchases: boolean;
  items: Record<string, ConfigItem>;
  productLines: Record<string, ConfigLine>;
  products: Record<string, ConfigProduct>;
};
type RenderedConfig = { config_string: string };

const customerTypes: CustomerType[] = ['user', 'team', 'custom'];
const currencies = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'INR', 'JPY'] as const;

const paymentsOf = (config: RenderedConfig): PaymentsConfig => (JSON.parse(config.config_string) as { payments: PaymentsConfig }).payments;

/**
 * Saves config override entries (dotted keys under `payments`), showing them at once and putting the
 * previous config back when the server refuses (its message names the path of the broken rule).
 */
function useSavePayments() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  const mutation = api.useUpdateProjectConfigOverride({
    request,
    mutation: {
      onMutate: async ({ data }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData<RenderedConfig>(key);
        if (previous) {
          const rendered = JSON.parse(previous.config_string) as Record<string, unknown>;
          for (const [path, value] of Object.entries(JSON.parse(data.config_override_string) as Record<string, unknown>)) {
            const parts = path.split('.');
            let node = rendered as Record<string, unknown>;
            for (const part of parts.slice(0, -1)) {
              if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
              node = node[part] as Record<string, unknown>;
            }
            node[parts.at(-1) as string] = value;
          }
          queryClient.setQueryData<RenderedConfig>(key, { ...previous, config_string: JSON.stringify(rendered) });
        }
        return { previous };
      },
      onError: (_error, _variables, context) => {
        if (context?.previous) queryClient.setQueryData(key, context.previous);
      },
      onSuccess: (rendered) => queryClient.setQueryData(key, rendered),
    },
  });
  const save = (entries: Record<string, unknown>) =>
    mutation.mutateAsync({ level: 'project', data: { config_override_string: JSON.stringify(entries) } });
  return { save, mutation };
}

/**
 * Payments: test mode and new purchases, the catalogue (items, product lines, products with prices
 * and included items; the server's rule messages shown at the field they name), a customer's items
 * and products with a grant.
 */
export function PaymentsPage() {
  const { projectId, request } = useProjectScope();
  const config = api.useGetProjectConfigSuspense({ request, query: { queryKey: api.getGetProjectConfigQueryKey() } });
  const payments = paymentsOf(config.data);
  return (
    <>
      <PageHeader title="Payments">
        <Link href={paths.project(projectId, 'payment-transactions')}>Transactions</Link>
      </PageHeader>
      <PaymentSettings payments={payments} />
      <StripeSection />
      <Items payments={payments} />
      <ProductLines payments={payments} />
      <Products payments={payments} />
      <Customer payments={payments} />
    </>
  );
}

function PaymentSettings({ payments }: { payments: PaymentsConfig }) {
  const { save, mutation } = useSavePayments();
  return (
    <Section
      title="Mode"
      description="In test mode purchases go through the platform's test checkout (no card is charged). Blocking new purchases keeps what customers own."
    >
      <div className="dash-row">
        <Checkbox label="Test mode" checked={payments.testMode} onChange={(on) => save({ 'payments.testMode': on }).catch(() => {})} />
        <Checkbox
          label="Block new purchases"
          checked={payments.blockNewPurchases}
          onChange={(on) => save({ 'payments.blockNewPurchases': on }).catch(() => {})}
        />
      </div>
      <ErrorMessage error={mutation.error} />
    </Section>
  );
}

/** A field with its label, and the server's message for it when it names this field. */
function Field({
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

/** `payments.products.pro.prices.monthly.USD: Too many decimals…` → which form field, and the message after the path. */
function problemOf(error: unknown, fields: Array<[field: string, pathPattern: RegExp]>): { field: string; message: string } | null {
  if (!error) return null;
  const text = errorText(error);
  const match = /^(payments\.[^\s:]*): (.*)$/s.exec(text);
  if (!match) return { field: 'form', message: text };
  const [, path = '', message = ''] = match;
  for (const [field, pattern] of fields) if (pattern.test(path)) return { field, message };
  return { field: 'form', message: text };
}

function IdField({ value, onChange, problem }: { value: string; onChange: (value: string) => void; problem?: string | null }) {
  return (
    <Field label="Id" problem={problem}>
      {(id, describedBy) => (
        <input
          id={id}
          required
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

function CustomerTypeSelect({
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
        <select id={id} value={value} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)}>
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

function Items({ payments }: { payments: PaymentsConfig }) {
  const { save, mutation } = useSavePayments();
  const [form, setForm] = useState({ id: '', displayName: '', customerType: 'user' as CustomerType });
  const [error, setError] = useState<unknown>(null);
  const problem = problemOf(error, [['id', /^payments\.items$/]]);
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const id = form.id.trim();
    save({ [`payments.items.${id}`]: { displayName: form.displayName.trim() || id, customerType: form.customerType } }).then(
      () => setForm({ ...form, id: '', displayName: '' }),
      setError,
    );
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
            </span>
          </li>
        ))}
      </ul>
      <form className="dash-form" onSubmit={submit} aria-label="Add an item">
        <div className="dash-grid-3">
          <IdField value={form.id} onChange={(id) => setForm({ ...form, id })} problem={problem?.field === 'id' ? problem.message : null} />
          <Field label="Item name">
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            value={form.customerType}
            onChange={(customerType) => setForm({ ...form, customerType: customerType as CustomerType })}
          />
        </div>
        {problem?.field === 'form' ? <ErrorMessage error={error} /> : null}
        <div>
          <button type="submit" className="gh-primary" disabled={mutation.isPending || !form.id.trim()}>
            Add item
          </button>
        </div>
      </form>
    </Section>
  );
}

function ProductLines({ payments }: { payments: PaymentsConfig }) {
  const { save, mutation } = useSavePayments();
  const [form, setForm] = useState({ id: '', displayName: '', customerType: '' });
  const [error, setError] = useState<unknown>(null);
  const problem = problemOf(error, [['id', /^payments\.productLines$/]]);
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const id = form.id.trim();
    const line: ConfigLine = { displayName: form.displayName.trim() || id };
    if (form.customerType) line.customerType = form.customerType as CustomerType;
    save({ [`payments.productLines.${id}`]: line }).then(() => setForm({ id: '', displayName: '', customerType: '' }), setError);
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
            </span>
          </li>
        ))}
      </ul>
      <form className="dash-form" onSubmit={submit} aria-label="Add a product line">
        <div className="dash-grid-3">
          <IdField value={form.id} onChange={(id) => setForm({ ...form, id })} problem={problem?.field === 'id' ? problem.message : null} />
          <Field label="Line name">
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            label="Line customer type"
            optional
            value={form.customerType}
            onChange={(customerType) => setForm({ ...form, customerType })}
          />
        </div>
        {problem?.field === 'form' ? <ErrorMessage error={error} /> : null}
        <div>
          <button type="submit" className="gh-primary" disabled={mutation.isPending || !form.id.trim()}>
            Add product line
          </button>
        </div>
      </form>
    </Section>
  );
}

const intervals: Record<string, Interval | undefined> = {
  once: undefined,
  week: [1, 'week'],
  month: [1, 'month'],
  year: [1, 'year'],
};

function priceText(price: ConfigPrice): string {
  const amounts = currencies.filter((currency) => typeof price[currency] === 'string').map((currency) => `${price[currency]} ${currency}`);
  const interval = price.interval ? ` every ${price.interval[0] === 1 ? '' : `${price.interval[0]} `}${price.interval[1]}` : ' once';
  return `${amounts.join(' / ')}${interval}`;
}

function Products({ payments }: { payments: PaymentsConfig }) {
  const { save, mutation } = useSavePayments();
  const empty = {
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
  const [form, setForm] = useState(empty);
  const [error, setError] = useState<unknown>(null);
  const problem = problemOf(error, [
    ['id', /^payments\.products$/],
    ['amount', /^payments\.products\.[^.]+\.prices/],
    ['quantity', /^payments\.products\.[^.]+\.includedItems/],
    ['productLineId', /^payments\.products\.[^.]+\.productLineId$/],
    ['customerType', /^payments\.products\.[^.]+\.customerType$/],
  ]);
  const at = (field: string) => (problem?.field === field ? problem.message : null);
  const itemsOfType = Object.entries(payments.items).filter(([, item]) => item.customerType === form.customerType);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const id = form.id.trim();
    const product: ConfigProduct = {
      displayName: form.displayName.trim() || id,
      customerType: form.customerType,
      stackable: form.stackable,
      prices: form.free
        ? 'include-by-default'
        : {
            [form.priceId.trim() || 'default']: {
              [form.currency]: form.amount.trim(),
              ...(intervals[form.interval] ? { interval: intervals[form.interval] } : {}),
            },
          },
      includedItems: form.itemId ? { [form.itemId]: { quantity: Number(form.quantity), repeat: 'never', expires: 'never' } } : {},
    };
    if (form.productLineId) product.productLineId = form.productLineId;
    save({ [`payments.products.${id}`]: product }).then(() => setForm(empty), setError);
  }

  const entries = Object.entries(payments.products);
  return (
    <Section
      title="Products"
      description="What customers buy or are granted: prices per currency and interval, and the items they include."
    >
      <ul className="dash-list" aria-label="Products">
        {entries.length === 0 ? <li className="dash-muted">No products yet.</li> : null}
        {entries.map(([id, product]) => (
          <li key={id}>
            <span>
              <strong>{product.displayName ?? id}</strong> <code>{id}</code> <span className="dash-badge">{product.customerType}</span>
              {product.productLineId ? <span className="dash-badge">line {product.productLineId}</span> : null}
              <br />
              <span className="dash-muted">
                {product.prices === 'include-by-default'
                  ? 'Included by default'
                  : Object.entries(product.prices)
                      .map(([priceId, price]) => `${priceId}: ${priceText(price)}`)
                      .join(' · ')}
                {Object.entries(product.includedItems ?? {}).map(([itemId, included]) => ` · includes ${included.quantity ?? 0} ${itemId}`)}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <form className="dash-form" onSubmit={submit} aria-label="Add a product" noValidate>
        <div className="dash-grid-3">
          <IdField value={form.id} onChange={(id) => setForm({ ...form, id })} problem={at('id')} />
          <Field label="Product name">
            {(id) => <input id={id} value={form.displayName} onChange={(event) => setForm({ ...form, displayName: event.target.value })} />}
          </Field>
          <CustomerTypeSelect
            label="Product customer type"
            value={form.customerType}
            problem={at('customerType')}
            onChange={(customerType) => setForm({ ...form, customerType: customerType as CustomerType, itemId: '' })}
          />
          <Field label="Product line" problem={at('productLineId')}>
            {(id, describedBy) => (
              <select
                id={id}
                value={form.productLineId}
                aria-describedby={describedBy}
                onChange={(event) => setForm({ ...form, productLineId: event.target.value })}
              >
                <option value="">None</option>
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
          <Checkbox
            label="Stackable (bought more than once)"
            checked={form.stackable}
            onChange={(stackable) => setForm({ ...form, stackable })}
          />
          <Checkbox label="Free, included by default" checked={form.free} onChange={(free) => setForm({ ...form, free })} />
        </div>
        {form.free ? null : (
          <fieldset className="dash-fieldset">
            <legend>Price</legend>
            <div className="dash-grid-3">
              <Field label="Price id">
                {(id) => <input id={id} value={form.priceId} onChange={(event) => setForm({ ...form, priceId: event.target.value })} />}
              </Field>
              <Field label="Currency">
                {(id) => (
                  <select id={id} value={form.currency} onChange={(event) => setForm({ ...form, currency: event.target.value })}>
                    {currencies.map((currency) => (
                      <option key={currency}>{currency}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Amount" problem={at('amount')}>
                {(id, describedBy) => (
                  <input
                    id={id}
                    inputMode="decimal"
                    placeholder="9.99"
                    value={form.amount}
                    aria-invalid={at('amount') ? true : undefined}
                    aria-describedby={describedBy}
                    onChange={(event) => setForm({ ...form, amount: event.target.value })}
                  />
                )}
              </Field>
              <Field label="Billing">
                {(id) => (
                  <select id={id} value={form.interval} onChange={(event) => setForm({ ...form, interval: event.target.value })}>
                    <option value="once">One time</option>
                    <option value="week">Every week</option>
                    <option value="month">Every month</option>
                    <option value="year">Every year</option>
                  </select>
                )}
              </Field>
            </div>
          </fieldset>
        )}
        <fieldset className="dash-fieldset">
          <legend>Included item</legend>
          <div className="dash-grid-3">
            <Field label="Included item">
              {(id) => (
                <select id={id} value={form.itemId} onChange={(event) => setForm({ ...form, itemId: event.target.value })}>
                  <option value="">None</option>
                  {itemsOfType.map(([itemId, item]) => (
                    <option key={itemId} value={itemId}>
                      {item.displayName ?? itemId}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Quantity included" problem={at('quantity')}>
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
        {problem?.field === 'form' ? <ErrorMessage error={error} /> : null}
        <div>
          <button type="submit" className="gh-primary" disabled={mutation.isPending || !form.id.trim()}>
            {mutation.isPending ? 'Saving…' : 'Add product'}
          </button>
        </div>
      </form>
    </Section>
  );
}

/** One customer's items (every catalogue item of its type) and products, with a grant of a catalogue product. */
function Customer({ payments }: { payments: PaymentsConfig }) {
  const [form, setForm] = useState({ customerType: 'user' as CustomerType, customerId: '' });
  const [shown, setShown] = useState<{ customerType: CustomerType; customerId: string } | null>(null);
  return (
    <Section title="A customer" description="A user's or team's id (from their page), or your own id of a custom customer.">
      <form
        className="dash-row dash-toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          if (form.customerId.trim()) setShown({ customerType: form.customerType, customerId: form.customerId.trim() });
        }}
      >
        <CustomerTypeSelect
          label="Type of customer"
          value={form.customerType}
          onChange={(customerType) => setForm({ ...form, customerType: customerType as CustomerType })}
        />
        <Field label="Customer id">
          {(id) => <input id={id} value={form.customerId} onChange={(event) => setForm({ ...form, customerId: event.target.value })} />}
        </Field>
        <button type="submit" disabled={!form.customerId.trim()}>
          Show customer
        </button>
      </form>
      {shown ? <CustomerDetails key={`${shown.customerType}/${shown.customerId}`} {...shown} payments={payments} /> : null}
    </Section>
  );
}

function CustomerDetails({
  customerType,
  customerId,
  payments,
}: {
  customerType: CustomerType;
  customerId: string;
  payments: PaymentsConfig;
}) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const products = api.useListCustomerProducts(customerType, customerId, {}, { request });
  const grant = api.useGrantCustomerProduct({ request });
  const grantable = Object.entries(payments.products).filter(([, product]) => product.customerType === customerType);
  const [productId, setProductId] = useState('');
  const itemIds = Object.entries(payments.items)
    .filter(([, item]) => item.customerType === customerType)
    .map(([id]) => id);
  return (
    <div className="dash-stack" aria-live="polite">
      <h3>Items</h3>
      {itemIds.length === 0 ? <p className="dash-muted">No items of this customer type.</p> : null}
      <ul className="dash-list" aria-label="Customer items">
        {itemIds.map((itemId) => (
          <CustomerItem key={itemId} customerType={customerType} customerId={customerId} itemId={itemId} />
        ))}
      </ul>
      <h3>Products</h3>
      {products.isPending ? <p role="status">Loading…</p> : null}
      <ErrorMessage error={products.error} />
      {products.data ? (
        <ul className="dash-list" aria-label="Customer products">
          {products.data.items.length === 0 ? <li className="dash-muted">No products.</li> : null}
          {products.data.items.map((owned, index) => (
            <li key={owned.subscription?.subscription_id ?? `${owned.id}-${index}`}>
              <span>
                <strong>{owned.product.display_name}</strong> {owned.id ? <code>{owned.id}</code> : null} × {owned.quantity}
                {owned.subscription === null ? <span className="dash-badge">included by default</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="dash-row dash-toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          grant.mutate(
            { customerType, customerId, data: { product_id: productId } },
            {
              onSuccess: () =>
                queryClient.invalidateQueries({
                  predicate: (query) =>
                    JSON.stringify(query.queryKey).includes(`/payments/`) && JSON.stringify(query.queryKey).includes(customerId),
                }),
            },
          );
        }}
      >
        <Field label="Product to grant">
          {(id) => (
            <select id={id} value={productId} onChange={(event) => setProductId(event.target.value)}>
              <option value="">Choose a product</option>
              {grantable.map(([id, product]) => (
                <option key={id} value={id}>
                  {product.displayName ?? id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="gh-primary" disabled={!productId || grant.isPending}>
          {grant.isPending ? 'Granting…' : 'Grant product'}
        </button>
      </form>
      {grant.isSuccess ? <p className="dash-success">Granted.</p> : null}
      <ErrorMessage error={grant.error} />
    </div>
  );
}

function CustomerItem({ customerType, customerId, itemId }: { customerType: CustomerType; customerId: string; itemId: string }) {
  const { request } = useProjectScope();
  const item = api.useGetCustomerItem(customerType, customerId, itemId, { request });
  return (
    <li>
      <span>{item.data?.display_name ?? itemId}</span>
      {item.error ? <span className="dash-error">{errorText(item.error)}</span> : <strong>{item.data ? item.data.quantity : '…'}</strong>}
    </li>
  );
}
