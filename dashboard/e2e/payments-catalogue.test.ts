import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Editing and deleting the payments catalogue in a real Chromium against the platform on real
 * Postgres: an item renamed; its customer type changed while a product includes it, refused with the
 * seed's message at the field and rolled back; deleting it while included refused beside it and the
 * item back; a product's price edited (too many decimals at Amount, then saved, keeping its interval,
 * its other price and its included item); a product deleted; a product line that a product uses
 * refused, then deleted once free; axe.
 */
const env = withDashboardInChromium();

const catalogue = {
  'payments.items': { credits: { displayName: 'Credits', customerType: 'user' } },
  'payments.productLines': { plans: { displayName: 'Plans', customerType: 'user' } },
  'payments.products': {
    pro: {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] }, yearly: { USD: '99', interval: [1, 'year'] } },
      includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
    pack: { displayName: 'Credit pack', customerType: 'user', stackable: true, prices: { once: { USD: '5' } } },
  },
};

describe('the dashboard in Chromium: editing the payments catalogue', () => {
  it('edits and deletes items, products and product lines, with refusals at the field and rolled back', { timeout: 240_000 }, async () => {
    const shot = screenshots('dashboard-payments-catalogue');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Catalogue Co', { newTeam: 'Catalogue team' });
    const { context } = env.platform;
    const headers = await env.platform.apiHeadersFor(projectId);
    const configured = await context.request({
      method: 'PATCH',
      url: '/api/v1/internal/config/override/project',
      headers: headers.admin,
      payload: { config_override_string: JSON.stringify(catalogue) },
    });
    expect(configured.status, configured.text).toBe(200);
    const paymentsOf = async () => {
      context.services.projects.forget(projectId);
      return (await context.services.projects.find(projectId))!.config.payments;
    };

    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    const items = page.getByRole('list', { name: 'Items' });
    await expect.poll(() => items.textContent()).toContain('Credits');

    // Rename an item.
    await items.getByRole('button', { name: 'Edit item credits' }).click();
    const itemForm = page.getByRole('form', { name: 'Edit item credits' });
    expect(await itemForm.getByLabel('Id', { exact: true }).getAttribute('readonly')).not.toBeNull();
    // The keyboard lands in the form: the first field that can change.
    await expect
      .poll(() => itemForm.getByLabel('Item name', { exact: true }).evaluate((field) => field === document.activeElement))
      .toBe(true);
    await itemForm.getByLabel('Item name', { exact: true }).fill('Tokens');
    await itemForm.getByRole('button', { name: 'Save item' }).click();
    await expect.poll(async () => (await paymentsOf()).items.credits).toEqual({ displayName: 'Tokens', customerType: 'user' });
    await expect.poll(() => items.textContent()).toContain('Tokens');

    // Its customer type, while Pro includes it for users: refused at the field, the list as before.
    await items.getByRole('button', { name: 'Edit item credits' }).click();
    await itemForm.getByLabel('Customer type', { exact: true }).selectOption('team');
    await itemForm.getByRole('button', { name: 'Save item' }).click();
    const customerType = itemForm.getByLabel('Customer type', { exact: true });
    await expect.poll(() => customerType.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(async () => itemForm.locator(`#${await customerType.getAttribute('aria-describedby')}`).textContent())
      .toBe('Product pro: Item credits is for customer type team, the product for user.');
    await expect.poll(() => items.getByText('user', { exact: true }).count()).toBe(1);
    expect((await paymentsOf()).items).toEqual({ credits: { displayName: 'Tokens', customerType: 'user' } });
    await shot(page, 'item-type-refused');
    await expectAccessible(page, 'an item refused at its field');
    await itemForm.getByRole('button', { name: 'Cancel editing' }).click();

    // Delete it while included: confirmed, refused beside it, the item back.
    await items.getByRole('button', { name: 'Delete item credits' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete item credits?' });
    await expectAccessible(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete item' }).click();
    await expect.poll(() => items.getByRole('alert').textContent()).toBe('Product pro: Item credits does not exist.');
    await expect.poll(() => items.textContent()).toContain('Tokens');
    expect(Object.keys((await paymentsOf()).items)).toEqual(['credits']);
    await shot(page, 'item-delete-refused');

    // Pro's first price: too many decimals at Amount, then saved; its interval, other price and item kept.
    const products = page.getByRole('list', { name: 'Products' });
    await products.getByRole('button', { name: 'Edit product pro' }).click();
    const productForm = page.getByRole('form', { name: 'Edit product pro' });
    const amount = productForm.getByLabel('Amount', { exact: true });
    expect(await productForm.getByLabel('Price to edit', { exact: true }).inputValue()).toBe('monthly');
    expect(await amount.inputValue()).toBe('9.99');
    expect(await productForm.getByLabel('Billing', { exact: true }).inputValue()).toBe('month');
    expect(await productForm.getByLabel('Included item', { exact: true }).inputValue()).toBe('credits');
    const priceChoice = productForm.getByLabel('Price to edit', { exact: true });
    await priceChoice.selectOption('yearly');
    await expect.poll(() => amount.inputValue()).toBe('99');
    expect(await productForm.getByLabel('Billing', { exact: true }).inputValue()).toBe('year');
    await priceChoice.selectOption('monthly');
    await expect.poll(() => amount.inputValue()).toBe('9.99');
    await productForm.getByLabel('Product name', { exact: true }).fill('Pro Plus');
    await amount.fill('19.999');
    await productForm.getByRole('button', { name: 'Save product' }).click();
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(async () => productForm.locator(`#${await amount.getAttribute('aria-describedby')}`).textContent())
      .toBe('Too many decimals; USD only has 2 decimals');
    await expect.poll(() => products.textContent()).toContain('monthly: 9.99 USD every month');
    expect((await paymentsOf()).products).toMatchObject({ pro: { displayName: 'Pro' } });
    await shot(page, 'price-refused');
    await amount.fill('19.99');
    await productForm.getByRole('button', { name: 'Save product' }).click();
    await expect.poll(() => products.textContent()).toContain('monthly: 19.99 USD every month');
    // The list updates optimistically, before the server has the change: wait for the server's copy.
    await expect
      .poll(async () => (await paymentsOf()).products.pro)
      .toEqual({
        displayName: 'Pro Plus',
        customerType: 'user',
        productLineId: 'plans',
        stackable: false,
        prices: { monthly: { USD: '19.99', interval: [1, 'month'] }, yearly: { USD: '99', interval: [1, 'year'] } },
        includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
      });

    // Delete the credit pack.
    await products.getByRole('button', { name: 'Delete product pack' }).click();
    await page.getByRole('dialog', { name: 'Delete product pack?' }).getByRole('button', { name: 'Delete product' }).click();
    await expect.poll(async () => Object.keys((await paymentsOf()).products)).toEqual(['pro']);
    await expect.poll(() => products.textContent()).not.toContain('Credit pack');

    // The line Pro is in cannot go; once Pro is deleted it can, and so can the item.
    const lines = page.getByRole('list', { name: 'Product lines' });
    await lines.getByRole('button', { name: 'Delete product line plans' }).click();
    await page.getByRole('dialog', { name: 'Delete product line plans?' }).getByRole('button', { name: 'Delete product line' }).click();
    await expect.poll(() => lines.getByRole('alert').textContent()).toBe('Product pro: Product line plans does not exist.');
    await expect.poll(() => lines.textContent()).toContain('Plans');
    await products.getByRole('button', { name: 'Delete product pro' }).click();
    await page.getByRole('dialog', { name: 'Delete product pro?' }).getByRole('button', { name: 'Delete product' }).click();
    await expect.poll(() => page.getByText('No products yet.').isVisible()).toBe(true);
    await lines.getByRole('button', { name: 'Delete product line plans' }).click();
    await page.getByRole('dialog', { name: 'Delete product line plans?' }).getByRole('button', { name: 'Delete product line' }).click();
    await expect.poll(() => page.getByText('No product lines yet.').isVisible()).toBe(true);
    await items.getByRole('button', { name: 'Delete item credits' }).click();
    await confirm.getByRole('button', { name: 'Delete item' }).click();
    await expect.poll(() => page.getByText('No items yet.').isVisible()).toBe(true);
    await expect
      .poll(async () => {
        const emptied = await paymentsOf();
        return [emptied.items, emptied.productLines, emptied.products];
      })
      .toEqual([{}, {}, {}]);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'emptied-dark');
    await expectAccessible(page, 'the emptied catalogue in the dark theme');
    await page.close();
  });
});
