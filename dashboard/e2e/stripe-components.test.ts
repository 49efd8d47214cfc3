import { randomUUID } from 'node:crypto';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { StripeStandIn } from '../../server/src/testing/stripe-stand-in.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Stripe's embedded Connect components on the Payments page in a real Chromium against the platform on real
 * Postgres, with the real @stripe/connect-js and the real `stripe` SDK against a local stand-in of Stripe (its
 * API and Connect.js, served from STRIPE_CONNECT_JS_URL; no network): the onboarding component mounts for the
 * account session the server created (the stand-in is asked for exactly that session, with the platform's
 * publishable key, through the SDK), then payments and payouts once the account is onboarded; Connect.js that
 * cannot be reached is a clear error with a retry. axe light and dark.
 */
const standIn = new StripeStandIn();
beforeAll(async () => {
  await standIn.start();
});
afterAll(async () => {
  await standIn.close();
});
const env = withDashboardInChromium({
  payments: () => ({
    stripeSecretKey: 'sk_test_platform',
    stripeWebhookSecret: 'whsec_dashboard',
    stripeApiUrl: standIn.url,
    stripePublishableKey: 'pk_test_platform',
    stripeConnectJsUrl: `${standIn.url}/connect-js/v1.0/connect.js`,
  }),
});

describe('the dashboard in Chromium: Stripe embedded components', () => {
  it('mounts onboarding, then payments and payouts, with the account session the server created', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-stripe-components');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && !request.url().startsWith(env.platform.url)) scripts.push(request.url());
    });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    await createProject(page, 'Connect Co', { newTeam: 'Connect team' });
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('button', { name: 'Set up Stripe' }).click();
    const accountId = await expect
      .poll(() => [...standIn.accounts.keys()][0])
      .toMatch(/^acct_/)
      .then(() => [...standIn.accounts.keys()][0]!);

    // Onboarding, embedded: loaded with the session the server made for this account.
    const onboarding = page.getByRole('region', { name: 'Onboarding' });
    await expect
      .poll(() => onboarding.textContent(), { timeout: 15_000 })
      .toContain(`Account onboarding of ${accountId} (Stripe stand-in)`);
    const sessions = [...standIn.accountSessions.entries()];
    expect(sessions).toHaveLength(1);
    const [secret, session] = sessions[0]!;
    expect(session.account).toBe(accountId);
    expect(standIn.connectClaims).toEqual([{ client_secret: secret, publishable_key: 'pk_test_platform', sdk_version: '3.4.6' }]);
    expect(scripts).toEqual([`${standIn.url}/connect-js/v1.0/connect.js`]);
    await shot(page, 'onboarding');
    await expectAccessible(page, 'the payments page with embedded onboarding');

    // Onboarded: notifications, payments and payouts, in the dark theme.
    Object.assign(standIn.accounts.get(accountId)!, { details_submitted: true, charges_enabled: true, payouts_enabled: true });
    await page.getByRole('button', { name: 'Refresh status' }).click();
    for (const [region, text] of [
      ['Notifications', 'Notifications'],
      ['Payments on Stripe', 'Payments'],
      ['Payouts', 'Payouts'],
    ] as const) {
      await expect
        .poll(() => page.getByRole('region', { name: region, exact: true }).textContent(), { timeout: 15_000 })
        .toContain(`${text} of ${accountId} (Stripe stand-in)`);
    }
    expect(await onboarding.count()).toBe(0);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'payments-payouts-dark');
    await expectAccessible(page, 'the payments page with embedded payments and payouts, dark');
  });

  it('says so when Stripe cannot be reached, and loads on a retry', { timeout: 120_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Offline Co', { newTeam: 'Offline team' });
    const before = new Set(standIn.accounts.keys());
    // The browser cannot reach Stripe (Connect.js): the connection is refused.
    await page.route('**/connect-js/**', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('button', { name: 'Set up Stripe' }).click();
    const components = page.getByRole('region', { name: 'Stripe components' });
    await expect
      .poll(() => components.getByRole('alert').textContent(), { timeout: 15_000 })
      .toBe(
        'Stripe’s components could not be loaded: Stripe is not reachable from this browser. Check the connection and try again.Try again',
      );
    await screenshots('dashboard-stripe-components')(page, 'not-reachable');
    await expectAccessible(page, 'the payments page when Stripe is not reachable');
    const accountId = [...standIn.accounts.keys()].find((id) => !before.has(id))!;
    await page.unroute('**/connect-js/**');
    await components.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Onboarding' }).textContent(), { timeout: 15_000 })
      .toContain(`Account onboarding of ${accountId} (Stripe stand-in)`);
    expect(await components.getByRole('alert').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/payments`);
  });
});
