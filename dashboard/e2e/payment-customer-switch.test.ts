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
 * A customer's checkout link and product switch on the Payments page in a real Chromium against the platform on
 * real Postgres and the real `stripe` SDK against a local stand-in of Stripe (Stripe mode, a connected account):
 * a checkout link for a product is created, copied and serves the checkout page; an untrusted return URL is
 * refused with the server's message. Switching Pro to Max asks first, naming what ends, what starts at which
 * price and what is charged to which card; the server's catalogued refusals — no default payment method, then a
 * declined card — are shown verbatim in the dialog and nothing changes; with a good card the switch charges it
 * (a paid Stripe subscription and invoice) and the customer owns Max. axe light and dark at 1024 px.
 */
const { standIn, payments } = withStripeStandIn();
const env = withDashboardInChromium({ payments });

const catalogue = {
  'payments.testMode': false,
  'payments.productLines': { plans: { displayName: 'Plans', customerType: 'user' } },
  'payments.products': {
    pro: { displayName: 'Pro', customerType: 'user', productLineId: 'plans', prices: { monthly: { USD: '9.99', interval: [1, 'month'] } } },
    max: {
      displayName: 'Max',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '29', interval: [1, 'month'] }, yearly: { EUR: '290', interval: [1, 'year'] } },
    },
  },
};

describe('the dashboard in Chromium: a customer’s checkout link and product switch', () => {
  it('creates and copies a checkout link, and switches a product after saying what it charges', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-customer-switch');
    const page = await env.browser.newPage({
      viewport: { width: 1024, height: 800 },
      colorScheme: 'light',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Switch Co', { newTeam: 'Switch team' });
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    await services.projects.update(project.id, { configOverride: { ...project.config_override, ...catalogue } });
    services.projects.forget(projectId);
    const user = await services.users.create((await services.projects.find(projectId))!, { display_name: 'Switcher' }, 'server');
    const headers = await env.platform.apiHeadersFor(projectId);
    const owned = async () => {
      const response = await fetch(`${env.platform.url}/api/v1/payments/products/user/${user.id}`, { headers: headers.server });
      return ((await response.json()) as { items: Array<{ id: string }> }).items.map((product) => product.id);
    };

    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('button', { name: 'Set up Stripe' }).click();
    await expect.poll(() => standIn.accounts.size).toBe(1);
    await showPaymentsCustomer(page, user.id);

    // A checkout link: created, copied, and it serves the checkout page for Pro.
    const checkout = page.getByRole('region', { name: 'Checkout link' });
    await checkout.getByLabel('Product to sell', { exact: true }).selectOption('pro');
    await checkout.getByLabel('Return URL (optional)', { exact: true }).fill('https://elsewhere.test/back');
    await checkout.getByRole('button', { name: 'Create checkout link' }).click();
    const direct = await fetch(`${env.platform.url}/api/v1/payments/purchases/create-purchase-url`, {
      method: 'POST',
      headers: headers.admin,
      body: JSON.stringify({ customer_type: 'user', customer_id: user.id, product_id: 'pro', return_url: 'https://elsewhere.test/back' }),
    });
    expect(direct.status).toBe(400);
    const untrusted = ((await direct.json()) as { error: string }).error;
    await expect.poll(() => checkout.getByRole('alert').textContent()).toBe(untrusted);
    await checkout.getByLabel('Return URL (optional)', { exact: true }).fill('');
    await checkout.getByRole('button', { name: 'Create checkout link' }).click();
    const link = checkout.locator('code');
    await expect.poll(() => link.textContent()).toMatch(/\/api\/v1\/payments\/purchases\/checkout\?code=/);
    const url = (await link.textContent())!;
    expect(url.startsWith(env.platform.url)).toBe(true);
    expect(await checkout.getByRole('alert').count()).toBe(0);
    await checkout.getByRole('button', { name: 'Copy checkout link' }).click();
    await expect.poll(() => checkout.getByText('Copied.').isVisible()).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(await checkout.getByRole('link', { name: 'Open checkout' }).getAttribute('href')).toBe(url);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('Pro');
    await shot(page, 'checkout-link');
    await expectAccessible(page, 'the payments page with a checkout link');

    // Pro granted; switching to Max without a saved card: the server's refusal in the dialog, nothing changed.
    await page.getByLabel('Product to grant', { exact: true }).selectOption('pro');
    await page.getByRole('button', { name: 'Grant product' }).click();
    const products = page.getByRole('list', { name: 'Customer products' });
    await expect.poll(() => products.textContent()).toContain('Pro');
    await products.getByRole('button', { name: 'Switch Pro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch Pro to another product?' });
    await expect.poll(() => dialog.getByLabel('Switch to', { exact: true }).inputValue()).toBe('max');
    await dialog.getByLabel('Price', { exact: true }).selectOption('monthly');
    await expect
      .poll(() => dialog.locator('p').allTextContents())
      .toEqual([
        'Pro ends now and Max starts at monthly: 29 USD every month.',
        'This customer has no default payment method saved, which Stripe needs to charge the switch.',
      ]);
    await dialog.getByRole('button', { name: 'Switch to Max' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe('Switching a subscription needs a default payment method on the customer.');
    expect(await owned()).toEqual(['pro']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    // A saved card Stripe declines: the dialog names the card, the decline is shown verbatim, nothing changed.
    const { paymentMethodId } = await saveDefaultCard(env.platform, standIn, projectId, { type: 'user', id: user.id });
    standIn.refuse(paymentMethodId, 'card_declined', 'insufficient_funds');
    await page.reload();
    await showPaymentsCustomer(page, user.id);
    await products.getByRole('button', { name: 'Switch Pro' }).click();
    await dialog.getByLabel('Price', { exact: true }).selectOption('yearly');
    await expect
      .poll(() => dialog.locator('p').allTextContents())
      .toEqual([
        'Pro ends now and Max starts at yearly: 290 EUR every year.',
        'Charged now to the default payment method, Visa •••• 4242, expires 12/2034; if a Stripe subscription bills Pro, it moves to the new price with prorations.',
      ]);
    await shot(page, 'switch-confirmation');
    await expectAccessible(page, 'the switch confirmation');
    await dialog.getByRole('button', { name: 'Switch to Max' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe("The customer's default payment method was declined; nothing changed.");
    expect(await owned()).toEqual(['pro']);
    expect(standIn.objectsOf('subscription')).toEqual([]);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'switch-declined-dark');
    await expectAccessible(page, 'the switch dialog with a declined card, dark');

    // The card charges again: the same confirmation switches; Max owned, paid on Stripe, its invoice listed.
    standIn.refusing.delete(paymentMethodId);
    await dialog.getByRole('button', { name: 'Switch to Max' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Switched' }).textContent()).toBe('Switched from Pro to Max.');
    await expect.poll(() => products.textContent()).toContain('Max');
    expect(await products.textContent()).not.toContain('Pro');
    expect(await owned()).toEqual(['max']);
    const [subscription] = standIn.objectsOf('subscription');
    expect(subscription).toMatchObject({ status: 'active', default_payment_method: paymentMethodId });
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await expect.poll(() => invoices.getByRole('row').nth(1).textContent()).toMatch(/paid29,000—$/);
    await shot(page, 'switched-dark');
    await expectAccessible(page, 'the payments page after a switch, dark');
  });
});
