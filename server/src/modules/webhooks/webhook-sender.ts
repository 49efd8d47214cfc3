import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, hostOf, isNonPublicAddress } from './url-guard.ts';

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
  /** The first 1024 characters of the answer's body. */
  responseExcerpt: string;
  /** Why it failed, in words (null on success). */
  error: string | null;
};

const excerptLength = 1024;

/**
 * POSTs a JSON body to a webhook URL with a timeout over the whole exchange. Connections go only to
 * public addresses (checked when the host is resolved for this very connection) unless
 * `allowPrivate`; redirects are not followed.
 */
export function postWebhook(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMillis: number;
  allowPrivate: boolean;
}): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null = null, responseExcerpt = ''): PostOutcome => ({
    ok: false,
    status,
    latencyMillis: elapsed(),
    responseExcerpt,
    error,
  });
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return Promise.resolve(failed('not a valid URL'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(failed('the scheme must be http or https'));
  const host = hostOf(url);
  if (!options.allowPrivate && isIP(host) && isNonPublicAddress(host)) {
    return Promise.resolve(failed(`refused: ${host} is a private, loopback or link-local address`));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = send(
      url,
      {
        method: 'POST',
        headers: {
          ...options.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(options.body)),
          'user-agent': 'Gatehouse-Webhooks/1',
        },
        lookup: guardedLookup(options.allowPrivate) as never,
      },
      (response) => {
        let excerpt = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (excerpt.length < excerptLength) excerpt += chunk.slice(0, excerptLength - excerpt.length);
        });
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) finish({ ok: true, status, latencyMillis: elapsed(), responseExcerpt: excerpt, error: null });
          else finish(failed(`the endpoint answered ${status}`, status, excerpt));
        });
        response.on('error', (error) => finish(failed(`the answer broke off: ${error.message}`, status(response.statusCode), excerpt)));
      },
    );
    const timer = setTimeout(() => {
      finish(failed(`no answer within ${options.timeoutMillis} ms`));
      request.destroy();
    }, options.timeoutMillis);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish(failed(error.code === 'ENOTPUBLIC' ? `refused: ${error.message}` : `could not reach the endpoint: ${error.message}`));
    });
    request.end(options.body);
  });
}

const status = (code: number | undefined) => code ?? null;
