import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { OAuthSettings } from '../../../server/src/modules/authentication/oauth/oauth-settings.ts';
import type { PaymentSettings } from '../../../server/src/modules/billing/payments/payment-settings.ts';
import type { ServiceOptions } from '../../../server/src/services.ts';
import { launchChromium } from './chromium.ts';
import { type DemoPlatform, startDemoPlatform } from './demo-platform.ts';

export type BrowserEnvironment = { platform: DemoPlatform; browser: Browser };

/**
 * The example app on a platform of its own plus one Chromium for a test file, started before its
 * tests and stopped after. Read the fields inside tests (they are set in beforeAll).
 */
export function withDemoInChromium(
  projectConfig: Record<string, unknown> = {},
  options: { oauth?: () => OAuthSettings; payments?: () => PaymentSettings; settings?: () => ServiceOptions['settings'] } = {},
): BrowserEnvironment {
  const environment = {} as BrowserEnvironment;
  beforeAll(async () => {
    [environment.platform, environment.browser] = await Promise.all([
      startDemoPlatform(projectConfig, { oauth: options.oauth?.(), payments: options.payments?.(), settings: options.settings?.() }),
      launchChromium(),
    ]);
    // A platform start beside Chromium's: under a loaded CI machine this has passed the default 60 s hook timeout.
  }, 180_000);
  afterAll(async () => {
    await environment.browser?.close();
    await environment.platform?.close();
  });
  return environment;
}

/** A user of the demo project with a password (and a verified email unless told otherwise). */
export async function createPasswordUser(platform: DemoPlatform, label: string, options: { verified?: boolean } = {}) {
  const user = { email: `${label}-${randomUUID().slice(0, 8)}@demo.test`, password: `${label}-password-1` };
  await platform.context.services.users.create(
    platform.project.project,
    {
      primary_email: user.email,
      primary_email_auth_enabled: true,
      primary_email_verified: options.verified ?? true,
      password: user.password,
    },
    'server',
  );
  return user;
}

/** Fills and sends the password form of the sign-in page the browser is on. */
export async function submitPasswordSignIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Opens the sign-in page and signs in with a password. */
export async function signInWithPassword(page: Page, appUrl: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${appUrl}/handler/sign-in`);
  await submitPasswordSignIn(page, user);
}

/** The sign-out page, ending on the signed-out home page. */
export async function signOutViaPage(page: Page, appUrl: string): Promise<void> {
  await page.goto(`${appUrl}/handler/sign-out`);
  await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible()).toBe(true);
}

export const greetingOf = (page: Page) => page.getByTestId('greeting').textContent();
