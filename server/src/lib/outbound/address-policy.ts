import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What a project's outbound connections (webhooks, its own SMTP server) may reach besides the public internet. */
export type OutboundPolicy = {
  /** The project allows localhost (`domains.allowLocalhost`): loopback (127.0.0.0/8, ::1) and nothing else private. */
  allowLoopback: boolean;
};

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

/**
 * Whether a connection may go to an IP address. Only ipaddr.js's `unicast` range (the public
 * internet) passes, and loopback when the policy allows it; every other range it knows is refused
 * whatever the policy says: private (10/8, 172.16/12, 192.168/16), link-local (169.254/16, where
 * cloud metadata answers; fe80::/10), CGNAT (100.64/10), unique-local (fc00::/7), multicast,
 * unspecified (0.0.0.0, ::), broadcast, reserved and documentation ranges, and every IPv6 form that
 * carries an IPv4 address (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4, Teredo), since
 * those can reach an internal IPv4 host by another spelling.
 */
export function judgeAddress(address: string, policy: OutboundPolicy): AddressVerdict {
  // Only the canonical spellings Node connects to count as addresses (no octal or hex forms here).
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return { allowed: false, range: 'not an IP address' };
  const range = ipaddr.parse(address).range();
  if (range === 'unicast') return { allowed: true };
  if (range === 'loopback' && policy.allowLoopback) return { allowed: true };
  return { allowed: false, range };
}
