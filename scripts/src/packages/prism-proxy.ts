import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { vi } from 'vitest';
import { freePort } from '../../../examples/demo/e2e/demo-platform.ts';

const prismCli = resolve(import.meta.dirname, '../../node_modules/@stoplight/prism-cli/dist/index.js');

export type PrismProxy = {
  /** Where to send requests: the document's paths below it (`{url}/users/me`). */
  url: string;
  /** Everything Prism printed so far. */
  log(): string;
  /** How many requests Prism passed on so far. */
  requestsReceived(): number;
  /** Prism's lines naming a request or response violation, so far. */
  violations(): string[];
  close(): void;
};

/**
 * Stoplight Prism (a validating proxy no one here wrote) in front of a running platform: it checks every
 * request against the document at `documentUrl` before passing it on to `upstream`, and every answer on its
 * way back, printing a line per violation. Prism matches a request's path against the document's paths and
 * appends it to the upstream, so the upstream is the server URL filled in (`{origin}/api/v1`).
 */
export async function startPrismProxy(documentUrl: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  let log = '';
  const prism = spawn(process.execPath, [prismCli, 'proxy', documentUrl, upstream, '--port', String(port), '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: '' },
  });
  const append = (chunk: Buffer) => {
    log += chunk.toString();
  };
  prism.stdout?.on('data', append);
  prism.stderr?.on('data', append);
  await vi.waitFor(
    () => {
      if (prism.exitCode !== null) throw new Error(`Prism exited:\n${log}`);
      if (!log.includes('Prism is listening')) throw new Error(`Prism has not started:\n${log}`);
    },
    { timeout: 120_000, interval: 200 },
  );
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    requestsReceived: () => log.match(/Request received/g)?.length ?? 0,
    violations: () => log.split('\n').filter((line) => /violation/i.test(line)),
    close: () => {
      prism.kill();
    },
  };
}
