import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { judgeAddress, type OutboundPolicy } from './address-policy.ts';

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** Resolves a host name to its addresses (the system resolver; a test gives its own to point names anywhere). */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/**
 * Why an outbound connection was not made: `not_allowed` (the host is, or resolves to, an address
 * the policy refuses) or `unresolvable` (no address, or no answer from the resolver in time).
 */
export type OutboundRefusal = { refused: 'not_allowed'; range: string } | { refused: 'unresolvable' };

/** Where to connect: the addresses that were judged, and nothing else. */
export type OutboundTarget = { host: string; addresses: ResolvedAddress[] };

const resolveTimeoutMillis = 5_000;

/** The host of a URL as the resolver and `isIP` take it (IPv6 literals lose their brackets). */
export const hostOfUrl = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves a host once and judges every address it has: one refused address refuses the host (a
 * name with a public and a private record must not reach the private one). The caller connects to
 * these addresses only (`pinnedLookup`, or the address itself), so the name cannot be re-pointed
 * between the check and the connection (DNS rebinding).
 */
export async function resolveOutboundTarget(
  host: string,
  policy: OutboundPolicy,
  resolve: HostResolver = systemResolver,
): Promise<OutboundTarget | OutboundRefusal> {
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((done) => {
      timer = setTimeout(done, resolveTimeoutMillis, undefined);
    });
    const resolved = await Promise.race([resolve(host).catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
    if (!resolved || resolved.length === 0) return { refused: 'unresolvable' };
    addresses = resolved;
  }
  for (const { address } of addresses) {
    const verdict = judgeAddress(address, policy);
    if (!verdict.allowed) return { refused: 'not_allowed', range: verdict.range };
  }
  return { host, addresses };
}

export const isRefusal = (value: OutboundTarget | OutboundRefusal): value is OutboundRefusal => 'refused' in value;

/**
 * A `lookup` for node:net/http/https that answers only with a target's judged addresses: the
 * socket connects where the check said it may, with no second DNS query (Node skips `lookup` for
 * an IP literal, which is then the judged address itself).
 */
export function pinnedLookup(target: OutboundTarget): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname !== target.host) {
      callback(Object.assign(new Error('not the judged host'), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = target.addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    const first = usable[0];
    if (!first) callback(Object.assign(new Error('no address of that family'), { code: 'ENOTFOUND' }), '', 4);
    else if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}
