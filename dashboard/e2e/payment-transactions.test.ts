import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium, withStripeStandIn } from './dashboard-platform.ts';

/**
 * Payments' transactions and Stripe setup in a real Chromium against the platform on real Postgres,
 * with the real `stripe` SDK against a local stand-in of Stripe's API: eleven transactions paged ten
 * at a time and filtered by type; a test-mode purchase refunded behind a confirmation (an amount is
 * refused with TEST_MODE_PURCHASE_NON_REFUNDABLE first; the credits it granted stop counting); a
 * refund that lost a race shows ONE_TIME_PURCHASE_ALREADY_REFUNDED; the project's Stripe account
 * "not connected", then set up (onboarding link), then its status as Stripe reports it; axe.
 */
const { standIn, payments } = withStripeStandIn();
const env = withDashboardInChromium({ payments });

const catalogue = {
  'payments.testMode': true,
  'payments.items': { credits: { displayName: 'Credits', customerType: 'user' } },
  'payments.products': {
    pack: {
      displayName: 'Credit pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 10, expires: 'never' } },
    },
  },
};

describe('the dashboard in Chromium: payment transactions and Stripe', () => {
  it('pages and filters transactions, refunds a test-mode purchase, and connects Stripe', { timeout: 240_000 }, async () => {
    const shot = screenshots('dashboard-payment-transactions');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Till Co', { newTeam: 'Till team' });
    const { context } = env.platform;
    const headers = await env.platform.apiHeadersFor(projectId);
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, as: 'server' | 'admin' | 'none' = 'server') => {
      const response = await context.request({
        method,
        url: `/api/v1${url}`,
        headers: as === 'none' ? { 'content-type': 'application/json' } : headers[as],
        ...(payload ? { payload } : {}),
      });
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    await call('PATCH', '/internal/config/override/project', { config_override_string: JSON.stringify(catalogue) }, 'admin');
    const project = (await context.services.projects.find(projectId))!;
    const buyer = await context.services.users.create(project, { display_name: 'Buyer' }, 'server');
    const credits = async () => (await call('GET', `/payments/items/user/${buyer.id}/credits`)).quantity as number;
    /** A test-mode purchase through the checkout endpoints; answers the purchase's transaction id. */
    const buyPack = async () => {
      const created = await call('POST', '/payments/purchases/create-purchase-url', {
        customer_type: 'user',
        customer_id: buyer.id,
        product_id: 'pack',
      });
      const code = new URL(created.url).searchParams.get('code') as string;
      await call('POST', '/internal/payments/test-mode-purchase-session', { full_code: code, price_id: 'once' }, 'none');
      return (await call('GET', `/internal/payments/transactions?type=purchase&customer_id=${buyer.id}&limit=1`, undefined, 'admin'))
        .transactions[0].id as string;
    };
    const purchaseId = await buyPack();
    for (let index = 1; index <= 10; index++) {
      await call('POST', `/payments/items/user/${buyer.id}/credits/update-quantity?allow_negative=false`, {
        delta: 1,
        description: `bonus ${index}`,
      });
    }
    expect(await credits()).toBe(20);

    // Eleven transactions, ten a page; the purchases alone.
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('link', { name: 'Transactions', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/payment-transactions`);
    const table = page.getByRole('table', { name: 'Transactions' });
    const pager = page.getByRole('navigation', { name: 'Pages of transactions' });
    await expect.poll(() => table.getByRole('row').count()).toBe(11);
    await expect.poll(() => table.getByRole('row').nth(1).textContent()).toContain('+1 credits (bonus 10)');
    await expectAccessible(page, 'the transactions page');
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await expect.poll(() => table.getByRole('row').nth(1).textContent()).toContain('Credit pack, once × 1');
    await pager.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(11);
    await page.getByLabel('Type', { exact: true }).selectOption('purchase');
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('purchase');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByLabel('Customer id', { exact: true }).fill(buyer.id);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('customer_id')).toBe(buyer.id);
    await expect.poll(() => table.getByRole('row').nth(1).textContent()).toMatch(/\$5\.00.*active.*test mode/);
    await shot(page, 'purchases');

    // Refund it: an amount is refused (test mode took no money), then 0 refunds it and its credits stop counting.
    await table.getByRole('button', { name: `Refund Credit pack of ${buyer.id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund a purchase' });
    await expect.poll(() => dialog.getByRole('radio', { name: 'One-time purchase' }).isChecked()).toBe(true);
    expect(await dialog.getByLabel('Amount to return (USD)').inputValue()).toBe('0');
    await expectAccessible(page, 'the refund confirmation');
    await dialog.getByLabel('Amount to return (USD)').fill('5');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Purchases made in test mode cannot be refunded.');
    await shot(page, 'refund-refused');
    expect(await credits()).toBe(20);
    await dialog.getByLabel('Amount to return (USD)').fill('0');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => page.getByText('Refunded Credit pack.').isVisible()).toBe(true);
    await expect.poll(() => table.getByRole('row').nth(1).textContent()).toContain('refunded');
    expect(await table.getByRole('button', { name: /^Refund / }).count()).toBe(0);
    expect(await credits()).toBe(10);
    await page.getByLabel('Type', { exact: true }).selectOption('refund');
    await expect.poll(() => table.getByRole('row').nth(1).textContent()).toMatch(/Refund of Credit pack.*\$0\.00/);
    await page.getByLabel('Type', { exact: true }).selectOption('purchase');

    // A second purchase, refunded by the backend while the owner confirms: the lost race is shown.
    const secondId = await buyPack();
    expect(secondId).not.toBe(purchaseId);
    await page.reload();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await table.getByRole('button', { name: `Refund Credit pack of ${buyer.id}` }).click();
    await call('POST', '/internal/payments/transactions/refund', { type: 'one-time-purchase', id: secondId, amount_usd: '0' }, 'admin');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('One-time purchase already refunded (legacy guard).');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => table.getByRole('button', { name: /^Refund / }).count()).toBe(0);

    // Stripe: not connected, set up (an onboarding link on Stripe), then the account as Stripe reports it.
    await page.getByRole('link', { name: 'Payments', exact: true }).first().click();
    await expect.poll(() => page.getByText('Not connected: no Stripe account is connected to this project yet.').isVisible()).toBe(true);
    await shot(page, 'stripe-not-connected');
    await page.getByRole('button', { name: 'Set up Stripe' }).click();
    const link = page.getByRole('link', { name: 'continue on Stripe' });
    await expect.poll(() => link.getAttribute('href')).toMatch(new RegExp(`^${standIn.url}/setup/acct_`));
    const accountId = [...standIn.accounts.keys()][0] as string;
    await expect.poll(() => page.getByText(accountId, { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Continue onboarding' }).isVisible()).toBe(true);
    const account = standIn.accounts.get(accountId)!;
    Object.assign(account, { details_submitted: true, charges_enabled: true, payouts_enabled: true });
    await page.getByRole('button', { name: 'Refresh status' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Continue onboarding' }).count()).toBe(0);
    await expect
      .poll(async () => (await page.getByRole('definition').allTextContents()).slice(0, 4))
      .toEqual([accountId, 'yes', 'yes', 'yes']);
    await shot(page, 'stripe-connected');
    await expectAccessible(page, 'the payments page with Stripe connected');
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await page.getByRole('link', { name: 'Transactions', exact: true }).click();
    await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(1);
    await shot(page, 'transactions-dark');
    await expectAccessible(page, 'the transactions page in the dark theme');
    await page.close();
  });
});
