import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, signInWithPassword, signOutViaPage, withDemoInChromium } from './e2e-environment.ts';

/**
 * Two-factor authentication in a real Chromium: turned on in account settings with a code the test
 * computes from the key the page shows, then sign-ins that stop at the mfa page and finish with a
 * fresh TOTP, then with a recovery code.
 */
const env = withDemoInChromium();

const totpFor = (base32Key: string, stepsFromNow = 0) =>
  generate({ secret: base32Key, epoch: Math.floor(Date.now() / 1000) + stepsFromNow * 30 });

describe('two-factor authentication in Chromium', () => {
  it('is turned on in account settings, then asked for at sign-in (TOTP, then a recovery code)', { timeout: 120_000 }, async () => {
    const shot = screenshots('mfa');
    const page = await env.browser.newPage();
    const ada = await createPasswordUser(env.platform, 'ada');
    const email = ada.email;
    await signInWithPassword(page, env.platform.url, ada);
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);

    await page.goto(`${env.platform.url}/handler/account-settings`);
    await page.getByRole('tab', { name: 'Two-factor' }).click();
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const key = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app', { exact: true }).fill('000000' === (await totpFor(key)) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('does not match');
    await page.getByLabel('Code from the app', { exact: true }).fill(await totpFor(key));
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    await expect.poll(() => page.getByText('Two-factor authentication is on.').isVisible()).toBe(true);
    // The recovery codes come with their own request, after the page says two-factor is on.
    const recoveryCodeItems = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => recoveryCodeItems.count()).toBe(10);
    const recoveryCodes = await recoveryCodeItems.allTextContents();
    await shot(page, 'mfa-turned-on');

    // Password alone is not enough any more: the mfa page asks for the app's code.
    await signOutViaPage(page, env.platform.url);
    await signInWithPassword(page, env.platform.url, ada);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/mfa');
    await shot(page, 'mfa-asked');
    await page.getByLabel('Authentication code', { exact: true }).fill('123456' === (await totpFor(key)) ? '654321' : '123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBeTruthy();
    await page.getByLabel('Authentication code', { exact: true }).fill(await totpFor(key));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);

    // A recovery code works once in place of the app's code.
    await signOutViaPage(page, env.platform.url);
    await signInWithPassword(page, env.platform.url, ada);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/mfa');
    await page.getByLabel('Authentication code', { exact: true }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);
    await shot(page, 'signed-in-with-recovery-code');

    await signOutViaPage(page, env.platform.url);
    await signInWithPassword(page, env.platform.url, ada);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/mfa');
    await page.getByLabel('Authentication code', { exact: true }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBeTruthy();
    await shot(page, 'recovery-code-used-up');
  });
});
