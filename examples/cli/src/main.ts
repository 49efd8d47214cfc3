#!/usr/bin/env -S npx tsx
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliLogin } from './cli-login.ts';

/**
 * `pnpm --filter @gatehouse/example-cli login --project-id … --publishable-key …`
 * Opens the browser on the confirmation page (unless --no-browser), polls every 2 s, and saves the
 * session's refresh token to ~/.config/gatehouse-example-cli/<project>.json.
 */
const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: process.env.GATEHOUSE_URL ?? 'http://localhost:8102' },
    'app-url': { type: 'string' },
    'project-id': { type: 'string', default: process.env.GATEHOUSE_PROJECT_ID },
    'publishable-key': { type: 'string', default: process.env.GATEHOUSE_PUBLISHABLE_CLIENT_KEY },
    'no-browser': { type: 'boolean', default: false },
    'config-dir': { type: 'string', default: join(homedir(), '.config', 'gatehouse-example-cli') },
  },
});

const projectId = values['project-id'];
const publishableClientKey = values['publishable-key'];
if (!projectId || !publishableClientKey) {
  console.error(
    'Pass --project-id and --publishable-key (or GATEHOUSE_PROJECT_ID / GATEHOUSE_PUBLISHABLE_CLIENT_KEY); `pnpm start` prints them.',
  );
  process.exit(2);
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  // A machine without a browser still has the printed URL.
  spawn(command, [url], { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}

try {
  const result = await cliLogin({
    baseUrl: values['base-url'],
    appUrl: values['app-url'] ?? values['base-url'],
    projectId,
    publishableClientKey,
    showUrl: (url) => {
      console.log(`To sign in, open this page and confirm:\n  ${url}\nWaiting for confirmation…`);
      if (!values['no-browser']) openBrowser(url);
    },
  });
  mkdirSync(values['config-dir'], { recursive: true });
  const file = join(values['config-dir'], `${projectId}.json`);
  writeFileSync(file, JSON.stringify({ refresh_token: result.refreshToken }), { mode: 0o600 });
  console.log(`Signed in as ${result.email ?? result.userId}. Session saved in ${file}.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
