import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * The example CLI (examples/cli) as a person uses it: it prints the confirmation URL and polls every
 * 2 s; the person, signed in in Chromium, confirms; the CLI ends signed in as that person.
 */
const env = withDemoInChromium();
const configDir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

function runCli(): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const main = resolve(import.meta.dirname, '../../cli/src/main.ts');
  const { projectId, publishableClientKey } = {
    projectId: env.platform.project.project.id,
    publishableClientKey: env.platform.project.keys.publishable_client_key,
  };
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      main,
      '--base-url',
      env.platform.url,
      '--project-id',
      projectId,
      '--publishable-key',
      publishableClientKey,
      '--no-browser',
      '--config-dir',
      configDir,
    ],
    { cwd: resolve(import.meta.dirname, '../../cli'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output, exited: new Promise((done) => child.on('exit', done)) };
}

describe('CLI login in Chromium', () => {
  it('signs the CLI in once the person confirms in the browser', { timeout: 90_000 }, async () => {
    const shot = screenshots('cli-login');
    const linus = await createPasswordUser(env.platform, 'linus');
    const cli = runCli();
    await expect.poll(() => cli.output(), { timeout: 20_000 }).toMatch(/cli-auth-confirm\?login_code=/);
    const confirmUrl = cli.output().match(/https?:\/\/\S+\/handler\/cli-auth-confirm\?login_code=\S+/)![0];

    // Signed out, the page sends the person to sign in and back.
    const page = await env.browser.newPage();
    await page.goto(confirmUrl);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/sign-in');
    await submitPasswordSignIn(page, linus);
    await expect.poll(() => page.getByRole('heading', { name: 'Authorize the CLI' }).isVisible()).toBe(true);
    await shot(page, 'confirm');
    // The CLI is still waiting: nothing happens without the click.
    expect(cli.output()).not.toMatch(/Signed in as/);
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('You can close this window');
    await shot(page, 'authorized');

    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain(`Signed in as ${linus.email}.`);
    const saved = JSON.parse(readFileSync(join(configDir, `${env.platform.project.project.id}.json`), 'utf8')) as { refresh_token: string };
    // The saved session is a real one: it refreshes into an access token of that user.
    const refreshed = await fetch(`${env.platform.url}/api/v1/auth/sessions/current/refresh`, {
      method: 'POST',
      headers: { ...env.platform.project.headers.client, 'x-stack-refresh-token': saved.refresh_token },
    });
    expect(refreshed.status).toBe(200);
  });
});
