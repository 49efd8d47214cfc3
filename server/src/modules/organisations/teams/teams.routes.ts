import { SchemaError, TeamIdRequiredError, TeamNotFoundError, UserAuthenticationRequiredError } from '@gatehouse/protocol/errors';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import type { PermissionService } from '../permissions/index.ts';
import { toServerUser } from '../../identity/users/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { TeamService, TeamWrite } from './team.service.ts';
import { toMemberProfile, toTeamView } from './team-views.ts';

/** Client access may not write the metadata only the server controls. */
function assertClientWritable(auth: RequestAuth, body: TeamWrite): void {
  if (auth.accessType !== 'client') return;
  const forbidden = (['client_read_only_metadata', 'server_metadata'] as const).filter((field) => body[field] !== undefined);
  if (forbidden.length > 0) {
    const message = forbidden.map((field) => `body/${field} may only be set with server or admin access`).join('\n');
    throw new SchemaError({ message }, message);
  }
}

type TeamServices = { teams: TeamService; permissions: PermissionService; users: UserService };

export function teamHandlers(services: TeamServices) {
  const { teams, permissions } = services;
  /** A team the caller may see: any on server access, only its own on client access. */
  const visibleTeam = async (auth: RequestAuth, teamId: string) => {
    const team = await teams.get(auth.project.id, teamId);
    if (auth.accessType === 'client' && !(auth.user && (await teams.isMember(auth.project.id, teamId, auth.user.record.id))))
      throw new TeamNotFoundError({ team_id: teamId });
    return team;
  };

  return {
    listTeams: async (request) => {
      const auth = authOf(request);
      const requested = request.query.user_id ?? (auth.accessType === 'client' ? 'me' : undefined);
      const userId = requested === undefined ? undefined : resolveUserId(auth, requested);
      const rows = await teams.list(auth.project.id, userId);
      return { items: rows.map((team) => toTeamView(auth.accessType, team)), is_paginated: false as const };
    },

    createTeam: async (request, reply) => {
      const auth = authOf(request);
      assertClientWritable(auth, request.body);
      const { creator_user_id: creator, ...write } = request.body;
      if (auth.accessType === 'client') {
        if (!auth.project.config.teams.allowClientTeamCreation)
          throw new PlainHttpError(403, 'Client team creation is not enabled for this project.');
        if (!auth.user) throw new UserAuthenticationRequiredError();
        if (creator !== undefined && creator !== 'me' && creator.toLowerCase() !== auth.user.record.id) {
          throw new PlainHttpError(403, 'Client access can only create teams with itself as the creator.');
        }
      }
      const creatorId =
        auth.accessType === 'client' ? auth.user?.record.id : creator === undefined ? undefined : resolveUserId(auth, creator);
      const team = await teams.create(auth.project, write, creatorId);
      reply.status(201);
      return toTeamView(auth.accessType, team);
    },

    getTeam: async (request) => {
      const auth = authOf(request);
      return toTeamView(auth.accessType, await visibleTeam(auth, request.params.team_id));
    },

    updateTeam: async (request) => {
      const auth = authOf(request);
      assertClientWritable(auth, request.body);
      await teams.get(auth.project.id, request.params.team_id);
      await requireTeamPermission(permissions, auth, request.params.team_id, '$update_team');
      return toTeamView(auth.accessType, await teams.update(auth.project.id, request.params.team_id, request.body));
    },

    deleteTeam: async (request) => {
      const auth = authOf(request);
      await teams.get(auth.project.id, request.params.team_id);
      await requireTeamPermission(permissions, auth, request.params.team_id, '$delete_team');
      await teams.delete(auth.project.id, request.params.team_id);
      return { success: true } as const;
    },

    createTeamMembership: async (request, reply) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.params.user_id);
      await teams.addMember(auth.project, request.params.team_id, userId);
      reply.status(201);
      return { team_id: request.params.team_id, user_id: userId };
    },

    deleteTeamMembership: async (request) => {
      const auth = authOf(request);
      const teamId = request.params.team_id;
      const userId = request.params.user_id === 'me' ? resolveUserId(auth, 'me') : request.params.user_id.toLowerCase();
      // Leaving needs nothing; removing someone else needs $remove_members.
      if (userId !== auth.user?.record.id) await requireTeamPermission(permissions, auth, teamId, '$remove_members');
      await teams.removeMember(auth.project.id, teamId, userId);
      return { success: true } as const;
    },

    listTeamMemberProfiles: async (request) => {
      const auth = authOf(request);
      const { team_id: teamId } = request.query;
      const userId =
        request.query.user_id === undefined
          ? undefined
          : request.query.user_id === 'me'
            ? resolveUserId(auth, 'me')
            : request.query.user_id.toLowerCase();
      if (auth.accessType === 'client') {
        if (!teamId) throw new TeamIdRequiredError();
        if (userId === undefined || userId !== auth.user?.record.id)
          await requireTeamPermission(permissions, auth, teamId, '$read_members');
      }
      const members = await teams.listMembers(auth.project.id, { teamId, userId });
      const items = await Promise.all(members.map((member) => profileView(services, auth, member)));
      return { items, is_paginated: false as const };
    },

    getTeamMemberProfile: async (request) => {
      const auth = authOf(request);
      const { team_id: teamId } = request.params;
      const userId = request.params.user_id === 'me' ? resolveUserId(auth, 'me') : request.params.user_id.toLowerCase();
      if (userId !== auth.user?.record.id) await requireTeamPermission(permissions, auth, teamId, '$read_members');
      return profileView(services, auth, await teams.getMember(auth.project.id, teamId, userId));
    },

    updateTeamMemberProfile: async (request) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.params.user_id);
      return profileView(services, auth, await teams.updateMemberProfile(auth.project.id, request.params.team_id, userId, request.body));
    },
  } satisfies Partial<OperationHandlers>;
}

async function profileView(services: TeamServices, auth: RequestAuth, member: Parameters<typeof toMemberProfile>[0]) {
  if (auth.accessType === 'client') return toMemberProfile(member);
  return { ...toMemberProfile(member), user: toServerUser(auth.project, await services.users.get(auth.project.id, member.user_id)) };
}
