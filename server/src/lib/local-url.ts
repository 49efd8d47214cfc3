/**
 * Whether a URL host (as `URL.hostname` gives it) is local: `localhost`, a name ending in
 * `.localhost`, any `127.x.x.x` address, or the IPv6 loopback `[::1]`.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
