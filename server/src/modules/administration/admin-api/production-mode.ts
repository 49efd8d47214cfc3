import { ProjectChangeRefusedError } from '@gatehouse/protocol/errors';
import { isIP } from 'node:net';
import { isLocalHost } from '../../../lib/local-url.ts';
import type { ProjectConfig } from '../../../tenancy/project-config.ts';

/**
 * What production mode demands of a project's domains, in this order; the first failure is the
 * answer: the protocol's message, then a line with the fix link (documented in the spec's
 * ProjectUpdate.is_production_mode).
 */
export function assertProductionReady(projectId: string, config: ProjectConfig): void {
  const failure = (message: string) =>
    new ProjectChangeRefusedError({ reason: 'production_mode_domains' }, `${message}\nFix it at /projects/${projectId}/domains`);
  if (config.domains.allowLocalhost)
    throw failure("Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings");
  for (const { baseUrl } of Object.values(config.domains.trustedDomains)) {
    // Wildcards are allowed in the host; they parse as a label for this check.
    const url = URL.canParse(baseUrl.replaceAll('*', 'wildcard')) ? new URL(baseUrl.replaceAll('*', 'wildcard')) : null;
    if (!url) throw failure(`Trusted domain is not a valid URL: ${baseUrl}`);
    if (isLocalHost(url.hostname)) throw failure(`Localhost domains are not allowed to be trusted in production mode: ${baseUrl}`);
    if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0)
      throw failure(`Direct IPs are not valid for trusted domains in production mode: ${baseUrl}`);
    if (url.protocol !== 'https:') throw failure(`Trusted domains should be HTTPS: ${baseUrl}`);
  }
}
