import { api, type CustomerProduct } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, errorText } from '../ui.tsx';
import { CustomerBilling } from './payments-billing.tsx';
import type { CustomerType, PaymentsConfig } from './payments-config.ts';
import { Field } from './payments-fields.tsx';
import { CheckoutLink, SwitchProductDialog } from './payments-purchase.tsx';

/**
 * One customer on the payments page: its items (every catalogue item of its type), products (grant, cancel,
 * switch within a line), a checkout link, billing and invoices.
 */
export function CustomerDetails({
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
  const cancel = api.useCancelCustomerProduct({ request });
  const [canceling, setCanceling] = useState<{ productId: string; subscriptionId: string; name: string } | null>(null);
  const [switching, setSwitching] = useState<(CustomerProduct & { id: string }) | null>(null);
  const [switched, setSwitched] = useState<string | null>(null);
  const { t } = useDashboardTranslation();
  /** Every payments read of this customer (items and products) is stale after a change. */
  const forgetCustomer = () =>
    queryClient.invalidateQueries({
      predicate: (query) => JSON.stringify(query.queryKey).includes('/payments/') && JSON.stringify(query.queryKey).includes(customerId),
    });
  const grantable = Object.entries(payments.products).filter(([, product]) => product.customerType === customerType);
  const [productId, setProductId] = useState('');
  const itemIds = Object.entries(payments.items)
    .filter(([, item]) => item.customerType === customerType)
    .map(([id]) => id);
  return (
    <div className="dash-stack" aria-live="polite">
      <h3>{t('payments.items')}</h3>
      {itemIds.length === 0 ? <p className="dash-muted">{t('paymentsCustomer.noItemsOfType')}</p> : null}
      <ul className="dash-list" aria-label={t('paymentsCustomer.itemsLabel')}>
        {itemIds.map((itemId) => (
          <CustomerItem key={itemId} customerType={customerType} customerId={customerId} itemId={itemId} onChanged={forgetCustomer} />
        ))}
      </ul>
      <h3>{t('payments.products')}</h3>
      {products.isPending ? <p role="status">{t('common.loading')}</p> : null}
      <ErrorMessage error={products.error} />
      {products.data ? (
        <ul className="dash-list" aria-label={t('paymentsCustomer.productsLabel')}>
          {products.data.items.length === 0 ? <li className="dash-muted">{t('paymentsCustomer.noProducts')}</li> : null}
          {products.data.items.map((owned, index) => (
            <li key={owned.subscription?.subscription_id ?? `${owned.id}-${index}`}>
              <span>
                <strong>{owned.product.display_name}</strong> {owned.id ? <code>{owned.id}</code> : null} × {owned.quantity}
                {owned.subscription === null ? <span className="dash-badge">{t('paymentsCustomer.includedBadge')}</span> : null}
              </span>
              {customerType !== 'custom' && owned.id && owned.subscription?.subscription_id && owned.switch_options?.length ? (
                <button
                  type="button"
                  onClick={() => {
                    setSwitched(null);
                    setSwitching({ ...owned, id: owned.id as string });
                  }}
                >
                  {t('paymentsCustomer.switchNamed', { name: owned.product.display_name })}
                </button>
              ) : null}
              {owned.id && owned.subscription?.subscription_id ? (
                <button
                  type="button"
                  className="gh-danger"
                  onClick={() =>
                    setCanceling({
                      productId: owned.id as string,
                      subscriptionId: owned.subscription?.subscription_id as string,
                      name: owned.product.display_name,
                    })
                  }
                >
                  {t('paymentsCustomer.cancelNamed', { name: owned.product.display_name })}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="dash-row dash-toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          grant.mutate({ customerType, customerId, data: { product_id: productId } }, { onSuccess: forgetCustomer });
        }}
      >
        <Field label={t('paymentsCustomer.productToGrant')}>
          {(id) => (
            <select id={id} value={productId} onChange={(event) => setProductId(event.target.value)}>
              <option value="">{t('paymentsCustomer.chooseProduct')}</option>
              {grantable.map(([id, product]) => (
                <option key={id} value={id}>
                  {product.displayName ?? id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="gh-primary" disabled={!productId || grant.isPending}>
          {grant.isPending ? t('paymentsCustomer.granting') : t('paymentsCustomer.grantProduct')}
        </button>
      </form>
      {grant.isSuccess ? <p className="dash-success">{t('paymentsCustomer.granted')}</p> : null}
      {switched ? (
        <p role="status" className="dash-success">
          {switched}
        </p>
      ) : null}
      <ErrorMessage error={grant.error} />
      {switching && customerType !== 'custom' ? (
        <SwitchProductDialog
          customerType={customerType}
          customerId={customerId}
          from={switching}
          payments={payments}
          onClose={() => setSwitching(null)}
          onSwitched={async (toName) => {
            setSwitching(null);
            setSwitched(t('paymentsCustomer.switched', { from: switching.product.display_name, to: toName }));
            grant.reset();
            await forgetCustomer();
          }}
        />
      ) : null}
      <CheckoutLink customerType={customerType} customerId={customerId} payments={payments} />
      <ConfirmDialog
        open={canceling !== null}
        title={t('paymentsCustomer.cancelTitle', { name: canceling?.name ?? '' })}
        confirmLabel={t('paymentsCustomer.cancelProduct')}
        busy={cancel.isPending}
        onClose={() => {
          cancel.reset();
          setCanceling(null);
        }}
        onConfirm={() =>
          canceling &&
          cancel.mutate(
            { customerType, customerId, productId: canceling.productId, params: { subscription_id: canceling.subscriptionId } },
            {
              onSuccess: async () => {
                setCanceling(null);
                grant.reset();
                await forgetCustomer();
              },
            },
          )
        }
      >
        <p>{t('paymentsCustomer.cancelExplained')}</p>
        <ErrorMessage error={cancel.error} />
      </ConfirmDialog>
      <CustomerBilling customerType={customerType} customerId={customerId} testMode={payments.testMode} />
    </div>
  );
}

/** One item's quantity, changed by a delta (never below zero: the server refuses and says so). */
function CustomerItem({
  customerType,
  customerId,
  itemId,
  onChanged,
}: {
  customerType: CustomerType;
  customerId: string;
  itemId: string;
  onChanged: () => Promise<void>;
}) {
  const { request } = useProjectScope();
  const item = api.useGetCustomerItem(customerType, customerId, itemId, { request });
  const change = api.useUpdateCustomerItemQuantity({ request });
  const [delta, setDelta] = useState('');
  const { t, formatNumber } = useDashboardTranslation();
  const name = item.data?.display_name ?? itemId;
  return (
    <li>
      <span>
        {name}{' '}
        {item.error ? (
          <span className="dash-error">{errorText(item.error)}</span>
        ) : (
          <output aria-label={t('paymentsCustomer.itemQuantity', { name })}>
            <strong>{item.data ? formatNumber(item.data.quantity) : '…'}</strong>
          </output>
        )}
        <br />
        <ErrorMessage error={change.error} />
      </span>
      <form
        className="dash-row"
        aria-label={t('paymentsCustomer.changeItem', { name })}
        onSubmit={(event) => {
          event.preventDefault();
          change.mutate(
            {
              customerType,
              customerId,
              itemId,
              params: { allow_negative: 'false' },
              data: { delta: Number(delta), description: 'Changed in the dashboard' },
            },
            {
              onSuccess: async () => {
                setDelta('');
                await onChanged();
              },
            },
          );
        }}
      >
        <Field label={t('paymentsCustomer.addTo', { name })}>
          {(id) => <input id={id} type="number" step={1} value={delta} onChange={(event) => setDelta(event.target.value)} />}
        </Field>
        <button type="submit" disabled={!/^-?\d+$/.test(delta.trim()) || Number(delta) === 0 || change.isPending}>
          {change.isPending ? t('paymentsCustomer.changing') : t('paymentsCustomer.changeQuantity')}
        </button>
      </form>
    </li>
  );
}
