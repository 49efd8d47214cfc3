import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';

/** The repository's HAProxy configuration (the one the README shows). */
export const haproxyConfig = new URL('../../deploy/haproxy.cfg', import.meta.url).pathname;

/** A free TCP port on 127.0.0.1 (this file imports nothing of vitest: `pnpm bench` uses it too). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export type LoadBalancer = { port: number; baseUrl: string; child: ChildProcess; output: () => string; stop: () => Promise<void> };

/**
 * Debian's HAProxy on `deploy/haproxy.cfg`, in front of three instances (`host:port` each); resolves
 * once a request through it is answered by every instance, so all three are in the rotation.
 */
export async function startHaproxy(instances: [string, string, string], limitMs = 30_000): Promise<LoadBalancer> {
  const port = await freePort();
  const child = spawn('haproxy', ['-db', '-f', haproxyConfig], {
    env: {
      ...process.env,
      GATEHOUSE_LB_BIND: `127.0.0.1:${port}`,
      GATEHOUSE_INSTANCE_1: instances[0],
      GATEHOUSE_INSTANCE_2: instances[1],
      GATEHOUSE_INSTANCE_3: instances[2],
    },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  let ended: number | string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = code ?? signal ?? -1;
      resolve();
    }),
  );
  child.once('error', (error) => {
    output += String(error);
  });
  const stop = async () => {
    if (ended === undefined) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (ended === undefined) child.kill('SIGKILL');
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const seen = new Set<string>();
  while (seen.size < 3) {
    if (ended !== undefined) throw new Error(`haproxy exited with ${ended} (is it installed? apt-get install -y haproxy):\n${output}`);
    if (Date.now() - started > limitMs) {
      await stop();
      throw new Error(`haproxy did not reach all three instances within ${limitMs} ms (saw ${[...seen]}):\n${output}`);
    }
    const answer = await httpRequest(`${baseUrl}/api/v1/health`, { timeoutMs: 5_000 }).catch(() => undefined);
    if (answer?.status === 200 && answer.instance) seen.add(answer.instance);
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, baseUrl, child, output: () => output, stop };
}

export type HttpAnswer = { status: number; body: string; instance: string | undefined };

/**
 * One HTTP request on a new connection, from `localAddress` (any of 127.0.0.0/8: each is another
 * client IP for the per-IP limits, which the load balancer passes on in X-Forwarded-For); rejects
 * after `timeoutMs`. `instance` is the load balancer's X-Gatehouse-Instance.
 */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: { connection: 'close', ...options.headers },
        localAddress: options.localAddress,
        agent: false,
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          const instance = response.headers['x-gatehouse-instance'];
          resolve({ status: response.statusCode ?? 0, body, instance: Array.isArray(instance) ? instance[0] : instance });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
