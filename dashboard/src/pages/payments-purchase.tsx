import { api, type CustomerProduct } from '@gatehouse/react';
import { type FormEvent, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ConfirmDialog, ErrorMessage } from '../ui.tsx';
import { describeMethod } from './payments-billing.tsx';
import { type ConfigProduct, type CustomerType, type PaymentsConfig, priceText } from './payments-config.ts';
import { Field } from './payments-fields.tsx';

const paidPrices = (product: ConfigProduct | undefined) =>
  product && product.prices !== 'include-by-default' ? Object.entries(product.prices) : [];

/**
 * A hosted checkout page for this customer and a catalogue product (createPurchaseUrl): the link, with a copy
 * button, to send to the buyer; valid 24 hours and one purchase. The server's refusals (owned already, a
 * return URL that is not trusted, new purchases blocked) are shown as it words them.
 */
export function CheckoutLink({
  customerType,
  customerId,
  payments,
}: {
  customerType: CustomerType;
  customerId: string;
  payments: PaymentsConfig;
}) {
  const { request } = useProjectScope();
  const create = api.useCreatePurchaseUrl({ request });
  const [productId, setProductId] = useState('');
  const [returnUrl, setReturnUrl] = useState('');
  const { t } = useDashboardTranslation();
  const sellable = Object.entries(payments.products).filter(
    ([, product]) => product.customerType === customerType && paidPrices(product).length > 0,
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({
      data: {
        customer_type: customerType,
        customer_id: customerId,
        product_id: productId,
        ...(returnUrl.trim() ? { return_url: returnUrl.trim() } : {}),
      },
    });
  }
  return (
    <section className="dash-stack" aria-label={t('checkout.title')}>
      <h3>{t('checkout.title')}</h3>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <Field label={t('checkout.productToSell')}>
          {(id) => (
            <select
              id={id}
              value={productId}
              onChange={(event) => {
                create.reset();
                setProductId(event.target.value);
              }}
            >
              <option value="">{t('paymentsCustomer.chooseProduct')}</option>
              {sellable.map(([id, product]) => (
                <option key={id} value={id}>
                  {product.displayName ?? id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('checkout.returnUrl')}>
          {(id) => (
            <input
              id={id}
              value={returnUrl}
              placeholder="https://your-app/after-purchase"
              onChange={(event) => setReturnUrl(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={!productId || create.isPending}>
          {create.isPending ? t('checkout.creating') : t('checkout.create')}
        </button>
      </form>
      <ErrorMessage error={create.error} />
      {create.data ? (
        <div className="dash-stack" role="status">
          <code className="dash-code">{create.data.url}</code>
          <div className="dash-row">
            <CopyButton value={create.data.url} label={t('checkout.copy')} />
            <a href={create.data.url} target="_blank" rel="noreferrer">
              {t('checkout.open')}
            </a>
          </div>
          <p className="dash-muted">{t('checkout.valid')}</p>
        </div>
      ) : null}
    </section>
  );
}

/**
 * Moves the customer from an owned product to another of its line (switchCustomerProduct), after a confirmation
 * saying what changes: what ends and starts, at which price, and what is charged to which payment method. The
 * server's refusals (no default payment method, a declined card, blocked purchases) are shown in the dialog as
 * it words them, and nothing changes.
 */
export function SwitchProductDialog({
  customerType,
  customerId,
  from,
  payments,
  onClose,
  onSwitched,
}: {
  customerType: 'user' | 'team';
  customerId: string;
  from: CustomerProduct & { id: string };
  payments: PaymentsConfig;
  onClose: () => void;
  onSwitched: (toName: string) => Promise<unknown>;
}) {
  const { request } = useProjectScope();
  const billing = api.useGetCustomerBilling(customerType, customerId, { request });
  const change = api.useSwitchCustomerProduct({ request });
  const { t } = useDashboardTranslation();
  const options = from.switch_options ?? [];
  const [toId, setToId] = useState(options[0]?.product_id ?? '');
  const prices = paidPrices(payments.products[toId]);
  const [priceId, setPriceId] = useState(prices[0]?.[0] ?? '');
  const price = prices.find(([id]) => id === priceId)?.[1];
  const fromName = from.product.display_name;
  const toName = options.find((option) => option.product_id === toId)?.product.display_name ?? toId;
  const method = billing.data?.default_payment_method ?? null;
  const charge =
    prices.length === 0
      ? t('switch.free', { to: toName, from: fromName })
      : payments.testMode
        ? t('switch.testMode')
        : method
          ? price?.interval
            ? t('switch.chargedRecurring', { method: describeMethod(method, t), from: fromName })
            : t('switch.chargedOnce', { method: describeMethod(method, t), from: fromName })
          : billing.isPending
            ? t('switch.checkingMethod')
            : t('switch.noMethod');
  return (
    <ConfirmDialog
      open
      tone="primary"
      title={t('switch.title', { from: fromName })}
      confirmLabel={t('switch.confirm', { to: toName })}
      busy={change.isPending}
      canConfirm={Boolean(toId) && (prices.length === 0 || Boolean(priceId))}
      onClose={onClose}
      onConfirm={() =>
        change.mutate(
          {
            customerType,
            customerId,
            data: { from_product_id: from.id, to_product_id: toId, ...(prices.length > 0 && priceId ? { price_id: priceId } : {}) },
          },
          { onSuccess: async () => onSwitched(toName) },
        )
      }
    >
      <div className="dash-row dash-toolbar">
        <Field label={t('switch.to')}>
          {(id) => (
            <select
              id={id}
              value={toId}
              onChange={(event) => {
                change.reset();
                setToId(event.target.value);
                setPriceId(paidPrices(payments.products[event.target.value])[0]?.[0] ?? '');
              }}
            >
              {options.map((option) => (
                <option key={option.product_id} value={option.product_id}>
                  {option.product.display_name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {prices.length > 0 ? (
          <Field label={t('payments.price')}>
            {(id) => (
              <select
                id={id}
                value={priceId}
                onChange={(event) => {
                  change.reset();
                  setPriceId(event.target.value);
                }}
              >
                {prices.map(([id, each]) => (
                  <option key={id} value={id}>
                    {id}: {priceText(each, t)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
      </div>
      <p>
        {price
          ? t('switch.endsStartsAt', { from: fromName, to: toName, priceId, price: priceText(price, t) })
          : t('switch.endsStarts', { from: fromName, to: toName })}
      </p>
      <p>{charge}</p>
      <ErrorMessage error={change.error} />
    </ConfirmDialog>
  );
}
