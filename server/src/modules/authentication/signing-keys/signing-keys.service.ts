import { TtlCache } from '../../../lib/ttl-cache.ts';
import { type Audience, type SigningKeyPair, deriveKeyPair } from './derive-key-pair.ts';

/** Derived key pairs, cached: derivation costs an EC point multiplication. */
export class SigningKeysService {
  private readonly cache = new TtlCache<string, SigningKeyPair>(60 * 60 * 1000, 50_000);

  constructor(private readonly secret: Buffer) {}

  keyPair(projectId: string, audience: Audience): SigningKeyPair {
    const cacheKey = `${projectId}\u0000${audience}`;
    let pair = this.cache.get(cacheKey);
    if (!pair) {
      pair = deriveKeyPair(this.secret, projectId, audience);
      this.cache.set(cacheKey, pair);
    }
    return pair;
  }

  /** The JWKS of a project: normal keys, plus restricted and/or anonymous ones when asked. */
  publicJwks(projectId: string, options: { includeAnonymous: boolean; includeRestricted: boolean }) {
    const selected: Audience[] = ['normal'];
    if (options.includeRestricted || options.includeAnonymous) selected.push('restricted');
    if (options.includeAnonymous) selected.push('anonymous');
    return { keys: selected.map((audience) => this.keyPair(projectId, audience).publicJwk) };
  }
}
