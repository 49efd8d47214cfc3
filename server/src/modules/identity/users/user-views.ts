import type { components } from '@gatehouse/protocol/api-types';
import type { Project } from '../../../tenancy/project.ts';
import { restrictionOf } from '../../../tenancy/restriction.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';

type ServerUser = components['schemas']['ServerUser'];
type ClientCurrentUser = components['schemas']['ClientCurrentUser'];

/** A team as the user views embed it (`selected_team`). */
export type TeamView = { client: components['schemas']['ClientTeam']; server: components['schemas']['ServerTeam'] };

/** `selectedTeam` is the view of `user.selected_team_id`, when the caller loaded it. */
export function toServerUser(project: Project, user: UserRecord, selectedTeam?: TeamView): ServerUser {
  const restriction = restrictionOf(project, user);
  const hasPassword = user.password_hash !== null;
  return {
    id: user.id,
    primary_email: user.primary_email,
    primary_email_verified: user.primary_email_verified ?? false,
    primary_email_auth_enabled: user.primary_email_auth_enabled ?? false,
    display_name: user.display_name,
    selected_team: selectedTeam?.server ?? null,
    selected_team_id: user.selected_team_id,
    profile_image_url: user.profile_image_url,
    signed_up_at_millis: user.signed_up_at.getTime(),
    has_password: hasPassword,
    otp_auth_enabled: user.otp_auth_enabled,
    passkey_auth_enabled: user.has_passkey,
    client_metadata: user.client_metadata ?? null,
    client_read_only_metadata: user.client_read_only_metadata ?? null,
    server_metadata: user.server_metadata ?? null,
    last_active_at_millis: user.last_active_at.getTime(),
    is_anonymous: user.is_anonymous,
    is_restricted: restriction !== null,
    restricted_reason: restriction,
    restricted_by_admin: user.restricted_by_admin,
    restricted_by_admin_reason: user.restricted_by_admin ? user.restricted_by_admin_reason : null,
    restricted_by_admin_private_details: user.restricted_by_admin ? user.restricted_by_admin_private_details : null,
    country_code: user.country_code,
    risk_scores: (user.risk_scores as ServerUser['risk_scores'] | null) ?? { sign_up: { bot: 0, free_trial_abuse: 0 } },
    oauth_providers: user.oauth_providers,
    auth_with_email: (hasPassword || user.otp_auth_enabled) && (user.primary_email_auth_enabled ?? false),
    requires_totp_mfa: user.totp_secret !== null,
    language: user.language as ServerUser['language'],
  };
}

/** The client's view of itself: the server view without server-only fields. */
export function toClientCurrentUser(project: Project, user: UserRecord, selectedTeam?: TeamView): ClientCurrentUser {
  const {
    server_metadata: _serverMetadata,
    last_active_at_millis: _lastActive,
    primary_email_auth_enabled: _authEnabled,
    restricted_by_admin_private_details: _privateDetails,
    country_code: _country,
    risk_scores: _risk,
    ...client
  } = toServerUser(project, user);
  return { ...client, selected_team: selectedTeam?.client ?? null };
}
