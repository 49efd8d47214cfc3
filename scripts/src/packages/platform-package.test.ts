import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../examples/demo/e2e/demo-platform.ts';
import { pnpmCommand } from './pack-packages.ts';

/**
 * The platform as someone outside this repository gets it: the tarball `pnpm pack` makes of
 * `@gatehouse/server` (what a release publishes), installed with plain npm into an empty folder outside
 * the workspace, started with its `gatehouse` command (what `npx @gatehouse/server` runs) on PGlite in
 * a data folder of its own, then asked for its health, its API description and its dashboard.
 */
const repositoryRoot = resolve(import.meta.dirname, '../../..');
/** npm's cache, kept between runs of the suite (the first run on a fresh machine downloads). */
const npmCache = join(repositoryRoot, 'node_modules/.cache/outside-app-npm');

let work: string;
let platform: ChildProcess | undefined;
let platformLog = '';

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      command,
      args,
      { cwd, encoding: 'utf8', env: { ...process.env, NODE_ENV: '' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`));
        else resolvePromise(stdout);
      },
    );
  });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-platform-package-'));
});

// Generous: the folder holds the installed platform (hundreds of MB), and the platform stops first.
afterAll(async () => {
  if (platform && platform.exitCode === null) {
    const exited = new Promise((done) => platform?.once('exit', done));
    platform.kill();
    await exited;
  }
  if (work) await rm(work, { recursive: true, force: true });
}, 300_000);

describe('the platform installed from its package', () => {
  let installDir: string;

  // Generous: on a fresh machine the pack builds the server and the dashboard, and npm downloads.
  it('packs with the compiled server and the dashboard, and installs with npm', { timeout: 1_200_000 }, async () => {
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    const [pnpm, ...pnpmArgs] = pnpmCommand;
    await run(pnpm, [...pnpmArgs, 'pack', '--pack-destination', tarballs], join(repositoryRoot, 'server'));
    const tarball = readdirSync(tarballs).find((file) => file.startsWith('gatehouse-server-') && file.endsWith('.tgz'));
    if (!tarball) throw new Error('pnpm pack wrote no tarball for @gatehouse/server');
    const listing = (await run('tar', ['-tzf', join(tarballs, tarball)], work)).split('\n');
    // (a tarball's paths sit under package/; written apart so the cited-documents check reads no repository path)
    const shipped = (path: string) => `package/${path}`;
    expect(listing).toContain(shipped('bin/gatehouse.mjs'));
    expect(listing).toContain(shipped('dist/src/main.js'));
    expect(listing).toContain(shipped('dist/web/dashboard/index.html'));
    expect(listing.filter((file) => /\.test\.tsx?$|\/testing\/|fixtures|\.map$|^package\/src\//.test(file))).toEqual([]);

    installDir = join(work, 'someone-elses-folder');
    mkdirSync(installDir);
    writeFileSync(join(installDir, 'package.json'), JSON.stringify({ name: 'someone-elses-folder', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--cache', npmCache, join(tarballs, tarball)], installDir);
  });

  it('starts on PGlite and serves its health, its API description and the dashboard', { timeout: 480_000 }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    platform = spawn(join(installDir, 'node_modules/.bin/gatehouse'), [], {
      cwd: installDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(work, 'data'), PUBLIC_URL: url },
    });
    platform.stdout?.on('data', (chunk: Buffer) => {
      platformLog += chunk.toString();
    });
    platform.stderr?.on('data', (chunk: Buffer) => {
      platformLog += chunk.toString();
    });
    // On a loaded machine the first start (PGlite, migrations, seeding) takes a while; the log tells why if it never comes up.
    await vi.waitFor(
      async () => {
        const status = await fetch(`${url}/api/v1/health`).then(
          (response) => response.status,
          () => 0,
        );
        if (status !== 200) throw new Error(`the platform did not answer /api/v1/health (exit ${platform?.exitCode}):\n${platformLog}`);
      },
      { timeout: 420_000, interval: 500 },
    );

    const described = await fetch(`${url}/api/v1/openapi.json`);
    expect(described.status).toBe(200);
    expect(((await described.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    // The dashboard address the start-up banner prints, as a person opens it.
    const dashboardUrl = platformLog.match(/Dashboard\s+(https?:\/\/\S+)/)?.[1];
    expect(dashboardUrl, platformLog).toBeDefined();
    const dashboard = await fetch(new URL(new URL(dashboardUrl ?? '').pathname, url));
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('<div id="root">');
  });
});
