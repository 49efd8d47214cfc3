import type { components } from '@gatehouse/protocol/api-types';
import type { TeamMemberRow, TeamRow } from './team.table.ts';
import type { AccessType } from '../../../request-context/access-type.ts';

type ServerTeam = components['schemas']['ServerTeam'];
type ClientTeam = components['schemas']['ClientTeam'];

export function toClientTeam(team: TeamRow): ClientTeam {
  return {
    id: team.id,
    display_name: team.display_name,
    profile_image_url: team.profile_image_url,
    client_metadata: team.client_metadata ?? null,
    client_read_only_metadata: team.client_read_only_metadata ?? null,
  };
}

/** The client view plus what only the server may read. */
export const toServerTeam = (team: TeamRow): ServerTeam => ({
  ...toClientTeam(team),
  server_metadata: team.server_metadata ?? null,
  created_at_millis: team.created_at.getTime(),
});

export const toTeamView = (accessType: AccessType, team: TeamRow) => (accessType === 'client' ? toClientTeam(team) : toServerTeam(team));

export const toMemberProfile = (member: TeamMemberRow) => ({
  team_id: member.team_id,
  user_id: member.user_id,
  display_name: member.display_name,
  profile_image_url: member.profile_image_url,
});
