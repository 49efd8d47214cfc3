import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcIdp } from '@gatehouse/testing/oidc-idp';
import { screenshots } from './chromium.ts';
import { greetingOf, withDemoInChromium } from './e2e-environment.ts';

/**
 * A project's own OpenID Connect provider in a real Chromium: the handler's sign-in page shows its
 * button with the display name; the click goes through authorize to the local oidc-provider's login
 * and consent pages and back through the callback, and the app greets the new user; account settings then
 * name the linked account by the provider's display name.
 */
let oidc: Awaited<ReturnType<typeof startOidcIdp>>;
beforeAll(async () => {
  oidc = await startOidcIdp();
}, 60_000);
const provider = () => ({
  type: 'oidc',
  issuer: oidc.issuer,
  displayName: 'Initech Workforce',
  clientId: 'byo-demo',
  clientSecret: 'byo-demo-secret',
  allowSignIn: true,
});
// Read when the platform starts (after the provider above): its issuer is known only then.
const env = withDemoInChromium({
  'auth.allowSignUp': true,
  get 'auth.oauth.providers.oidc-initech'() {
    return provider();
  },
});
afterAll(async () => {
  await oidc?.close();
});

describe("a project's own OpenID provider in Chromium", () => {
  it('signs a newcomer in from the sign-in page through the button with its display name', { timeout: 180_000 }, async () => {
    const shot = screenshots('byo-oidc');
    oidc.configure({
      clientId: 'byo-demo',
      clientSecret: 'byo-demo-secret',
      redirectUri: `${env.platform.url}/api/v1/auth/oauth/callback/oidc-initech`,
    });
    // The project's config is checked as saving checks it (the save path itself: byo-oidc-provider.test.ts).
    const current = await env.platform.context.request({ url: '/api/v1/projects/current', headers: env.platform.project.headers.client });
    expect(current.body.config.oidc_providers).toEqual([{ id: 'oidc-initech', display_name: 'Initech Workforce' }]);

    const email = `lumbergh-${randomUUID().slice(0, 8)}@initech.test`;
    const page = await env.browser.newPage();
    await page.goto(`${env.platform.url}/handler/sign-in`);
    const button = page.getByRole('button', { name: 'Continue with Initech Workforce' });
    await expect.poll(() => button.isVisible(), { timeout: 30_000 }).toBe(true);
    await shot(page, 'sign-in-page');
    await button.click();
    await expect.poll(() => page.url().startsWith(oidc.issuer), { timeout: 30_000 }).toBe(true);
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    // The provider's consent page, then back through the callback to the app.
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe(`Hello, OIDC ${email.split('@')[0]}`);
    await shot(page, 'signed-in');
    expect(page.url()).not.toMatch(/[?&](code|state)=/);
    const users = await env.platform.context.request({
      url: `/api/v1/users?query=${encodeURIComponent(email)}`,
      headers: env.platform.project.headers.server,
    });
    expect((users.body.items as Array<{ primary_email: string }>).map((user) => user.primary_email)).toEqual([email]);

    // Account settings name the linked account by the provider's display name, not its key (`oidc-initech`).
    await page.getByRole('link', { name: 'Account settings' }).click();
    await page.getByRole('tab', { name: 'Connected accounts' }).click();
    const linked = page.getByRole('list', { name: 'Connected accounts' }).getByRole('listitem');
    await expect.poll(() => linked.count(), { timeout: 30_000 }).toBe(1);
    expect(await linked.locator('span').first().textContent()).toMatch(/^Initech Workforce( |$)/);
    expect(await linked.textContent()).not.toContain('oidc-initech');
    await shot(page, 'connected-accounts');
  });
});
