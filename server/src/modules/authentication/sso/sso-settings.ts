import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';

/** Enterprise SSO's settings, read from the environment at start (a bad value stops it), or given by a test. */
export type SsoSettings = {
  /**
   * DNS servers that answer domain-verification TXT queries (DOMAIN_VERIFICATION_DNS_SERVERS, comma-separated
   * `host` or `host:port`); empty: the system's resolvers.
   */
  dnsServers: string[];
  /** Resolves host names for outbound requests to OpenID issuers and IdP metadata URLs (tests point names at loopback); default: the system's. */
  resolveHost?: HostResolver;
  /** How long reading an IdP's metadata URL may take (tests shorten it); default 10 seconds. */
  metadataTimeoutMillis?: number;
};

const server = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d{1,5})?$/;

export function readSsoSettings(environment: NodeJS.ProcessEnv): SsoSettings {
  const raw = environment.DOMAIN_VERIFICATION_DNS_SERVERS?.trim() ?? '';
  const dnsServers = raw === '' ? [] : raw.split(',').map((entry) => entry.trim());
  for (const entry of dnsServers) {
    if (!server.test(entry))
      throw new Error(
        `DOMAIN_VERIFICATION_DNS_SERVERS must list IP addresses with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53), not ${JSON.stringify(entry)}`,
      );
  }
  return { dnsServers };
}
