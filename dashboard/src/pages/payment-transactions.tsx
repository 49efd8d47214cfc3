import { OneTimePurchaseAlreadyRefundedError, SubscriptionAlreadyRefundedError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, Link } from '@gatehouse/react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PagedTable, useUrlPaging } from '../pager.tsx';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, formatDate, PageHeader, Section, TextField } from '../ui.tsx';

type Transaction = Schema<'Transaction'>;
type RefundType = 'one-time-purchase' | 'subscription';
type CatalogueProducts = Record<string, { prices?: Record<string, { interval?: unknown }> | string }>;

export const TRANSACTIONS_PAGE_SIZE = 10;
const types: Array<[Transaction['type'], string]> = [
  ['purchase', 'Purchases'],
  ['product-grant', 'Grants'],
  ['manual-item-quantity-change', 'Item changes'],
  ['refund', 'Refunds'],
];

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

  return (
    <>
      <PageHeader title="Transactions">
        <Link href={paths.project(projectId, 'payments')}>Payments</Link>
      </PageHeader>
      <Section
        title="All transactions"
        description="Purchases (test mode and Stripe), products granted by your server, item quantity changes and refunds, newest first."
      >
        <PagedTable
          label="Transactions"
          pagerLabel="Pages of transactions"
          paging={paging}
          rows={list.data?.transactions}
          nextCursor={list.data?.next_cursor}
          fetching={list.isFetching}
          placeholder={list.isPlaceholderData}
          error={list.error}
          emptyText="No transactions."
          rowKey={(transaction) => `${transaction.type}-${transaction.id}`}
          filters={
            <>
              <div className="dash-field">
                <label htmlFor="transactions-type">Type</label>
                <select id="transactions-type" value={filters.type} onChange={(event) => paging.setFilter('type', event.target.value)}>
                  <option value="">Any type</option>
                  {types.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="dash-field">
                <label htmlFor="transactions-customer-type">Customer type</label>
                <select
                  id="transactions-customer-type"
                  value={filters.customer_type}
                  onChange={(event) => paging.setFilter('customer_type', event.target.value)}
                >
                  <option value="">Any customer</option>
                  <option value="user">user</option>
                  <option value="team">team</option>
                  <option value="custom">custom</option>
                </select>
              </div>
              <form
                aria-label="Filter by customer"
                className="dash-row"
                onSubmit={(event) => {
                  event.preventDefault();
                  paging.setFilter('customer_id', customerId.trim());
                }}
              >
                <TextField
                  label="Customer id"
                  name="customer_id"
                  value={customerId}
                  onChange={(event) => setCustomerId(event.target.value)}
                />
                <button type="submit">Filter</button>
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
            { header: 'When', cell: (transaction) => formatDate(transaction.created_at_millis) },
            { header: 'Type', cell: (transaction) => transaction.type },
            { header: 'Customer', cell: (transaction) => <CustomerCell transaction={transaction} /> },
            { header: 'What', cell: describe },
            {
              header: 'Amount',
              cell: (transaction) => (transaction.amount === null ? '—' : `${transaction.amount} ${transaction.currency ?? ''}`),
            },
            {
              header: 'Status',
              cell: (transaction) => (
                <>
                  {transaction.status ? <span className="dash-badge">{transaction.status}</span> : null}
                  {transaction.test_mode ? <span className="dash-badge">test mode</span> : null}
                </>
              ),
            },
            {
              header: <span className="dash-visually-hidden">Actions</span>,
              cell: (transaction) =>
                transaction.type === 'purchase' && transaction.status !== 'refunded' ? (
                  <button
                    type="button"
                    aria-label={`Refund ${transaction.product_display_name ?? 'purchase'} of ${transaction.customer_id}`}
                    onClick={() => {
                      setRefunded(null);
                      setRefunding(transaction);
                    }}
                  >
                    Refund
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
            setRefunded(`Refunded ${refunding.product_display_name ?? 'the purchase'}.`);
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
  const { customer_type: type, customer_id: id } = transaction;
  if (type === 'user') return <Link href={paths.project(projectId, 'users', id)}>user {id}</Link>;
  if (type === 'team') return <Link href={paths.project(projectId, 'teams', id)}>team {id}</Link>;
  return <span>custom {id}</span>;
}

function describe(transaction: Transaction): string {
  switch (transaction.type) {
    case 'manual-item-quantity-change':
      return `${(transaction.delta ?? 0) > 0 ? '+' : ''}${transaction.delta ?? 0} ${transaction.item_id ?? ''}${transaction.description ? ` (${transaction.description})` : ''}`;
    case 'refund':
      return `Refund of ${transaction.product_display_name ?? 'a purchase'}`;
    default:
      return `${transaction.product_display_name ?? transaction.product_id ?? 'A product'}${transaction.price_id ? `, ${transaction.price_id}` : ''} × ${transaction.quantity ?? 1}`;
  }
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
  return (
    <ConfirmDialog
      open
      title="Refund a purchase"
      confirmLabel="Refund"
      busy={refund.isPending}
      canConfirm={amount.trim() !== ''}
      onClose={onClose}
      onConfirm={() => refund.mutate({ data: { type: chosenType, id: purchase.id, amount_usd: amount.trim() } })}
    >
      <p>
        {purchase.product_display_name ?? 'A product'} bought by {purchase.customer_type} <code>{purchase.customer_id}</code> on{' '}
        {formatDate(purchase.created_at_millis)} for {purchase.amount ?? '0'} {purchase.currency ?? ''}. What it granted stops counting now.
      </p>
      {purchase.test_mode ? <p className="dash-muted">A test-mode purchase took no money, so its refund returns 0.</p> : null}
      <fieldset className="dash-fieldset">
        <legend>Purchase type</legend>
        {(
          [
            ['one-time-purchase', 'One-time purchase'],
            ['subscription', 'Subscription'],
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
        label="Amount to return (USD)"
        name="amount_usd"
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <ErrorMessage error={refund.error} />
    </ConfirmDialog>
  );
}
