import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import {
  createProject,
  expectAccessible,
  saveDefaultCard,
  showPaymentsCustomer,
  signUpOwner,
  withDashboardInChromium,
  withStripeStandIn,
} from './dashboard-platform.ts';

/**
 * A customer's billing and invoices on the Payments page in a real Chromium against the platform on real
 * Postgres and the real `stripe` SDK against a local stand-in of Stripe: a failed billing read is said in the
 * panel and asked again with Try again; in test mode, then with no Stripe
 * account, then with one but no Stripe customer, the billing panel says so in a plain note (no alert) and
 * lists no invoices; once the customer saved a card and Stripe issued 12 invoices, the default payment method
 * shows and the invoices come newest first in pages of 10 (amount, status, Stripe's hosted page), Next and
 * Previous walking them; axe light and dark at 1024 px.
 */
const { standIn, payments } = withStripeStandIn();
const env = withDashboardInChromium({ payments });

describe('the dashboard in Chromium: a customer’s billing and invoices', () => {
  it('notes why there is no billing yet, then shows the default card and pages the invoices', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-customer-billing');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Billing Co', { newTeam: 'Billing team' });
    const { services } = env.platform.context;
    const user = await services.users.create((await services.projects.find(projectId))!, { display_name: 'Payer' }, 'server');

    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    // The billing read failing: said in the panel with a way to ask again (the rest of the customer still shows).
    await page.route('**/api/v1/payments/billing/**', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'Billing is unavailable for a moment.' }),
    );
    await showPaymentsCustomer(page, user.id);
    const billing = page.getByRole('region', { name: 'Billing', exact: true });
    await expect.poll(() => billing.getByRole('alert').textContent()).toMatch(/^Could not load billing details: .*Try again$/);
    await expect.poll(() => page.getByRole('list', { name: 'Customer products' }).textContent()).toBe('No products.');
    await page.unroute('**/api/v1/payments/billing/**');
    await billing.getByRole('button', { name: 'Try again' }).click();
    const note = billing.locator('p.dash-muted').first();

    // Test mode (a new project's default): a note, no invoices, nothing alarming.
    await expect
      .poll(() => note.textContent())
      .toBe('Test mode: purchases go through the test checkout, so no card is saved or charged and Stripe issues no invoices.');
    await expect.poll(() => billing.getByText('No invoices.', { exact: true }).isVisible()).toBe(true);
    expect(await billing.getByRole('alert').count()).toBe(0);

    // Test mode off, no Stripe account connected: the same calm note says so.
    await page.getByRole('checkbox', { name: 'Test mode' }).click();
    await expect
      .poll(() => note.textContent())
      .toBe('Stripe is not set up for this project: customers have no payment methods or invoices until a Stripe account is connected.');
    expect(await billing.getByRole('alert').count()).toBe(0);
    await shot(page, 'stripe-not-set-up');
    await expectAccessible(page, 'the payments page with a customer and no Stripe');

    // Connected, but the customer never paid: no Stripe customer yet.
    await page.getByRole('button', { name: 'Set up Stripe' }).click();
    await expect.poll(() => note.textContent()).toBe('No Stripe customer yet: this customer has not paid or saved a payment method.');
    const accountId = [...standIn.accounts.keys()][0]!;

    // A saved card and 12 invoices on Stripe: the card, and the newest 10 invoices first.
    const { stripeCustomerId } = await saveDefaultCard(env.platform, standIn, projectId, { type: 'user', id: user.id });
    const start = Math.floor(Date.UTC(2026, 0, 1) / 1000);
    const urls: string[] = [];
    for (let index = 0; index < 12; index++) {
      const invoiceId = standIn.addInvoice(accountId, stripeCustomerId, {
        total: 1000 + index,
        status: index === 11 ? 'open' : 'paid',
        created: start + index * 86_400,
      });
      urls.push(standIn.objects.get(invoiceId)!.hosted_invoice_url as string);
    }
    await page.reload();
    await showPaymentsCustomer(page, user.id);
    await expect.poll(() => billing.getByRole('definition').textContent()).toBe('Visa •••• 4242, expires 12/2034');
    expect(await billing.locator('p.dash-muted').count()).toBe(0);
    const table = billing.getByRole('table', { name: 'Invoices' });
    const rows = table.getByRole('row');
    // Dates and amounts through Intl in the page's language (English here), as the browser writes them.
    const rowText = async (index: number) => (await rows.nth(index).textContent())?.replace(/\s/g, ' ');
    const day = (date: number) => invoiceDate(Date.UTC(2026, 0, date));
    await expect.poll(() => rows.count()).toBe(11); // the header and 10 invoices
    expect(await rowText(1)).toBe(`${day(12)}open1,011Invoice`);
    expect(await rowText(10)).toBe(`${day(3)}paid1,002Invoice`);
    const newest = table.getByRole('link', { name: `Invoice of ${day(12)} on Stripe` });
    expect(await newest.getAttribute('href')).toBe(urls[11]);
    expect(await newest.getAttribute('target')).toBe('_blank');
    await shot(page, 'invoices');
    await expectAccessible(page, 'the payments page with a customer’s invoices');

    const pager = billing.getByRole('navigation', { name: 'Pages of invoices' });
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rowText(1)).toBe(`${day(2)}paid1,001Invoice`);
    expect(await rowText(2)).toBe(`${day(1)}paid1,000Invoice`);
    expect(await pager.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'invoices-page-2-dark');
    await expectAccessible(page, 'the second page of invoices, dark');
    await pager.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => rows.count()).toBe(11);
    expect(await rowText(1)).toBe(`${day(12)}open1,011Invoice`);
    expect(await pager.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
  });
});

/** An invoice's date as the dashboard writes it in English (Intl, in this machine's time zone as the browser's), spaces plain. */
function invoiceDate(millis: number): string {
  return new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(millis)).replace(/\s/g, ' ');
}
