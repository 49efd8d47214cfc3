import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

/** `pnpm start` as a newcomer runs it: a real process, its printed keys, a real HTTP call. */
const repoRoot = new URL('../..', import.meta.url).pathname;
const running: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of running) {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // already stopped
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<{ output: string; stop: () => Promise<void> }> {
  // Its own process group: pnpm → tsx → node all stop together.
  const child = spawn('pnpm', ['start'], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: 'pipe',
    detached: true,
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const poll = setInterval(() => {
      if (output.includes('curl -H')) {
        clearInterval(poll);
        clearTimeout(timer);
        setTimeout(resolve, 50);
      }
    }, 50);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    output,
    stop: async () => {
      child.removeAllListeners('exit');
      process.kill(-(child.pid as number), 'SIGTERM');
      // Stopped once the port refuses connections.
      for (let attempt = 0; attempt < 100; attempt++) {
        const open = await fetch(`http://127.0.0.1:${env.PORT}/api/v1/`).then(
          () => true,
          () => false,
        );
        if (!open) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('server did not stop');
    },
  };
}

const freePort = () => String(20_000 + Math.floor(Math.random() * 20_000));
const printed = (output: string, label: string) => output.match(new RegExp(`${label}\\s+(\\S+)`))?.[1] as string;

describe('pnpm start', () => {
  it('starts on PGlite, prints the demo project and its keys, and keeps them across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
    dirs.push(dataDir);
    const port = freePort();
    const first = await start({ DATA_DIR: dataDir, PORT: port });
    expect(first.output).toContain('PGlite in');
    const projectId = first.output.match(/Demo project: (\S+)/)?.[1] as string;
    const key = printed(first.output, 'publishable client key');
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
    expect(key).toMatch(/^pck_[a-z2-7]{45}$/);
    expect(first.output).toContain('Internal project: internal');

    const response = await fetch(`http://127.0.0.1:${port}/api/v1/projects/current`, {
      headers: { 'x-stack-access-type': 'client', 'x-stack-project-id': projectId, 'x-stack-publishable-client-key': key },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(projectId);
    // The demo project lets visitors start anonymously and says so; the internal project does not.
    const demoBlock = first.output.slice(first.output.indexOf('Demo project:'), first.output.indexOf('Internal project:'));
    expect(demoBlock).toContain('anonymous sign-up       on (new projects start with it off)');
    expect(first.output.slice(first.output.indexOf('Internal project:'))).toContain('anonymous sign-up       off');
    const anonymous = await fetch(`http://127.0.0.1:${port}/api/v1/auth/anonymous/sign-up`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-stack-access-type': 'client',
        'x-stack-project-id': projectId,
        'x-stack-publishable-client-key': key,
      },
      body: '{}',
    });
    expect(anonymous.status).toBe(200);
    // The demo project has its payments catalogue (test mode), so the example app's /shop works at once.
    const visitor = (await anonymous.json()) as { user_id: string; access_token: string };
    const credits = await fetch(`http://127.0.0.1:${port}/api/v1/payments/items/user/${visitor.user_id}/credits`, {
      headers: {
        'x-stack-access-type': 'client',
        'x-stack-project-id': projectId,
        'x-stack-publishable-client-key': key,
        'x-stack-access-token': visitor.access_token,
        'x-stack-allow-anonymous-user': 'true',
      },
    });
    expect(await credits.json()).toEqual({ id: 'credits', display_name: 'Credits', quantity: 0 });
    expect(JSON.parse(readFileSync(join(dataDir, 'demo-project.json'), 'utf8')).keys.publishable_client_key).toBe(key);
    await first.stop();

    const second = await start({ DATA_DIR: dataDir, PORT: port });
    expect(second.output).toContain(`Demo project: ${projectId}`);
    expect(printed(second.output, 'publishable client key')).toBe(key);
    await second.stop();
  }, 120_000);

  it('uses DATABASE_URL and the SEED_* values when given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
    dirs.push(dataDir);
    const port = freePort();
    const seed = {
      SEED_PROJECT_ID: '6f2b8f7e-3d0c-4b7a-9a55-1c2d3e4f5a6b',
      SEED_PUBLISHABLE_CLIENT_KEY: `pck_${'a'.repeat(45)}`,
      SEED_SECRET_SERVER_KEY: `ssk_${'b'.repeat(45)}`,
      SEED_SUPER_SECRET_ADMIN_KEY: `sak_${'c'.repeat(45)}`,
    };
    const server = await start({ DATA_DIR: dataDir, PORT: port, DATABASE_URL: inject('databaseUrl'), ...seed });
    expect(server.output).toContain('Postgres at');
    expect(server.output).toContain(`Demo project: ${seed.SEED_PROJECT_ID}`);
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/projects/current`, {
      headers: {
        'x-stack-access-type': 'server',
        'x-stack-project-id': seed.SEED_PROJECT_ID,
        'x-stack-secret-server-key': seed.SEED_SECRET_SERVER_KEY,
      },
    });
    expect(response.status).toBe(200);
    await server.stop();
  }, 120_000);
});
