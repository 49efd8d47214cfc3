import { StripeAccountInfoNotFoundError } from '@gatehouse/protocol/errors';
import { api, type CustomerInvoice, type PaymentMethodSummary } from '@gatehouse/react';
import { keepPreviousData } from '@tanstack/react-query';
import { PagedTable, useStatePaging } from '../pager.tsx';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { QueryState } from '../ui.tsx';
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
  const { t } = useDashboardTranslation();
  return (
    <section className="dash-stack" aria-label={t('payments.billing')}>
      <h3>{t('payments.billing')}</h3>
      <QueryState query={billing} what={t('billing.details')}>
        {billing.data ? (
          <>
            <BillingNote hasCustomer={billing.data.has_customer} testMode={testMode} noAccount={noAccount} />
            {billing.data.has_customer ? (
              <dl className="dash-facts">
                <div>
                  <dt>{t('billing.defaultMethod')}</dt>
                  <dd>
                    {billing.data.default_payment_method ? describeMethod(billing.data.default_payment_method, t) : t('billing.noneSaved')}
                  </dd>
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
  const { t } = useDashboardTranslation();
  const note = testMode
    ? t('billing.testModeNote')
    : noAccount
      ? t('billing.noAccountNote')
      : hasCustomer
        ? null
        : t('billing.noCustomerNote');
  return note ? <p className="dash-muted">{note}</p> : null;
}

/** "Visa •••• 4242, expires 12/2034" (in the active language); a method that is not a card by its id. */
export function describeMethod(method: PaymentMethodSummary, t: Translate): string {
  if (!method.last4) return t('billing.methodById', { id: method.id });
  // The brand is Stripe's name of the card network (a name, not a word), capitalised.
  const brand = method.brand ? method.brand.charAt(0).toUpperCase() + method.brand.slice(1) : t('billing.card');
  if (!method.exp_month || !method.exp_year) return `${brand} •••• ${method.last4}`;
  return t('billing.cardEndingExpires', {
    brand,
    last4: method.last4,
    month: String(method.exp_month).padStart(2, '0'),
    year: String(method.exp_year),
  });
}

/** Stripe's invoice statuses in the active language (an unknown one as Stripe words it). */
function invoiceStatusText(status: string | null, t: Translate): string {
  if (status === 'draft') return t('billing.statusDraft');
  if (status === 'open') return t('billing.statusOpen');
  if (status === 'paid') return t('billing.statusPaid');
  if (status === 'uncollectible') return t('billing.statusUncollectible');
  if (status === 'void') return t('billing.statusVoid');
  return status ?? '—';
}

function Invoices({ customerType, customerId }: { customerType: CustomerType; customerId: string }) {
  const { request } = useProjectScope();
  const paging = useStatePaging();
  const { t, formatDate, formatNumber } = useDashboardTranslation();
  const params = { limit: String(INVOICES_PAGE_SIZE), ...(paging.cursor ? { cursor: paging.cursor } : {}) };
  const invoices = api.useListCustomerInvoices(customerType, customerId, params, {
    request,
    query: { queryKey: api.getListCustomerInvoicesQueryKey(customerType, customerId, params), placeholderData: keepPreviousData },
  });
  return (
    <>
      <h4>{t('billing.invoices')}</h4>
      <PagedTable<CustomerInvoice & { position: number }>
        label={t('billing.invoices')}
        pagerLabel={t('billing.invoicePages')}
        paging={paging}
        rows={invoices.data?.items.map((invoice, position) => ({ ...invoice, position }))}
        nextCursor={invoices.data?.pagination.next_cursor}
        fetching={invoices.isFetching}
        placeholder={invoices.isPlaceholderData}
        error={invoices.error}
        emptyText={t('billing.noInvoices')}
        rowKey={(invoice) => String(invoice.position)}
        columns={[
          { header: t('billing.date'), cell: (invoice) => formatDate(invoice.created_at_millis) },
          { header: t('billing.status'), cell: (invoice) => invoiceStatusText(invoice.status, t) },
          { header: t('billing.amountMinor'), cell: (invoice) => formatNumber(invoice.amount_total), className: 'dash-number' },
          {
            header: t('billing.invoice'),
            cell: (invoice) =>
              invoice.hosted_invoice_url ? (
                <a
                  href={invoice.hosted_invoice_url}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={t('billing.invoiceOn', { date: formatDate(invoice.created_at_millis) })}
                >
                  {t('billing.invoice')}
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
