import { StripeAccountInfoNotFoundError } from '@gatehouse/protocol/errors';
import { api, type CustomerInvoice, type PaymentMethodSummary } from '@gatehouse/react';
import { keepPreviousData } from '@tanstack/react-query';
import { PagedTable, useStatePaging } from '../pager.tsx';
import { useProjectScope } from '../shell-context.ts';
import { formatDate, QueryState } from '../ui.tsx';
import type { CustomerType } from './payments-config.ts';

export const INVOICES_PAGE_SIZE = 10;

/**
 * A customer's billing on the payments page: what Stripe knows of it (its default payment method, which
 * switches charge) and its invoices in keyset pages, each with its amount, status and Stripe's hosted page.
 * Where there can be no Stripe customer (test mode, no connected account, a customer that never paid) that
 * is said in a plain note, not as an error.
 */
export function CustomerBilling({
  customerType,
  customerId,
  testMode,
}: {
  customerType: CustomerType;
  customerId: string;
  testMode: boolean;
}) {
  const { request } = useProjectScope();
  const billing = api.useGetCustomerBilling(customerType, customerId, { request });
  const account = api.useGetStripeAccountInfo({ request, query: { queryKey: api.getGetStripeAccountInfoQueryKey() } });
  const noAccount = account.error instanceof StripeAccountInfoNotFoundError;
  return (
    <section className="dash-stack" aria-label="Billing">
      <h3>Billing</h3>
      <QueryState query={billing} what="billing details">
        {billing.data ? (
          <>
            <BillingNote hasCustomer={billing.data.has_customer} testMode={testMode} noAccount={noAccount} />
            {billing.data.has_customer ? (
              <dl className="dash-facts">
                <div>
                  <dt>Default payment method</dt>
                  <dd>{billing.data.default_payment_method ? describeMethod(billing.data.default_payment_method) : 'None saved'}</dd>
                </div>
              </dl>
            ) : null}
          </>
        ) : null}
      </QueryState>
      <Invoices customerType={customerType} customerId={customerId} />
    </section>
  );
}

/** Why there is nothing from Stripe, most telling reason first; nothing when there is a Stripe customer outside test mode. */
function BillingNote({ hasCustomer, testMode, noAccount }: { hasCustomer: boolean; testMode: boolean; noAccount: boolean }) {
  const note = testMode
    ? 'Test mode: purchases go through the test checkout, so no card is saved or charged and Stripe issues no invoices.'
    : noAccount
      ? 'Stripe is not set up for this project: customers have no payment methods or invoices until a Stripe account is connected.'
      : hasCustomer
        ? null
        : 'No Stripe customer yet: this customer has not paid or saved a payment method.';
  return note ? <p className="dash-muted">{note}</p> : null;
}

/** "Visa •••• 4242, expires 12/2034"; a method that is not a card by its id. */
export function describeMethod(method: PaymentMethodSummary): string {
  if (!method.last4) return `Payment method ${method.id}`;
  const brand = method.brand ? method.brand.charAt(0).toUpperCase() + method.brand.slice(1) : 'Card';
  const expiry = method.exp_month && method.exp_year ? `, expires ${String(method.exp_month).padStart(2, '0')}/${method.exp_year}` : '';
  return `${brand} •••• ${method.last4}${expiry}`;
}

function Invoices({ customerType, customerId }: { customerType: CustomerType; customerId: string }) {
  const { request } = useProjectScope();
  const paging = useStatePaging();
  const params = { limit: String(INVOICES_PAGE_SIZE), ...(paging.cursor ? { cursor: paging.cursor } : {}) };
  const invoices = api.useListCustomerInvoices(customerType, customerId, params, {
    request,
    query: { queryKey: api.getListCustomerInvoicesQueryKey(customerType, customerId, params), placeholderData: keepPreviousData },
  });
  return (
    <>
      <h4>Invoices</h4>
      <PagedTable<CustomerInvoice & { position: number }>
        label="Invoices"
        pagerLabel="Pages of invoices"
        paging={paging}
        rows={invoices.data?.items.map((invoice, position) => ({ ...invoice, position }))}
        nextCursor={invoices.data?.pagination.next_cursor}
        fetching={invoices.isFetching}
        placeholder={invoices.isPlaceholderData}
        error={invoices.error}
        emptyText="No invoices."
        rowKey={(invoice) => String(invoice.position)}
        columns={[
          { header: 'Date', cell: (invoice) => formatDate(invoice.created_at_millis) },
          { header: 'Status', cell: (invoice) => invoice.status ?? '—' },
          { header: 'Amount (minor units)', cell: (invoice) => invoice.amount_total, className: 'dash-number' },
          {
            header: 'Invoice',
            cell: (invoice) =>
              invoice.hosted_invoice_url ? (
                <a
                  href={invoice.hosted_invoice_url}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={`Invoice of ${formatDate(invoice.created_at_millis)} on Stripe`}
                >
                  Invoice
                </a>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </>
  );
}
