import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilitySweep } from '../../examples/demo/e2e/accessibility.ts';
import { withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Issue #29: the handler pages as the dashboard serves them (under /dashboard/handler, inside the
 * dashboard's own styles), in light and dark: axe finds no serious or critical violation. The example
 * app's sweep (examples/demo/e2e/handler-pages-accessibility.test.ts) goes through every state of every
 * page; this one through the pages an owner meets, signed out, then signed up through the page and
 * signed in: account settings with each of its tabs.
 */
const env = withDashboardInChromium();

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().textContent();

describe('the dashboard’s handler pages in Chromium', () => {
  it('have no serious or critical axe violation, light and dark', { timeout: 300_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 } });
    const sweep = accessibilitySweep('dashboard-handler-pages-accessibility');
    const open = async (path: string, title: string) => {
      await page.goto(`${env.platform.url}/dashboard/handler/${path}`);
      await expect.poll(() => heading(page), { message: path }).toBe(title);
    };

    for (const [path, title] of [
      ['sign-in', 'Sign in'],
      ['sign-up', 'Create your account'],
      ['forgot-password', 'Reset your password'],
      ['password-reset', 'Choose a new password'],
      ['email-verification', 'Verify your email'],
      ['magic-link-callback', 'Sign in'],
      ['team-invitation', 'Team invitation'],
      ['mfa', 'Two-factor authentication'],
      ['error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=The%20provider%20said%20no.', 'Something went wrong'],
    ] as const) {
      await open(path, title);
      await sweep.judge(page, path.split('?')[0]!, 'signed-out');
    }
    await open('sign-in', 'Sign in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await sweep.judge(page, 'sign-in', 'field-errors');

    // The owner signs up through the page the start banner prints, and is signed in from then on.
    const email = `owner-${randomUUID().slice(0, 8)}@dashboard.test`;
    await open('sign-up', 'Create your account');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('owner-password-1');
    await page.getByLabel('Repeat password', { exact: true }).fill('owner-password-1');
    await page.getByRole('button', { name: 'Sign up' }).click();
    // Hashing the password can take seconds on a loaded machine.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/dashboard/projects');

    await open('account-settings', 'Account settings');
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs.length).toBeGreaterThanOrEqual(7);
    for (const tab of tabs) {
      await page.getByRole('tab', { name: tab }).click();
      await expect
        .poll(() =>
          page
            .getByRole('tabpanel')
            .getByText(/^Loading/)
            .count(),
        )
        .toBe(0);
      await sweep.judge(page, 'account-settings', tab.toLowerCase().replaceAll(' ', '-'));
    }
    expect(sweep.findings).toEqual([]);
  });
});
