import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, showPaymentsCustomer, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The Payments page in a real Chromium against the platform on real Postgres: test mode and blocking
 * new purchases saved at once; Stripe not connected and, with no Stripe key on the server, not set
 * up (its message shown); an item, a product line and a product defined (a price with too many
 * decimals refused with the seed's message at the Amount field, nothing saved); the product granted
 * to a user, whose item quantity then shows; the quantity changed (taking more than there is refused
 * with the server's message); the product cancelled behind a confirmation; axe in light and dark.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: payments', () => {
  it('defines a product and grants it to a user, whose item quantity shows', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-payments');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Shop Co', { newTeam: 'Shop team' });
    const { services } = env.platform.context;
    const paymentsOf = async () => {
      services.projects.forget(projectId);
      return (await services.projects.find(projectId))!.config.payments;
    };

    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await expect.poll(() => page.getByText('No products yet.').isVisible()).toBe(true);
    await expectAccessible(page, 'the empty payments page');

    // A server without a Stripe key: not connected, and setting it up says why not.
    await expect.poll(() => page.getByText('Not connected: no Stripe account is connected to this project yet.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Set up Stripe' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Stripe' }).textContent())
      .toBe('Stripe mode is off on this server: set STRIPE_SECRET_KEY to connect Stripe.');

    // Mode switches, saved as they are clicked.
    const testModeBefore = (await paymentsOf()).testMode;
    await page.getByRole('checkbox', { name: 'Test mode' }).click();
    await expect.poll(async () => (await paymentsOf()).testMode).toBe(!testModeBefore);
    await page.getByRole('checkbox', { name: 'Test mode' }).click();
    await expect.poll(async () => (await paymentsOf()).testMode).toBe(testModeBefore);
    await page.getByRole('checkbox', { name: 'Block new purchases' }).click();
    await expect.poll(async () => (await paymentsOf()).blockNewPurchases).toBe(true);
    await page.getByRole('checkbox', { name: 'Block new purchases' }).click();
    await expect.poll(async () => (await paymentsOf()).blockNewPurchases).toBe(false);

    // An item and a product line.
    const itemForm = page.getByRole('form', { name: 'Add an item', exact: true });
    await itemForm.getByLabel('Id', { exact: true }).fill('credits');
    await itemForm.getByLabel('Item name', { exact: true }).fill('Credits');
    await itemForm.getByRole('button', { name: 'Add item' }).click();
    await expect.poll(async () => (await paymentsOf()).items).toEqual({ credits: { displayName: 'Credits', customerType: 'user' } });
    const lineForm = page.getByRole('form', { name: 'Add a product line' });
    await lineForm.getByLabel('Id', { exact: true }).fill('plans');
    await lineForm.getByLabel('Line name', { exact: true }).fill('Plans');
    await lineForm.getByRole('button', { name: 'Add product line' }).click();
    await expect.poll(async () => Object.keys((await paymentsOf()).productLines)).toEqual(['plans']);

    // A product whose price has too many decimals: the seed's message at the Amount field, nothing saved.
    const productForm = page.getByRole('form', { name: 'Add a product', exact: true });
    await productForm.getByLabel('Id', { exact: true }).fill('pro');
    await productForm.getByLabel('Product name', { exact: true }).fill('Pro');
    await productForm.getByLabel('Product line', { exact: true }).selectOption('plans');
    await productForm.getByLabel('Amount', { exact: true }).fill('9.999');
    await productForm.getByLabel('Included item', { exact: true }).selectOption('credits');
    await productForm.getByLabel('Quantity included', { exact: true }).fill('100');
    await productForm.getByRole('button', { name: 'Add product' }).click();
    const amount = productForm.getByLabel('Amount', { exact: true });
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(async () => productForm.locator(`#${await amount.getAttribute('aria-describedby')}`).textContent())
      .toBe('Too many decimals; USD only has 2 decimals');
    await shot(page, 'price-refused-at-field');
    expect((await paymentsOf()).products).toEqual({});
    await expect.poll(() => page.getByText('No products yet.').isVisible()).toBe(true);

    await amount.fill('9.99');
    await productForm.getByRole('button', { name: 'Add product' }).click();
    await expect
      .poll(async () => (await paymentsOf()).products.pro)
      .toMatchObject({
        displayName: 'Pro',
        customerType: 'user',
        productLineId: 'plans',
        prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
        includedItems: { credits: { quantity: 100 } },
      });
    await expect.poll(() => page.getByRole('list', { name: 'Products' }).textContent()).toContain('monthly: 9.99 USD every month');

    // A user's items and products; grant Pro, the credits show.
    const project = (await services.projects.find(projectId))!;
    const user = await services.users.create(project, { display_name: 'Buyer' }, 'server');
    await showPaymentsCustomer(page, user.id);
    const items = page.getByRole('list', { name: 'Customer items' });
    await expect.poll(() => items.getByLabel('Credits quantity').textContent()).toBe('0');
    await expect.poll(() => page.getByRole('list', { name: 'Customer products' }).textContent()).toBe('No products.');
    await page.getByLabel('Product to grant', { exact: true }).selectOption('pro');
    await page.getByRole('button', { name: 'Grant product' }).click();
    await expect.poll(() => items.getByLabel('Credits quantity').textContent()).toBe('100');
    await expect.poll(() => page.getByRole('list', { name: 'Customer products' }).textContent()).toContain('Pro');
    services.projects.forget(projectId);
    const current = (await services.projects.find(projectId))!;
    expect(await services.payments.getItem(current, { type: 'user', id: user.id }, 'credits')).toMatchObject({ quantity: 100 });

    // Take more than there is: refused with the server's message, nothing changed; then take 30.
    const change = page.getByRole('form', { name: 'Change Credits' });
    await change.getByLabel('Add to Credits (negative takes away)').fill('-101');
    await change.getByRole('button', { name: 'Change quantity' }).click();
    await expect
      .poll(() => items.getByRole('alert').textContent())
      .toBe('Decrementing an item would make it negative while allow_negative=false (also used when invitations consume a seat item).');
    expect(await services.payments.getItem(current, { type: 'user', id: user.id }, 'credits')).toMatchObject({ quantity: 100 });
    await change.getByLabel('Add to Credits (negative takes away)').fill('-30');
    await change.getByRole('button', { name: 'Change quantity' }).click();
    await expect.poll(() => items.getByLabel('Credits quantity').textContent()).toBe('70');
    expect(await services.payments.getItem(current, { type: 'user', id: user.id }, 'credits')).toMatchObject({ quantity: 70 });
    await shot(page, 'granted');
    await expectAccessible(page, 'the payments page with a customer');

    // Cancel Pro: confirmed, gone from the customer's products; its never-expiring credits stay.
    await page.getByRole('button', { name: 'Cancel Pro' }).click();
    const cancelDialog = page.getByRole('dialog', { name: 'Cancel Pro for this customer?' });
    await expectAccessible(page, 'the cancel confirmation');
    await cancelDialog.getByRole('button', { name: 'Cancel product' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Customer products' }).textContent()).toBe('No products.');
    const headers = await env.platform.apiHeadersFor(projectId);
    const owned = await env.platform.context.request({ url: `/api/v1/payments/products/user/${user.id}`, headers: headers.server });
    expect(owned.body.items).toEqual([]);
    await expect.poll(() => items.getByLabel('Credits quantity').textContent()).toBe('70');

    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'payments-dark');
    await expectAccessible(page, 'the payments page in the dark theme');
  });
});
