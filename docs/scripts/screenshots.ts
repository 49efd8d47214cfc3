import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchChromium } from '../../examples/demo/e2e/chromium.ts';

/**
 * Takes the README's screenshots in headless Chromium from a running platform (`pnpm start`):
 * `GATEHOUSE_URL=http://localhost:8102 pnpm exec tsx docs/scripts/screenshots.ts`. It signs a new owner
 * up on the dashboard, creates a project with a few users, and writes `docs/public/screenshots/*.png`.
 */
const url = process.env.GATEHOUSE_URL ?? 'http://localhost:8102';
const out = resolve(import.meta.dirname, '../public/screenshots');
mkdirSync(out, { recursive: true });

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
page.setDefaultTimeout(60_000);

await page.goto(`${url}/handler/sign-in`);
await page.getByLabel('Email', { exact: true }).waitFor();
await page.screenshot({ path: join(out, 'sign-in.png') });

const owner = `owner-${Date.now()}@example.com`;
await page.goto(`${url}/dashboard/handler/sign-up`);
await page.getByLabel('Email', { exact: true }).fill(owner);
await page.getByLabel('Password', { exact: true }).fill('owner-password-1');
await page.getByLabel('Repeat password', { exact: true }).fill('owner-password-1');
await page.getByRole('button', { name: 'Sign up' }).click();
await page.waitForURL(/\/dashboard\/projects$/);
await page.getByRole('link', { name: 'Create project' }).click();
await page.getByLabel('Project name', { exact: true }).fill('Acme');
await page.getByLabel('Owner team', { exact: true }).selectOption({ label: '+ A new team…' });
await page.getByLabel('New team name', { exact: true }).fill('Acme team');
await page.getByRole('button', { name: 'Create project' }).click();
await page.waitForURL(/\/dashboard\/projects\/[0-9a-f-]{36}\//);
const projectPath = new URL(page.url()).pathname.split('/').slice(0, 4).join('/');
await page.goto(`${url}${projectPath}/users`);
for (const name of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) {
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email', { exact: true }).fill(`${name.split(' ')[0]!.toLowerCase()}@example.com`);
  await dialog.getByLabel('Display name', { exact: true }).fill(name);
  await dialog.getByRole('button', { name: 'Create user' }).click();
  // The user's page opens; back to the list for the next one.
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.goto(`${url}${projectPath}/users`);
}
await page.getByText('Alan Turing').first().waitFor();
await page.screenshot({ path: join(out, 'dashboard.png') });
await browser.close();
console.log(`screenshots written to ${out}`);
