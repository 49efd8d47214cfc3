import { describe, expect, it } from 'vitest';
import { demoPaymentsCatalogue } from '../../../server/src/bootstrap/demo-catalogue.ts';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, signInWithPassword, withDemoInChromium } from './e2e-environment.ts';

/**
 * Payments in test mode, in Chromium: a signed-in user buys a plan on the platform's hosted
 * checkout page with the test card form, comes back to the app and sees the plan's credits; buying
 * a second plan of the same product line is refused on the page, naming the plan it conflicts with.
 * The project has the demo project's seeded catalogue: what `pnpm start` gives the /shop page.
 */
const env = withDemoInChromium({ payments: demoPaymentsCatalogue });

describe('checkout in test mode', () => {
  it('buys a plan, returns to the app with its credits, and refuses a second plan of the line', { timeout: 120_000 }, async () => {
    const shot = screenshots('checkout');
    const page = await env.browser.newPage();
    const user = await createPasswordUser(env.platform, 'buyer');
    await signInWithPassword(page, env.platform.url, user);
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${user.email}`);
    await page.goto(`${env.platform.url}/shop`);
    await page.waitForLoadState('networkidle');
    await shot(page, 'shop-opened');
    await expect.poll(() => page.getByTestId('credits').textContent()).toBe('Credits: 0');
    await shot(page, 'shop-before');

    await page.getByRole('button', { name: 'Buy Pro' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Pro' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/api/v1/payments/purchases/checkout');
    await expect.poll(() => page.getByText('9.99 USD every month').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Test mode: no real payment is taken.').isVisible()).toBe(true);
    await shot(page, 'checkout-pro');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay (test mode)' }).click();

    await expect.poll(() => new URL(page.url()).pathname).toBe('/shop');
    await expect.poll(() => page.getByTestId('credits').textContent()).toBe('Credits: 100');
    await shot(page, 'shop-after-pro');

    await page.getByRole('button', { name: 'Buy Max' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Max' }).isVisible()).toBe(true);
    const conflict = page.locator('#conflict');
    await expect.poll(() => conflict.textContent()).toContain('You already own Pro of the same product line');
    expect(await page.getByRole('button', { name: 'Pay (test mode)' }).isDisabled()).toBe(true);
    await shot(page, 'checkout-max-conflict');

    await page.goto(`${env.platform.url}/shop`);
    await expect.poll(() => page.getByTestId('credits').textContent()).toBe('Credits: 100');
    await page.close();
  });
});
