import { errors as joseErrors, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { AccessTokenExpiredError, UnparsableAccessTokenError } from '@gatehouse/client/errors';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { signCompactJws } from '../signing-keys/sign-compact-jws.ts';
import type { SigningKeysService } from '../signing-keys/signing-keys.service.ts';
import { type AccessTokenClaims, type AccessTokenSubject, audienceFor, parseAudience } from './access-token-claims.ts';

export const accessTokenLifetimeSeconds = 10 * 60;

/** Signs and verifies ES256 access tokens with the project's derived keys. */
export class AccessTokenService {
  /** Verified tokens: an ECDSA verification per request is the costliest step of authentication. */
  private readonly verified = new TtlCache<string, AccessTokenClaims>(60_000, 100_000);

  constructor(
    private readonly signingKeys: SigningKeysService,
    private readonly publicUrl: string,
  ) {}

  async sign(subject: AccessTokenSubject, options: { lifetimeSeconds?: number; now?: number } = {}): Promise<string> {
    const { aud, audience, issuerPath } = audienceFor(subject.project_id, subject);
    const pair = this.signingKeys.keyPair(subject.project_id, audience);
    const now = Math.floor((options.now ?? Date.now()) / 1000);
    const claims = {
      ...subject,
      branch_id: 'main',
      role: 'authenticated',
      iss: new URL(`/api/v1/${issuerPath}/${subject.project_id}`, this.publicUrl).toString(),
      aud,
      iat: now,
      exp: now + (options.lifetimeSeconds ?? accessTokenLifetimeSeconds),
    } satisfies AccessTokenClaims;
    return signCompactJws({ alg: 'ES256', kid: pair.kid }, claims, pair.privateKey);
  }

  /**
   * Verifies signature, expiry and claim consistency. The token names its own project (audience);
   * the caller compares it with the project the request is for.
   */
  async verify(token: string): Promise<AccessTokenClaims> {
    const cached = this.verified.get(token);
    if (cached && cached.exp * 1000 > Date.now()) return cached;
    const claims = await this.verifyUncached(token);
    this.verified.set(token, claims);
    return claims;
  }

  private async verifyUncached(token: string): Promise<AccessTokenClaims> {
    let unverified: ReturnType<typeof decodeJwt>;
    try {
      decodeProtectedHeader(token);
      unverified = decodeJwt(token);
    } catch {
      throw new UnparsableAccessTokenError();
    }
    if (typeof unverified.aud !== 'string') throw new UnparsableAccessTokenError();
    const { projectId, audience } = parseAudience(unverified.aud);
    const pair = this.signingKeys.keyPair(projectId, audience);
    try {
      const { payload } = await jwtVerify(token, pair.publicKey, { algorithms: ['ES256'], audience: unverified.aud });
      const claims = payload as unknown as AccessTokenClaims;
      if (!hasConsistentClaims(claims, audience)) throw new UnparsableAccessTokenError();
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new AccessTokenExpiredError({
          expired_at_millis: typeof unverified.exp === 'number' ? unverified.exp * 1000 : null,
          project_id: projectId,
          user_id: typeof unverified.sub === 'string' ? unverified.sub : null,
          refresh_token_id: typeof unverified.refresh_token_id === 'string' ? unverified.refresh_token_id : null,
        });
      }
      if (error instanceof UnparsableAccessTokenError) throw error;
      throw new UnparsableAccessTokenError();
    }
  }
}

/** `:anon` ⇔ anonymous; `:restricted` ⇔ restricted and not anonymous; restricted ⇔ a reason. */
function hasConsistentClaims(claims: AccessTokenClaims, audience: 'normal' | 'anonymous' | 'restricted'): boolean {
  if (typeof claims.sub !== 'string' || typeof claims.project_id !== 'string') return false;
  if ((audience === 'anonymous') !== (claims.is_anonymous === true)) return false;
  if ((audience === 'restricted') !== (claims.is_restricted === true && claims.is_anonymous !== true)) return false;
  if (claims.is_anonymous && !claims.is_restricted) return false;
  return (claims.is_restricted === true) === (claims.restricted_reason !== null && typeof claims.restricted_reason === 'object');
}
