import type { AppCall } from './app-call.ts';
import type { ApiKeyCreate, ClientTeamData, TeamInvitation, TeamMemberProfile, TeamUpdate } from './app-types.ts';
import { type TeamApiKey, type TeamApiKeyCreated, teamApiKey } from './user-resources.ts';
import * as op from '@gatehouse/protocol/operations';

/** What a client may change on a team (the metadata only the server writes is left out). */
export type ClientTeamUpdate = Pick<TeamUpdate, 'display_name' | 'profile_image_url' | 'client_metadata'>;

/**
 * A team of the signed-in user: its data, and what the user may do to it. Most operations need a
 * team permission (`$update_team`, `$invite_members`...) and fail with TeamPermissionRequiredError
 * otherwise.
 */
export type Team = ClientTeamData & {
  /** Needs `$update_team`. Resolves to the team as changed. */
  update(changes: ClientTeamUpdate): Promise<Team>;
  /** Needs `$delete_team`. */
  delete(): Promise<void>;
  /** Removes the signed-in user from the team. */
  leave(): Promise<void>;
  /** Needs `$read_members` (the user's own profile is always readable). */
  listMembers(): Promise<TeamMemberProfile[]>;
  /** The signed-in user's profile in this team (name and picture shown to the other members). */
  updateMyProfile(changes: { display_name?: string | null; profile_image_url?: string | null }): Promise<TeamMemberProfile>;
  /** Needs `$invite_members`; emails `callbackUrl?code=…`, which the invitee accepts with `user.acceptTeamInvitation(code)`. */
  inviteUser(options: { email: string; callbackUrl: string }): Promise<{ id: string }>;
  /** Needs `$read_members` and `$invite_members`. */
  listInvitations(): Promise<TeamInvitation[]>;
  /** Needs `$remove_members`. */
  revokeInvitation(invitationId: string): Promise<void>;
  /** Needs `$manage_api_keys`, and team API keys enabled for the project. */
  listApiKeys(): Promise<TeamApiKey[]>;
  createApiKey(key: ApiKeyCreate): Promise<TeamApiKeyCreated>;
};

export function clientTeam(call: AppCall, data: ClientTeamData): Team {
  const team_id = data.id;
  return {
    ...data,
    update: async (changes) => clientTeam(call, await call(op.updateTeam, { params: { team_id }, body: changes })),
    delete: async () => {
      await call(op.deleteTeam, { params: { team_id } });
    },
    leave: async () => {
      await call(op.deleteTeamMembership, { params: { team_id, user_id: 'me' } });
    },
    listMembers: async () => (await call(op.listTeamMemberProfiles, { query: { team_id } })).items,
    updateMyProfile: (changes) => call(op.updateTeamMemberProfile, { params: { team_id, user_id: 'me' }, body: changes }),
    inviteUser: async ({ email, callbackUrl }) => {
      const sent = await call(op.sendTeamInvitation, { body: { team_id, email, callback_url: callbackUrl } });
      return { id: sent.id };
    },
    listInvitations: async () => (await call(op.listTeamInvitations, { query: { team_id } })).items,
    revokeInvitation: async (invitationId) => {
      await call(op.deleteTeamInvitation, { params: { invitation_id: invitationId }, query: { team_id } });
    },
    listApiKeys: async () => (await call(op.listTeamApiKeys, { query: { team_id } })).items.map((key) => teamApiKey(call, key)),
    createApiKey: async (key) => teamApiKey(call, await call(op.createTeamApiKey, { body: { ...key, team_id } })),
  };
}
