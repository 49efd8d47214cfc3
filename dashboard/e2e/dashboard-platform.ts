import { join, resolve } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../../examples/demo/e2e/chromium.ts';
import { freePort } from '../../examples/demo/e2e/demo-platform.ts';
import { ensureDashboardBuilt, ensureExampleAppBuilt } from '../../scripts/src/example-app/build-example-app.ts';
import type { PaymentSettings } from '../../server/src/modules/billing/payments/payment-settings.ts';
import type { WebAppConfig } from '../../server/src/plugins/web-app.ts';
import { ensureInternalProject } from '@gatehouse/testing/internal-project';
import { StripeStandIn } from '@gatehouse/testing/stripe-stand-in';
import { createTestContext, type TestContext } from '@gatehouse/testing/test-context';

type TestContextOptions = NonNullable<Parameters<typeof createTestContext>[0]>;

/** Server settings of a test's platform: Stripe mode, other modules' settings by module name (the AI provider). */
export type PlatformOptions = { payments?: PaymentSettings; settings?: TestContextOptions['settings'] };

export type DashboardPlatform = {
  /** The platform's origin; the dashboard is at `${url}/dashboard`, the example app at `/`. */
  url: string;
  context: TestContext;
  /** Points the example app (where impersonation opens) at a project, with a fresh publishable key. */
  serveAppFor(projectId: string): Promise<void>;
  /** Request headers with a fresh server key and admin key of a project (what its backend would send). */
  apiHeadersFor(projectId: string): Promise<{ server: Record<string, string>; admin: Record<string, string> }>;
  close(): Promise<void>;
};

/**
 * The dashboard as `pnpm start` serves it: built by Vite, served at /dashboard by the platform on its
 * own port (real HTTP, the run's Postgres), for the `internal` project with password sign-up and
 * client team creation on (as the seeded `internal` project of `pnpm start` has them).
 */
export async function startDashboardPlatform(options: PlatformOptions = {}): Promise<DashboardPlatform> {
  const [distDir, appDir, port] = await Promise.all([ensureDashboardBuilt(), ensureExampleAppBuilt(), freePort()]);
  const url = `http://127.0.0.1:${port}`;
  let config: WebAppConfig | undefined;
  let appConfig: WebAppConfig | undefined;
  const context = await createTestContext({
    ...options,
    publicUrl: url,
    exampleApp: {
      distDir: appDir,
      config: () => {
        if (!appConfig) throw new Error('no project for the example app yet');
        return appConfig;
      },
    },
    dashboard: {
      distDir,
      config: () => {
        if (!config) throw new Error('the internal project is not ready yet');
        return config;
      },
    },
  });
  const internal = await ensureInternalProject(context, { publishable_client_key: true, super_secret_admin_key: true });
  const override = await context.request({
    method: 'PATCH',
    url: '/api/v1/internal/config/override/project',
    headers: {
      'x-stack-access-type': 'admin',
      'x-stack-project-id': 'internal',
      'x-stack-super-secret-admin-key': internal.keys.super_secret_admin_key as string,
    },
    payload: {
      config_override_string: JSON.stringify({
        'auth.password.allowSignIn': true,
        'teams.allowClientTeamCreation': true,
        'domains.allowLocalhost': true,
      }),
    },
  });
  if (override.status !== 200) throw new Error(`configuring internal failed: ${JSON.stringify(override.body)}`);
  config = { projectId: 'internal', publishableClientKey: internal.keys.publishable_client_key as string };
  await context.app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    context,
    async serveAppFor(projectId) {
      const project = await context.services.projects.find(projectId);
      if (!project) throw new Error(`no project ${projectId}`);
      const { keys } = await context.services.apiKeys.createKeySet({
        projectId: project.id,
        description: 'example app',
        expiresAt: new Date(Date.now() + 3_600_000),
        keys: { publishable_client_key: true },
      });
      appConfig = { projectId, publishableClientKey: keys.publishable_client_key as string };
    },
    async apiHeadersFor(projectId) {
      const project = await context.services.projects.find(projectId);
      if (!project) throw new Error(`no project ${projectId}`);
      const { keys } = await context.services.apiKeys.createKeySet({
        projectId: project.id,
        description: 'test backend',
        expiresAt: new Date(Date.now() + 3_600_000),
        keys: { secret_server_key: true, super_secret_admin_key: true },
      });
      const common = { 'x-stack-project-id': projectId, 'content-type': 'application/json' };
      return {
        server: { ...common, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': keys.secret_server_key as string },
        admin: { ...common, 'x-stack-access-type': 'admin', 'x-stack-super-secret-admin-key': keys.super_secret_admin_key as string },
      };
    },
    close: () => context.close(),
  };
}

export type DashboardEnvironment = { platform: DashboardPlatform; browser: Browser };

/** The dashboard on a platform of its own plus one Chromium for a test file. */
export function withDashboardInChromium(
  options: { payments?: () => PaymentSettings; settings?: () => PlatformOptions['settings'] } = {},
): DashboardEnvironment {
  const environment = {} as DashboardEnvironment;
  beforeAll(async () => {
    [environment.platform, environment.browser] = await Promise.all([
      startDashboardPlatform({
        ...(options.payments ? { payments: options.payments() } : {}),
        ...(options.settings ? { settings: options.settings() } : {}),
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await environment.browser?.close();
    await environment.platform?.close();
  });
  return environment;
}

/**
 * A local stand-in of Stripe (its API, Stripe.js and Connect.js; see testing/src/stripe-stand-in.ts) for a
 * test file, started before the platform and closed after it, and the Stripe-mode settings pointing at it
 * (`connect`: also the publishable key and Connect.js the dashboard's embedded components load).
 */
export function withStripeStandIn(options: { connect?: boolean } = {}): { standIn: StripeStandIn; payments: () => PaymentSettings } {
  const standIn = new StripeStandIn();
  beforeAll(async () => {
    await standIn.start();
  });
  afterAll(async () => {
    await standIn.close();
  });
  const payments = (): PaymentSettings => ({
    stripeSecretKey: 'sk_test_platform',
    stripeWebhookSecret: 'whsec_dashboard',
    stripeApiUrl: standIn.url,
    ...(options.connect
      ? { stripePublishableKey: 'pk_test_platform', stripeConnectJsUrl: `${standIn.url}/connect-js/v1.0/connect.js` }
      : {}),
  });
  return { standIn, payments };
}

const axeScript = join(resolve(import.meta.dirname, '../..'), 'node_modules/axe-core/axe.min.js');

/** axe-core over the page as it is: no serious or critical violation (WCAG 2.x A/AA and best practices). */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeScript });
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document): Promise<unknown> } }).axe.run(document),
  )) as AxeResults;
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(serious, `accessibility of ${label}`).toEqual([]);
}

/**
 * Signs a new owner up as a person does: the dashboard sends the signed-out visitor to sign in, and the
 * sign-in page's link leads to sign-up; lands back on the dashboard, on the projects page.
 */
export async function signUpOwner(page: Page, url: string, email: string, password = 'owner-password-1'): Promise<void> {
  await page.goto(`${url}/dashboard`);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/handler/sign-in');
  await page.getByRole('link', { name: 'Sign up', exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/handler/sign-up');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  // The password hash (argon2) takes far longer than the default poll on a machine shared by many test runs.
  await expect.poll(() => page.getByRole('heading', { name: 'Projects', level: 1 }).isVisible(), { timeout: 60_000 }).toBe(true);
}

/** Creates a project from the projects page with a new owner team; resolves to its id. */
export async function createProject(page: Page, name: string, team: { newTeam: string } | { team: string }): Promise<string> {
  await page.getByRole('link', { name: 'Create project' }).click();
  await page.getByLabel('Project name', { exact: true }).fill(name);
  if ('newTeam' in team) {
    await page.getByLabel('Owner team', { exact: true }).selectOption({ label: '+ A new team…' });
    await page.getByLabel('New team name', { exact: true }).fill(team.newTeam);
  } else {
    await page.getByLabel('Owner team', { exact: true }).selectOption({ label: team.team });
  }
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/dashboard\/projects\/[0-9a-f-]{36}\//);
  return new URL(page.url()).pathname.split('/')[3]!;
}

/** Opens a customer on the Payments page (the customer form: type and id, then Show customer). */
export async function showPaymentsCustomer(page: Page, customerId: string, customerType: 'user' | 'team' | 'custom' = 'user') {
  await page.getByLabel('Type of customer', { exact: true }).selectOption(customerType);
  await page.getByLabel('Customer id', { exact: true }).fill(customerId);
  await page.getByRole('button', { name: 'Show customer' }).click();
}

/**
 * Saves a card as a customer's default payment method the way an account page does (setup intent, Stripe.js
 * confirms it on the stand-in, set-default), through the project's server API; resolves to the Stripe
 * customer and payment method ids.
 */
export async function saveDefaultCard(
  platform: DashboardPlatform,
  standIn: StripeStandIn,
  projectId: string,
  customer: { type: 'user' | 'team' | 'custom'; id: string },
  card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
): Promise<{ stripeCustomerId: string; paymentMethodId: string }> {
  const { server } = await platform.apiHeadersFor(projectId);
  const base = `${platform.url}/api/v1/payments/payment-method/${customer.type}/${customer.id}`;
  const setup = await fetch(`${base}/setup-intent`, { method: 'POST', headers: server, body: '{}' });
  expect(setup.status, await setup.clone().text()).toBe(200);
  const intent = standIn.objectsOf('setup_intent').at(-1)!;
  const paymentMethodId = standIn.succeedSetupIntent(intent.id, card);
  const set = await fetch(`${base}/set-default`, { method: 'POST', headers: server, body: JSON.stringify({ setup_intent_id: intent.id }) });
  expect(set.status, await set.clone().text()).toBe(200);
  return { stripeCustomerId: intent.customer as string, paymentMethodId };
}
