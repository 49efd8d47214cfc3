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

const maxBodyBytes = 1_000_000;

/**
 * A `fetch` for libraries that take one (openid-client's `customFetch`): the host is resolved once,
 * every address judged by the outbound policy, and the socket connects only there (no DNS
 * rebinding); redirects are not followed and bodies over 1 MB are cut off.
 */
export function guardedFetch(policy: OutboundPolicy, resolve?: HostResolver) {
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
      const outgoing = send(
        url,
        { method: init.method ?? 'GET', headers, lookup: pinnedLookup(target), signal: init.signal ?? undefined },
        (incoming) => {
          const chunks: Buffer[] = [];
          let size = 0;
          incoming.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBodyBytes) outgoing.destroy(new Error('answer too large'));
            else chunks.push(chunk);
          });
          incoming.on('end', () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              if (typeof value === 'string') responseHeaders.set(name, value);
              else if (Array.isArray(value)) for (const one of value) responseHeaders.append(name, one);
            }
            const status = incoming.statusCode ?? 502;
            const nullBody = status === 204 || status === 304;
            resolveResponse(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
          });
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
