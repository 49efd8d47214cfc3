import { OneTimePurchaseAlreadyRefundedError, SubscriptionAlreadyRefundedError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, Link } from '@gatehouse/react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PagedTable, useUrlPaging } from '../pager.tsx';
import { paths } from '../routes.ts';
import { around } from '../i18n/around.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';
import { customerTypeText, describe, statusText, typeChoices, typeText } from './payment-transactions-words.ts';

type Transaction = Schema<'Transaction'>;
type RefundType = 'one-time-purchase' | 'subscription';
type CatalogueProducts = Record<string, { prices?: Record<string, { interval?: unknown }> | string }>;

export const TRANSACTIONS_PAGE_SIZE = 10;
/**
 * The project's payment transactions (purchases, grants, item changes, refunds), newest first in
 * keyset pages, filtered by type and customer (filters and cursor in the URL); a purchase is refunded
 * behind a confirmation, where the server's catalogued refusals are shown.
 */
export function PaymentTransactionsPage() {
  const { projectId, request } = useProjectScope();
  const queryClient = useQueryClient();
  const paging = useUrlPaging();
  const filters = {
    type: paging.filter('type') as '' | Transaction['type'],
    customer_type: paging.filter('customer_type') as '' | Transaction['customer_type'],
    customer_id: paging.filter('customer_id'),
  };
  const params = {
    limit: String(TRANSACTIONS_PAGE_SIZE),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.customer_type ? { customer_type: filters.customer_type } : {}),
    ...(filters.customer_id ? { customer_id: filters.customer_id } : {}),
    ...(paging.cursor ? { cursor: paging.cursor } : {}),
  };
  const list = api.useListPaymentTransactions(params, {
    request,
    query: { queryKey: api.getListPaymentTransactionsQueryKey(params), placeholderData: keepPreviousData },
  });
  const [customerId, setCustomerId] = useState(filters.customer_id);
  const [refunding, setRefunding] = useState<Transaction | null>(null);
  const [refunded, setRefunded] = useState<string | null>(null);
  const translation = useDashboardTranslation();
  const { t, formatDate, formatMoney } = translation;

  return (
    <>
      <PageHeader title={t('payments.transactions')}>
        <Link href={paths.project(projectId, 'payments')}>{t('nav.payments')}</Link>
      </PageHeader>
      <Section title={t('transactions.all')} description={t('transactions.description')}>
        <PagedTable
          label={t('payments.transactions')}
          pagerLabel={t('transactions.pages')}
          paging={paging}
          rows={list.data?.transactions}
          nextCursor={list.data?.next_cursor}
          fetching={list.isFetching}
          placeholder={list.isPlaceholderData}
          error={list.error}
          emptyText={t('transactions.none')}
          rowKey={(transaction) => `${transaction.type}-${transaction.id}`}
          filters={
            <>
              <div className="dash-field">
                <label htmlFor="transactions-type">{t('transactions.type')}</label>
                <select id="transactions-type" value={filters.type} onChange={(event) => paging.setFilter('type', event.target.value)}>
                  <option value="">{t('transactions.anyType')}</option>
                  {typeChoices(t).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="dash-field">
                <label htmlFor="transactions-customer-type">{t('payments.customerType')}</label>
                <select
                  id="transactions-customer-type"
                  value={filters.customer_type}
                  onChange={(event) => paging.setFilter('customer_type', event.target.value)}
                >
                  <option value="">{t('transactions.anyCustomer')}</option>
                  <option value="user">{t('payments.customerTypeUser')}</option>
                  <option value="team">{t('payments.customerTypeTeam')}</option>
                  <option value="custom">{t('payments.customerTypeCustom')}</option>
                </select>
              </div>
              <form
                aria-label={t('transactions.filterByCustomer')}
                className="dash-row"
                onSubmit={(event) => {
                  event.preventDefault();
                  paging.setFilter('customer_id', customerId.trim());
                }}
              >
                <TextField
                  label={t('payments.customerId')}
                  name="customer_id"
                  value={customerId}
                  onChange={(event) => setCustomerId(event.target.value)}
                />
                <button type="submit">{t('transactions.filter')}</button>
              </form>
            </>
          }
          notice={
            refunded ? (
              <p role="status" className="dash-success">
                {refunded}
              </p>
            ) : null
          }
          columns={[
            { header: t('transactions.when'), cell: (transaction) => formatDate(transaction.created_at_millis) },
            { header: t('transactions.type'), cell: (transaction) => typeText(transaction.type, t) },
            { header: t('transactions.customer'), cell: (transaction) => <CustomerCell transaction={transaction} /> },
            { header: t('transactions.what'), cell: (transaction) => describe(transaction, translation) },
            {
              header: t('payments.amount'),
              cell: (transaction) => (transaction.amount === null ? '—' : formatMoney(transaction.amount, transaction.currency ?? 'USD')),
            },
            {
              header: t('transactions.status'),
              cell: (transaction) => (
                <>
                  {transaction.status ? <span className="dash-badge">{statusText(transaction.status, t)}</span> : null}
                  {transaction.test_mode ? <span className="dash-badge">{t('transactions.testMode')}</span> : null}
                </>
              ),
            },
            {
              header: <span className="dash-visually-hidden">{t('transactions.actions')}</span>,
              cell: (transaction) =>
                transaction.type === 'purchase' && transaction.status !== 'refunded' ? (
                  <button
                    type="button"
                    aria-label={
                      transaction.product_display_name
                        ? t('transactions.refundOf', { product: transaction.product_display_name, customer: transaction.customer_id })
                        : t('transactions.refundPurchaseOf', { customer: transaction.customer_id })
                    }
                    onClick={() => {
                      setRefunded(null);
                      setRefunding(transaction);
                    }}
                  >
                    {t('transactions.refund')}
                  </button>
                ) : null,
            },
          ]}
        />
      </Section>
      {refunding ? (
        <RefundDialog
          key={refunding.id}
          purchase={refunding}
          onClose={() => setRefunding(null)}
          onRefunded={async () => {
            setRefunded(
              refunding.product_display_name
                ? t('transactions.refunded', { product: refunding.product_display_name })
                : t('transactions.refundedPurchase'),
            );
            setRefunding(null);
            await queryClient.invalidateQueries({ queryKey: [api.getListPaymentTransactionsQueryKey()[0]] });
          }}
        />
      ) : null}
    </>
  );
}

function CustomerCell({ transaction }: { transaction: Transaction }) {
  const { projectId } = useProjectScope();
  const { t } = useDashboardTranslation();
  const { customer_type: type, customer_id: id } = transaction;
  // The id inside <code> (an id, not a word), the type's word around it in the language's order.
  const [before, after] = around((mark) =>
    type === 'user'
      ? t('transactions.userCustomer', { id: mark })
      : type === 'team'
        ? t('transactions.teamCustomer', { id: mark })
        : t('transactions.customCustomer', { id: mark }),
  );
  const label = (
    <>
      {before}
      <code>{id}</code>
      {after}
    </>
  );
  if (type === 'user') return <Link href={paths.project(projectId, 'users', id)}>{label}</Link>;
  if (type === 'team') return <Link href={paths.project(projectId, 'teams', id)}>{label}</Link>;
  return <span>{label}</span>;
}

/** A purchase at a price with an interval is refunded as a subscription (from the catalogue as it is now; the owner can change it). */
function refundTypeOf(products: CatalogueProducts | undefined, purchase: Transaction): RefundType {
  const prices = purchase.product_id ? products?.[purchase.product_id]?.prices : undefined;
  const price = typeof prices === 'object' && purchase.price_id ? prices[purchase.price_id] : undefined;
  return price?.interval ? 'subscription' : 'one-time-purchase';
}

function RefundDialog({ purchase, onClose, onRefunded }: { purchase: Transaction; onClose: () => void; onRefunded: () => Promise<void> }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const config = api.useGetProjectConfig({ request, query: { queryKey: api.getGetProjectConfigQueryKey() } });
  const products = config.data
    ? (JSON.parse(config.data.config_string) as { payments?: { products?: CatalogueProducts } }).payments?.products
    : undefined;
  const [type, setType] = useState<RefundType | null>(null);
  // A test-mode purchase took no money: its refund returns none (any other amount is refused).
  const [amount, setAmount] = useState(purchase.test_mode ? '0' : (purchase.amount ?? ''));
  const refund = api.useCreatePaymentRefund({
    request,
    mutation: {
      onSuccess: onRefunded,
      onError: async (error) => {
        if (error instanceof OneTimePurchaseAlreadyRefundedError || error instanceof SubscriptionAlreadyRefundedError)
          await queryClient.invalidateQueries({ queryKey: [api.getListPaymentTransactionsQueryKey()[0]] });
      },
    },
  });
  const chosenType = type ?? refundTypeOf(products, purchase);
  const { t, formatDate, formatMoney } = useDashboardTranslation();
  const [before, after] = around((mark) =>
    t('transactions.refundExplained', {
      product: purchase.product_display_name ?? t('transactions.aProduct'),
      customerType: customerTypeText(purchase.customer_type, t),
      customerId: mark,
      date: formatDate(purchase.created_at_millis),
      amount: formatMoney(purchase.amount ?? '0', purchase.currency ?? 'USD'),
    }),
  );
  return (
    <ConfirmDialog
      open
      title={t('transactions.refundTitle')}
      confirmLabel={t('transactions.refund')}
      busy={refund.isPending}
      canConfirm={amount.trim() !== ''}
      onClose={onClose}
      onConfirm={() => refund.mutate({ data: { type: chosenType, id: purchase.id, amount_usd: amount.trim() } })}
    >
      <p>
        {before}
        <code>{purchase.customer_id}</code>
        {after}
      </p>
      {purchase.test_mode ? <p className="dash-muted">{t('transactions.testModeRefund')}</p> : null}
      <fieldset className="dash-fieldset">
        <legend>{t('transactions.purchaseType')}</legend>
        {(
          [
            ['one-time-purchase', t('transactions.oneTimePurchase')],
            ['subscription', t('transactions.subscription')],
          ] as const
        ).map(([value, label]) => (
          <div className="dash-check" key={value}>
            <input
              id={`refund-type-${value}`}
              type="radio"
              name="refund-type"
              checked={chosenType === value}
              onChange={() => setType(value)}
            />
            <label htmlFor={`refund-type-${value}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      <TextField
        label={t('transactions.amountToReturn')}
        name="amount_usd"
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <ErrorMessage error={refund.error} />
    </ConfirmDialog>
  );
}
