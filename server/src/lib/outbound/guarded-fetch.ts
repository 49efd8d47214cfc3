import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { OutboundPolicy } from './address-policy.ts';
import { type HostResolver, hostOfUrl, isRefusal, pinnedLookup, resolveOutboundTarget } from './outbound-target.ts';

/** Why a guarded fetch did not connect (the caller turns it into its own catalogued error). */
export class OutboundRefusedError extends Error {
  constructor(readonly reason: 'scheme' | 'unresolvable' | 'not_allowed') {
    super(`outbound request refused: ${reason}`);
  }
}

/** The answer was longer than the caller's limit (the connection was closed there). */
export class OutboundAnswerTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`outbound answer larger than ${limitBytes} bytes`);
  }
}

const defaultMaxBodyBytes = 1_000_000;

/**
 * A `fetch` for libraries that take one (openid-client's `customFetch`): the host is resolved once,
 * every address judged by the outbound policy, and the socket connects only there (no DNS
 * rebinding); redirects are not followed and bodies over `maxBodyBytes` (default 1 MB) are refused.
 */
export function guardedFetch(policy: OutboundPolicy, resolve?: HostResolver, { maxBodyBytes = defaultMaxBodyBytes } = {}) {
  return async (
    input: string | URL,
    init: { method?: string; headers?: HeadersInit; body?: unknown; signal?: AbortSignal | null } = {},
  ) => {
    const url = new URL(String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('scheme');
    const target = await resolveOutboundTarget(hostOfUrl(url), policy, resolve);
    if (isRefusal(target)) throw new OutboundRefusedError(target.refused);
    const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : Buffer.from(init.body instanceof URLSearchParams ? init.body.toString() : String(init.body));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolveResponse, reject) => {
      let tooLarge = false;
      // Whichever side reports the cut connection first, the reason is the size.
      const fail = (error: Error) => reject(tooLarge ? new OutboundAnswerTooLargeError(maxBodyBytes) : error);
      const outgoing = send(
        url,
        { method: init.method ?? 'GET', headers, lookup: pinnedLookup(target), signal: init.signal ?? undefined },
        (incoming) => {
          const chunks: Buffer[] = [];
          let size = 0;
          incoming.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= maxBodyBytes) chunks.push(chunk);
            else if (!tooLarge) {
              tooLarge = true;
              outgoing.destroy(new OutboundAnswerTooLargeError(maxBodyBytes));
            }
          });
          incoming.on('end', () => {
            if (tooLarge) return fail(new OutboundAnswerTooLargeError(maxBodyBytes));
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              if (typeof value === 'string') responseHeaders.set(name, value);
              else if (Array.isArray(value)) for (const one of value) responseHeaders.append(name, one);
            }
            const status = incoming.statusCode ?? 502;
            const nullBody = status === 204 || status === 304;
            resolveResponse(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
          });
          incoming.on('error', fail);
        },
      );
      outgoing.on('error', fail);
      outgoing.end(body);
    });
  };
}
