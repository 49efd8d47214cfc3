import type { AccessTokenSubject, ClaimsUser } from '../../../request-context/access-token-claims.ts';
import type { Project } from '../../../tenancy/project.ts';
import { restrictionOf } from '../../../tenancy/restriction.ts';

/** The access-token claims of a user in a session (docs/protocol/overview.md §5). */
export function accessTokenSubject(project: Project, user: ClaimsUser, sessionId: string): AccessTokenSubject {
  const restriction = restrictionOf(project, user);
  return {
    sub: user.id,
    project_id: project.id,
    refresh_token_id: sessionId,
    name: user.display_name,
    email: user.primary_email,
    email_verified: user.primary_email_verified ?? false,
    selected_team_id: user.selected_team_id,
    signed_up_at: Math.floor(user.signed_up_at.getTime() / 1000),
    is_anonymous: user.is_anonymous,
    is_restricted: restriction !== null,
    restricted_reason: restriction,
    requires_totp_mfa: user.totp_secret !== null,
  };
}
