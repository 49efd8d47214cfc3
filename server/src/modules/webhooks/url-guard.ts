import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The server-side request forgery guard of webhook URLs: an endpoint must be http(s) and reach only
 * public addresses. Private, loopback, link-local, unique-local, CGNAT, benchmark, multicast,
 * reserved and unspecified ranges are refused unless the project allows localhost.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, v4-mapped included) is outside the public internet. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return nonPublic.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return nonPublic.check(mapped[1], 'ipv4');
  return nonPublic.check(address, 'ipv6');
}

export type UrlCheck = { allowed: true; url: URL } | { allowed: false; reason: string };

/** The host of a URL as `dns.lookup` and `isIP` take it (IPv6 literals lose their brackets). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks a webhook URL: its scheme and every address its host resolves to. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: false, reason: 'the scheme must be http or https' };
  if (allowPrivate) return { allowed: true, url };
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      return { allowed: false, reason: `the host ${host} does not resolve` };
    }
  }
  const refused = addresses.find(isNonPublicAddress);
  if (refused !== undefined)
    return { allowed: false, reason: `the host resolves to a private, loopback or link-local address (${refused})` };
  return { allowed: true, url };
}

/**
 * A `lookup` for node:http(s) requests that refuses non-public addresses at connection time, so a
 * host that resolved to a public address when checked cannot be re-pointed at an internal one.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (error: NodeJS.ErrnoException | null, address: string | Array<{ address: string; family: number }>, family?: number) => void,
  ): void => {
    lookup(hostname, { all: true, verbatim: true }).then(
      (entries) => {
        const usable = allowPrivate ? entries : entries.filter((entry) => !isNonPublicAddress(entry.address));
        if (usable.length === 0 || usable.length !== entries.length) {
          callback(Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'ENOTPUBLIC' }), '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]?.address ?? '', usable[0]?.family ?? 4);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
