import { createHash } from 'node:crypto';

/**
 * SHA-256 hex digest of a high-entropy secret (API keys, refresh tokens, verification codes). With
 * ≥ 195 random bits there is no dictionary to attack, so a fast digest is a safe verifier and can be
 * looked up by index.
 */
export const digestSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
