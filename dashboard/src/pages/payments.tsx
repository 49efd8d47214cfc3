import { api, Link } from '@gatehouse/react';
import { useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, ErrorMessage, PageHeader, Section } from '../ui.tsx';
import { Items, ProductLines } from './payments-catalogue.tsx';
import { type CustomerType, type PaymentsConfig, paymentsOf, useSavePayments } from './payments-config.ts';
import { CustomerDetails } from './payments-customer.tsx';
import { CustomerTypeSelect, Field } from './payments-fields.tsx';
import { Products } from './payments-products.tsx';
import { StripeSection } from './payments-stripe.tsx';

/**
 * Payments: test mode and new purchases, the catalogue (items, product lines, products with prices
 * and included items; the server's rule messages shown at the field they name), a customer's items,
 * products (grant, cancel), billing details and invoices.
 */
export function PaymentsPage() {
  const { projectId, request } = useProjectScope();
  const config = api.useGetProjectConfigSuspense({ request, query: { queryKey: api.getGetProjectConfigQueryKey() } });
  const payments = paymentsOf(config.data);
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.payments')}>
        <Link href={paths.project(projectId, 'payment-transactions')}>{t('payments.transactions')}</Link>
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
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('payments.mode')} description={t('payments.modeDescription')}>
      <div className="dash-row">
        <Checkbox
          label={t('payments.testMode')}
          checked={payments.testMode}
          onChange={(on) => save({ 'payments.testMode': on }).catch(() => {})}
        />
        <Checkbox
          label={t('payments.blockNewPurchases')}
          checked={payments.blockNewPurchases}
          onChange={(on) => save({ 'payments.blockNewPurchases': on }).catch(() => {})}
        />
      </div>
      <ErrorMessage error={mutation.error} />
    </Section>
  );
}

/** One customer's items (every catalogue item of its type) and products, with a grant of a catalogue product. */
function Customer({ payments }: { payments: PaymentsConfig }) {
  const [form, setForm] = useState({ customerType: 'user' as CustomerType, customerId: '' });
  const [shown, setShown] = useState<{ customerType: CustomerType; customerId: string } | null>(null);
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('payments.customer')} description={t('payments.customerDescription')}>
      <form
        className="dash-row dash-toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          if (form.customerId.trim()) setShown({ customerType: form.customerType, customerId: form.customerId.trim() });
        }}
      >
        <CustomerTypeSelect
          label={t('payments.customerTypeOf')}
          value={form.customerType}
          onChange={(customerType) => setForm({ ...form, customerType: customerType as CustomerType })}
        />
        <Field label={t('payments.customerId')}>
          {(id) => <input id={id} value={form.customerId} onChange={(event) => setForm({ ...form, customerId: event.target.value })} />}
        </Field>
        <button type="submit" disabled={!form.customerId.trim()}>
          {t('payments.showCustomer')}
        </button>
      </form>
      {shown ? <CustomerDetails key={`${shown.customerType}/${shown.customerId}`} {...shown} payments={payments} /> : null}
    </Section>
  );
}
