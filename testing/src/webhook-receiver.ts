import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string; at: number };

/**
 * A local HTTP receiver for webhook tests: records every request, answers with what `respond`
 * decides (200 by default), and can hold its answer to provoke timeouts.
 */
export async function startReceiver(
  respond: (received: ReceivedWebhook, index: number) => { status: number; body?: string; delayMillis?: number } = () => ({ status: 200 }),
) {
  const received: ReceivedWebhook[] = [];
  const waiters: Array<() => void> = [];
  // How the sender uses connections: how many it opened, and the most requests it had open at once.
  const usage = { connections: 0, inFlight: 0, maxInFlight: 0 };
  const server = createServer((request, response) => {
    usage.inFlight++;
    usage.maxInFlight = Math.max(usage.maxInFlight, usage.inFlight);
    response.on('close', () => {
      usage.inFlight--;
    });
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = { headers: request.headers, body, at: Date.now() };
      const index = received.push(entry) - 1;
      for (const wake of waiters.splice(0)) wake();
      const answer = respond(entry, index);
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(answer.status, { 'content-type': 'text/plain' });
        response.end(answer.body ?? 'ok');
      }, answer.delayMillis ?? 0);
    });
  });
  server.on('connection', () => {
    usage.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    usage,
    /** Waits until at least `count` requests arrived (or fails after `timeoutMillis`). */
    async waitFor(count: number, timeoutMillis = 15_000): Promise<ReceivedWebhook[]> {
      const deadline = Date.now() + timeoutMillis;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver got ${received.length} of ${count} requests`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
