import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshots } from '../../examples/demo/e2e/chromium.ts';
import { type StartedPlatform, startLikePnpmStart } from '../../examples/demo/e2e/pnpm-start.ts';
import { expectAccessible } from './dashboard-platform.ts';

/**
 * Issue #29's first five minutes, as one newcomer lives them: `pnpm start` on a fresh data directory, the
 * dashboard URL its banner prints, and from there only clicks and typing: the dashboard sends a signed-out
 * visitor to sign-in, sign-up is one link away, the demo project is theirs (development mode), a project
 * needs only a name, and "Connect your app" hands over the id, the keys and the code with copy buttons.
 */
let platform: StartedPlatform;
let browser: Browser;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startLikePnpmStart(), launchChromium()]);
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

describe('the dashboard from a fresh pnpm start', () => {
  it('open the printed URL, sign in by the redirect, sign up from there, see the demo project, create a project by name, connect the app', {
    timeout: 240_000,
  }, async () => {
    const shot = screenshots('dashboard-first-five-minutes');
    expect(platform.output()).toContain('the first owner to sign up there also becomes an owner of the demo project (development mode)');
    const dashboardUrl = platform.printedUrl('Dashboard');
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(dashboardUrl).origin });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    // The only URL typed: the one the banner printed. The dashboard itself sends a signed-out visitor to sign in.
    await page.goto(dashboardUrl);
    const signUpLink = page.getByRole('link', { name: 'Sign up', exact: true });
    await expect.poll(() => signUpLink.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/dashboard/handler/sign-in');
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe(dashboardUrl);
    await shot(page, 'sign-in-by-redirect');

    await signUpLink.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/handler/sign-up');
    const email = `newcomer-${randomUUID().slice(0, 8)}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('newcomer-password-1');
    await page.getByLabel('Repeat password', { exact: true }).fill('newcomer-password-1');
    await shot(page, 'sign-up');
    await page.getByRole('button', { name: 'Sign up' }).click();

    // Back where they started, signed in: the demo project the banner printed is theirs.
    const demo = page.getByRole('link', { name: 'Demo project', exact: true });
    await expect.poll(() => demo.isVisible(), { timeout: 20_000 }).toBe(true);
    const demoId = platform.output().match(/Demo project: (\S+)/)?.[1];
    expect(await page.getByRole('list', { name: 'Your projects' }).textContent()).toContain(demoId);
    await shot(page, 'projects-with-demo');

    // A name is all a project needs: the owner team is the one they already have.
    await page.getByRole('link', { name: 'Create project' }).click();
    await page.getByLabel('Project name', { exact: true }).fill('My first app');
    expect(await page.getByLabel('Owner team', { exact: true }).locator('option:checked').textContent()).toBe(`${email}'s team`);
    await shot(page, 'create-project');
    await page.getByRole('button', { name: 'Create project' }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'Connect your app', level: 1 }).isVisible(), { timeout: 20_000 }).toBe(true);
    const projectId = new URL(page.url()).pathname.match(/^\/dashboard\/projects\/([0-9a-f-]{36})\/connect$/)?.[1] as string;
    expect(projectId).toBeDefined();
    await shot(page, 'connect-your-app');
    await expectAccessible(page, 'Connect your app');

    await page.getByRole('button', { name: 'Copy the project id' }).click();
    await expect.poll(clipboard).toBe(projectId);
    await page.getByRole('button', { name: 'Copy the publishable client key' }).click();
    await expect.poll(clipboard).toMatch(/^pck_[a-z2-7]{45}$/);
    const publishableKey = await clipboard();
    await page.getByRole('button', { name: 'Copy the secret server key' }).click();
    await expect.poll(clipboard).toMatch(/^ssk_[a-z2-7]{45}$/);
    const secretKey = await clipboard();
    await page.getByRole('button', { name: 'Copy the React (@gatehouse/react) code' }).click();
    await expect.poll(clipboard).toContain(`projectId="${projectId}" publishableClientKey="${publishableKey}"`);
    await page.getByRole('button', { name: 'Copy the Server, Node (@stackframe/js) code' }).click();
    await expect.poll(clipboard).toContain(`projectId: '${projectId}'`);
    expect(await clipboard()).not.toContain(secretKey);

    // The copied keys are the project's: its API answers them.
    const origin = new URL(dashboardUrl).origin;
    const asClient = await fetch(`${origin}/api/v1/projects/current`, {
      headers: { 'x-stack-access-type': 'client', 'x-stack-project-id': projectId, 'x-stack-publishable-client-key': publishableKey },
    });
    expect(asClient.status).toBe(200);
    const asServer = await fetch(`${origin}/api/v1/users`, {
      headers: { 'x-stack-access-type': 'server', 'x-stack-project-id': projectId, 'x-stack-secret-server-key': secretKey },
    });
    expect(asServer.status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
