import type { UserRecord } from '../tenancy/user-record.ts';

/** The 17 claims every access token carries (docs/protocol/overview.md §5); the Stack SDKs need all of them. */
export type RestrictedReason = { type: 'anonymous' | 'email_not_verified' | 'restricted_by_administrator' };

export type AccessTokenClaims = {
  sub: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  project_id: string;
  branch_id: string;
  refresh_token_id: string;
  role: 'authenticated';
  name: string | null;
  email: string | null;
  email_verified: boolean;
  selected_team_id: string | null;
  signed_up_at: number;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: RestrictedReason | null;
  requires_totp_mfa: boolean;
};

export type AccessTokenSubject = Omit<AccessTokenClaims, 'iat' | 'exp' | 'iss' | 'aud' | 'role' | 'branch_id'>;

/** The user columns the claims are made of (a refresh reads only these). */
export type ClaimsUser = Pick<
  UserRecord,
  | 'id'
  | 'project_id'
  | 'display_name'
  | 'primary_email'
  | 'primary_email_verified'
  | 'selected_team_id'
  | 'signed_up_at'
  | 'is_anonymous'
  | 'restricted_by_admin'
  | 'totp_secret'
>;

/** `project`, `project:anon` or `project:restricted`, as the claims demand. */
export function audienceFor(projectId: string, subject: Pick<AccessTokenClaims, 'is_anonymous' | 'is_restricted'>) {
  if (subject.is_anonymous) return { aud: `${projectId}:anon`, audience: 'anonymous' as const, issuerPath: 'projects-anonymous-users' };
  if (subject.is_restricted)
    return { aud: `${projectId}:restricted`, audience: 'restricted' as const, issuerPath: 'projects-restricted-users' };
  return { aud: projectId, audience: 'normal' as const, issuerPath: 'projects' };
}

/** Splits an audience claim back into project and audience kind. */
export function parseAudience(aud: string): { projectId: string; audience: 'normal' | 'anonymous' | 'restricted' } {
  if (aud.endsWith(':anon')) return { projectId: aud.slice(0, -5), audience: 'anonymous' };
  if (aud.endsWith(':restricted')) return { projectId: aud.slice(0, -11), audience: 'restricted' };
  return { projectId: aud, audience: 'normal' };
}
