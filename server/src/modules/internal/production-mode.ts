import { isIP } from 'node:net';
import { PlainHttpError } from '../../lib/plain-http-error.ts';
import type { ProjectConfig } from '../../tenancy/project-config.ts';

const localHost = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';

/**
 * What production mode demands of a project's domains, in this order; the first failure is the
 * answer (messages documented in the spec's ProjectUpdate.is_production_mode).
 */
export function assertProductionReady(projectId: string, config: ProjectConfig): void {
  const fix = `/projects/${projectId}/domains`;
  if (config.domains.allowLocalhost) {
    throw new PlainHttpError(400, `Production mode does not allow localhost callbacks: turn off "allow localhost" at ${fix}.`);
  }
  for (const { baseUrl } of Object.values(config.domains.trustedDomains)) {
    let url: URL;
    try {
      // Wildcards are allowed in the host; they parse as a label for this check.
      url = new URL(baseUrl.replaceAll('*', 'wildcard'));
    } catch {
      throw new PlainHttpError(400, `Trusted domain ${baseUrl} is not a valid URL: fix it at ${fix}.`);
    }
    if (localHost(url.hostname)) {
      throw new PlainHttpError(
        400,
        `Trusted domain ${baseUrl} points to localhost, which production mode does not allow: remove it at ${fix}.`,
      );
    }
    if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) {
      throw new PlainHttpError(
        400,
        `Trusted domain ${baseUrl} is an IP address; production mode needs a domain name: change it at ${fix}.`,
      );
    }
    if (url.protocol !== 'https:')
      throw new PlainHttpError(400, `Trusted domain ${baseUrl} must use HTTPS in production mode: change it at ${fix}.`);
  }
}
