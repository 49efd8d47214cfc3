import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (issue #30): values a database dump must not show in clear (webhook signing
 * secrets, SMTP passwords, OAuth client secrets) are stored sealed with AES-256-GCM under a key the
 * database does not hold: `ENCRYPTION_KEY` when set, else one derived from the server secret (which
 * production takes from SERVER_SECRET / SERVER_SECRET_FILE, never from the database).
 *
 * A sealed value is `enc:v1:<key id>:<base64url(iv ‖ ciphertext ‖ tag)>`; the key id (8 hex digits of
 * an HMAC of the key) names the key that sealed it, so after a rotation (the new key in
 * ENCRYPTION_KEY, the old ones in ENCRYPTION_KEYS_PREVIOUS) old values still open and the re-seal job
 * moves them to the new key. The value's place (`webhook_endpoint.secret`…) is the additional data:
 * a sealed value copied into another column does not open there. A value without the prefix is one
 * written before sealing existed: it opens as itself until the re-seal job seals it.
 */
const prefix = 'enc:v1:';
const ivBytes = 12;
const tagBytes = 16;

export type EncryptionKeys = { current?: string; previous?: readonly string[] };

const keyIdOf = (key: Buffer) => createHmac('sha256', key).update('gatehouse at-rest key id').digest('hex').slice(0, 8);
/** A configured key: any string of 32+ characters, hashed to 32 bytes (as SERVER_SECRET is). */
function configuredKey(value: string, name: string): Buffer {
  if (value.length < 32) throw new Error(`${name} must be at least 32 characters`);
  return createHash('sha256').update(value).digest();
}

export class AtRestCipher {
  private readonly current: { id: string; key: Buffer };
  private readonly byId = new Map<string, Buffer>();

  constructor(serverSecret: Buffer, keys: EncryptionKeys = {}) {
    const current = keys.current
      ? configuredKey(keys.current, 'ENCRYPTION_KEY')
      : Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'gatehouse at-rest encryption v1', 32));
    this.current = { id: keyIdOf(current), key: current };
    for (const key of [current, ...(keys.previous ?? []).map((value) => configuredKey(value, 'ENCRYPTION_KEYS_PREVIOUS'))])
      this.byId.set(keyIdOf(key), key);
  }

  /** What every value sealed under the current key starts with (for finding the others in SQL). */
  get currentPrefix(): string {
    return `${prefix}${this.current.id}:`;
  }

  /** Whether a stored value is sealed under the current key (false: plaintext, or an older key). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${prefix}${this.current.id}:`);
  }

  seal(plain: string, place: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv).setAAD(Buffer.from(place));
    const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${prefix}${this.current.id}:${sealed.toString('base64url')}`;
  }

  /** The plaintext of a stored value; a value from before sealing is returned as it is. */
  open(stored: string, place: string): string {
    if (!stored.startsWith(prefix)) return stored;
    const [keyId, body] = stored.slice(prefix.length).split(':');
    const key = keyId ? this.byId.get(keyId) : undefined;
    if (!key || !body)
      throw new Error(`${place}: sealed under an unknown key (${keyId}); is ENCRYPTION_KEY / ENCRYPTION_KEYS_PREVIOUS set?`);
    const data = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, ivBytes)).setAAD(Buffer.from(place));
    decipher.setAuthTag(data.subarray(data.length - tagBytes));
    return Buffer.concat([decipher.update(data.subarray(ivBytes, data.length - tagBytes)), decipher.final()]).toString('utf8');
  }

  /** `seal` for a nullable column. */
  sealNullable(plain: string | null, place: string): string | null {
    return plain === null ? null : this.seal(plain, place);
  }

  openNullable(stored: string | null, place: string): string | null {
    return stored === null ? null : this.open(stored, place);
  }
}

/** The keys as the environment gives them (ENCRYPTION_KEY or ENCRYPTION_KEY_FILE, ENCRYPTION_KEYS_PREVIOUS comma-separated). */
export function readEncryptionKeys(env: NodeJS.ProcessEnv, readFile: (path: string) => string): EncryptionKeys {
  const current = env.ENCRYPTION_KEY || (env.ENCRYPTION_KEY_FILE ? readFile(env.ENCRYPTION_KEY_FILE).trim() : undefined);
  const previous = (env.ENCRYPTION_KEYS_PREVIOUS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  return { current: current || undefined, previous };
}
