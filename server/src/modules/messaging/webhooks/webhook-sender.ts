import type { Dispatcher } from 'undici';
import { Webhook } from 'standardwebhooks';
import type { OutboundPolicy } from '../../../lib/outbound/address-policy.ts';
import { type HostResolver, pinnedLookup } from '../../../lib/outbound/outbound-target.ts';
import { checkWebhookUrl } from './url-guard.ts';
import { loadUndici, type WebhookConnections } from './webhook-connections.ts';

/**
 * The Standard Webhooks headers of a message, signed with each secret given (the current one and,
 * during a rotation's grace period, the previous one: a receiver holding either verifies it).
 */
export function signedHeaders(messageId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}

export type PostOutcome = {
  /** The endpoint answered 2xx. */
  ok: boolean;
  /** The HTTP status, or null when there was no answer (timeout, refused address, connection error). */
  status: number | null;
  latencyMillis: number;
  /** Why it failed, one of a few fixed sentences (null on success). */
  error: string | null;
};

/**
 * The failures a caller may see. The receiver's body is never read back, and "no connection" and
 * "no answer in time" are one sentence: a project must not learn a port's state or an internal
 * service's answer through its webhooks (SSRF).
 */
export const postFailures = {
  notAllowed: (reason: string) => `The webhook URL is not allowed: ${reason}.`,
  status: (status: number) => `The endpoint answered HTTP ${status}.`,
  unreachable: (timeoutMillis: number) => `The endpoint could not be reached, or did not answer within ${timeoutMillis} ms.`,
};

/**
 * POSTs a JSON body to a webhook URL with a timeout over the whole exchange. The host is resolved
 * once and every address judged (see lib/outbound); the socket connects only to those addresses.
 * Redirects are not followed, and only the status of the answer is kept. With `connections` the
 * post goes over the endpoint's kept-alive pool (within its cap); without, over a connection of its own.
 */
export async function postWebhook(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMillis: number;
  policy: OutboundPolicy;
  resolve?: HostResolver;
  connections?: WebhookConnections;
}): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null = null): PostOutcome => ({ ok: false, status, latencyMillis: elapsed(), error });
  const check = await checkWebhookUrl(options.url, options.policy, options.resolve);
  if (!check.allowed) return failed(postFailures.notAllowed(check.reason));
  const { url, target } = check;
  const post = async (dispatcher: Dispatcher): Promise<PostOutcome> => {
    // The timeout starts here: a post waiting for its turn under the endpoint's cap has not started.
    const postStarted = performance.now();
    const signal = AbortSignal.timeout(Math.max(1, options.timeoutMillis - Math.round(postStarted - started)));
    try {
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          ...options.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(options.body)),
          'user-agent': 'Gatehouse-Webhooks/1',
        },
        body: options.body,
        signal,
      });
      // The status is all that is kept; the body is read to its end (bounded) and dropped, so the connection can be reused.
      await response.body.dump({ limit: 65_536, signal }).catch(() => undefined);
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { ok: true, status, latencyMillis: elapsed(), error: null };
      return failed(postFailures.status(status), status);
    } catch {
      return failed(postFailures.unreachable(options.timeoutMillis));
    }
  };
  if (options.connections) return options.connections.with(url, target, post);
  const { Client } = await loadUndici();
  const client = new Client(url.origin, { connect: { lookup: pinnedLookup(target) }, pipelining: 0 });
  try {
    return await post(client);
  } finally {
    client.destroy().catch(() => undefined);
  }
}
