import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';

/**
 * The secrets inside a project's config override (the own SMTP server's `password`, each OAuth
 * provider's `clientSecret`, the bot challenge's `secretKey`) are stored sealed (lib/at-rest-cipher.ts), whether the override names
 * them nested (`{"emails.server": {"password": …}}`) or by a dotted key (`"emails.server.password"`).
 * Sealed as the row is written, opened as it is read: the rest of the server, and an admin reading
 * the override back, see the plain value.
 */
const secretKeys = new Set(['password', 'clientSecret', 'secretKey']);
const place = 'project.config_override';

const isSecretKey = (key: string) => secretKeys.has(key.slice(key.lastIndexOf('.') + 1));

function mapSecrets(value: unknown, change: (secret: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapSecrets(item, change));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      isSecretKey(key) && typeof inner === 'string' && inner !== '' ? change(inner) : mapSecrets(inner, change),
    ]),
  );
}

export const sealConfigSecrets = (cipher: AtRestCipher, override: Record<string, unknown>): Record<string, unknown> =>
  mapSecrets(override, (secret) => cipher.seal(cipher.open(secret, place), place)) as Record<string, unknown>;

export const openConfigSecrets = (cipher: AtRestCipher, override: Record<string, unknown>): Record<string, unknown> =>
  mapSecrets(override, (secret) => cipher.open(secret, place)) as Record<string, unknown>;

/** Whether every secret of a stored override is sealed under the current key (false: a re-seal is due). */
export function configSecretsCurrent(cipher: AtRestCipher, override: Record<string, unknown>): boolean {
  let current = true;
  mapSecrets(override, (secret) => {
    if (!cipher.isCurrent(secret)) current = false;
    return secret;
  });
  return current;
}
