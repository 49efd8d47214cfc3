import { errors as joseErrors, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { AccessTokenExpiredError, UnparsableAccessTokenError } from '@gatehouse/protocol/errors';
import { Port } from '../../../kernel/hook.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';
import { compactSigningInput, signCompactJws } from '../signing-keys/index.ts';
import type { SigningKeysService } from '../signing-keys/index.ts';
import {
  type AccessTokenClaims,
  type AccessTokenSubject,
  type ClaimsUser,
  audienceFor,
  parseAudience,
} from '../../../request-context/access-token-claims.ts';
import type { Project } from '../../../tenancy/project.ts';
import { accessTokenSubject } from './access-token-subject.ts';

export const accessTokenLifetimeSeconds = 10 * 60;

/** The claims a project's template (`auth.customClaims`, Gatehouse's own) adds for a user: provided by custom-claims. */
export type CustomClaimsSource = (project: Project, userId: string) => Promise<Record<string, unknown>>;
/** How long a verified (or just signed) token is remembered as valid without checking its signature again. */
export const verifiedTokenMemoryMs = 60_000;

/** Signs and verifies ES256 access tokens with the project's derived keys. */
export class AccessTokenService {
  /**
   * Verified tokens for a minute (or until they expire, if sooner), keyed by the whole token: an ECDSA
   * verification per request is the costliest step of authentication. The result depends on nothing
   * else (the keys are derived from the server secret); a deleted user is caught by the user lookup
   * that follows. Kept for a token's whole lifetime (10 minutes) instead, every token signed or seen
   * stayed ~2.5 KB of heap for 10 minutes: the 10-minute soak's growth (issue #20, heap snapshots:
   * +8 MB in 6 minutes, all of it this cache's tokens and claims). A token in use costs one verification
   * a minute; memory levels off after a minute, at a tenth of what it was.
   */
  private readonly verified = new TtlCache<string, AccessTokenClaims>(verifiedTokenMemoryMs, 10_000);
  /**
   * Signatures of the current second, by key id and payload: the same session refreshing several
   * times within one second (tabs, retries) gets one signature, over a payload (iat included) byte
   * for byte the one a new signature would cover.
   */
  private readonly recentlySigned = new TtlCache<string, Promise<string>>(1_000, 10_000);
  /** Issuer URLs by audience path and project: parsing a URL per signature is measurable on refresh. */
  private readonly issuers = new Map<string, string>();

  /** Asked only when the project has a template: a project without one mints with no extra work. */
  readonly customClaims = new Port<CustomClaimsSource>('the custom claims of access tokens');

  constructor(
    private readonly signingKeys: SigningKeysService,
    private readonly publicUrl: string,
  ) {}

  /**
   * The one place a user's access token is minted (every sign-in and every refresh): the claims of
   * `user` in `sessionId`, signed.
   */
  async mint(project: Project, user: ClaimsUser, sessionId: string): Promise<string> {
    const subject = accessTokenSubject(project, user, sessionId);
    if (!hasTemplate(project.config.auth.customClaims)) return this.sign(subject);
    return this.sign(subject, { extraClaims: await this.customClaims.provider(project, user.id) });
  }

  async sign(
    subject: AccessTokenSubject,
    options: { lifetimeSeconds?: number; now?: number; extraClaims?: Record<string, unknown> } = {},
  ): Promise<string> {
    const { aud, audience, issuerPath } = audienceFor(subject.project_id, subject);
    const pair = this.signingKeys.keyPair(subject.project_id, audience);
    const now = Math.floor((options.now ?? Date.now()) / 1000);
    const claims = {
      // First, so the protocol's claims always win (templates may not name them: custom-claims refuses it at save time).
      ...options.extraClaims,
      ...subject,
      branch_id: 'main',
      role: 'authenticated',
      iss: this.issuer(issuerPath, subject.project_id),
      aud,
      iat: now,
      exp: now + (options.lifetimeSeconds ?? accessTokenLifetimeSeconds),
    } satisfies AccessTokenClaims;
    const payload = JSON.stringify(claims);
    const signed = `${pair.kid}.${payload}`;
    let signing = this.recentlySigned.get(signed);
    if (!signing) {
      signing = signCompactJws(compactSigningInput({ alg: 'ES256', kid: pair.kid }, payload), pair.privateKey);
      this.recentlySigned.set(signed, signing);
    }
    let token: string;
    try {
      token = await signing;
    } catch (error) {
      this.recentlySigned.delete(signed);
      throw error;
    }
    // The client's next request carries this token: this instance need not verify what it signed.
    if (claims.exp * 1000 > Date.now() && hasConsistentClaims(claims, audience)) this.remember(token, claims);
    return token;
  }

  /** How many tokens are remembered as verified (a bounded number: see `verified`). */
  get rememberedTokenCount(): number {
    return this.verified.size;
  }

  /** Forgets the verified tokens of a project (deleted), or all of them. */
  forgetVerified(projectId: string | undefined): void {
    if (projectId === undefined) this.verified.clear();
    else this.verified.deleteWhere((_token, claims) => claims.project_id === projectId);
  }

  private remember(token: string, claims: AccessTokenClaims): void {
    this.verified.set(token, claims, Math.min(claims.exp * 1000 - Date.now(), verifiedTokenMemoryMs));
  }

  private issuer(issuerPath: string, projectId: string): string {
    const path = `/api/v1/${issuerPath}/${projectId}`;
    let issuer = this.issuers.get(path);
    if (issuer === undefined) {
      if (this.issuers.size >= 10_000) this.issuers.clear();
      issuer = new URL(path, this.publicUrl).toString();
      this.issuers.set(path, issuer);
    }
    return issuer;
  }

  /**
   * Verifies signature, expiry and claim consistency. The token names its own project (audience);
   * the caller compares it with the project the request is for.
   */
  async verify(token: string): Promise<AccessTokenClaims> {
    const cached = this.verified.get(token);
    if (cached && cached.exp * 1000 > Date.now()) return cached;
    const claims = await this.verifyUncached(token);
    this.remember(token, claims);
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

function hasTemplate(template: Record<string, string> | undefined): boolean {
  if (!template) return false;
  for (const _ in template) return true;
  return false;
}
