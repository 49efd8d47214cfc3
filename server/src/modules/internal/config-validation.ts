import { PlainHttpError } from '../../lib/plain-http-error.ts';
import type { ProjectConfig } from '../projects/project-config.ts';
import { assertValidDomain } from './legacy-project-config.ts';
import { assertProductionReady } from './production-mode.ts';

const fail = (message: string): never => {
  throw new PlainHttpError(400, message);
};

/** The rules a rendered config must follow; the first broken one is the answer (plain 400). */
export function assertValidConfig(projectId: string, config: ProjectConfig, isProductionMode: boolean): void {
  for (const [id, provider] of Object.entries(config.auth.oauth.providers)) {
    if (provider.isShared === false || provider.type === 'standard') {
      if (!provider.clientId) fail(`OAuth provider ${id} uses its own keys: its client id is required.`);
      if (!provider.clientSecret) fail(`OAuth provider ${id} uses its own keys: its client secret is required.`);
    }
  }
  const server = config.emails.server;
  if (server.isShared === false) {
    if (!server.host) fail('The email server needs a host.');
    if (server.port === undefined || !Number.isInteger(server.port) || server.port < 0 || server.port > 65535)
      fail('The email server needs a port between 0 and 65535.');
    if (!server.username) fail('The email server needs a username.');
    if (!server.password) fail('The email server needs a password.');
    if (!server.senderName) fail('The email server needs a sender name.');
    if (!server.senderEmail || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(server.senderEmail)) fail('The email server needs a valid sender email.');
  }
  for (const { baseUrl, handlerPath } of Object.values(config.domains.trustedDomains)) {
    assertValidDomain(baseUrl);
    if (!handlerPath?.startsWith('/')) fail(`The handler path of ${baseUrl} must start with "/".`);
  }
  if (isProductionMode) assertProductionReady(projectId, config);
}

/** A config override must be a JSON object. */
export function parseOverride(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('config_override_string is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail('config_override_string must be a JSON object.');
  return parsed as Record<string, unknown>;
}
