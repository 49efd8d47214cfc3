import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { PermissionService } from '../permissions/index.ts';
import type { TeamInvitationService } from './team-invitation.service.ts';
import type { TeamService } from './team.service.ts';
import type { UserService } from '../../identity/users/index.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import { UserAuthenticationRequiredError } from '@gatehouse/protocol/errors';
import { requireTeamPermission } from '../permissions/index.ts';

export function teamInvitationHandlers(services: {
  teams: TeamService;
  invitations: TeamInvitationService;
  permissions: PermissionService;
  users: UserService;
}) {
  const { invitations, permissions } = services;
  return {
    sendTeamInvitation: async (request) => {
      const auth = authOf(request);
      const { team_id: teamId, email, callback_url: callbackUrl } = request.body;
      if (auth.accessType === 'client' && !auth.user) throw new UserAuthenticationRequiredError();
      await services.teams.get(auth.project.id, teamId);
      await requireTeamPermission(permissions, auth, teamId, '$invite_members');
      return { success: true as const, id: await invitations.send(auth.project, teamId, email, callbackUrl) };
    },

    listTeamInvitations: async (request) => {
      const auth = authOf(request);
      await services.teams.get(auth.project.id, request.query.team_id);
      await requireTeamPermission(permissions, auth, request.query.team_id, '$read_members');
      await requireTeamPermission(permissions, auth, request.query.team_id, '$invite_members');
      return { items: await invitations.list(auth.project.id, request.query.team_id), is_paginated: false as const };
    },

    deleteTeamInvitation: async (request) => {
      const auth = authOf(request);
      await requireTeamPermission(permissions, auth, request.query.team_id, '$remove_members');
      await invitations.revoke(auth.project.id, request.query.team_id, request.params.invitation_id);
      return { success: true } as const;
    },

    acceptTeamInvitation: async (request) => {
      const auth = authOf(request);
      await invitations.accept(auth.project, auth.user?.record as UserRecord, request.body.code);
      return {};
    },

    acceptTeamInvitationById: async (request) => {
      const auth = authOf(request);
      const user = await services.users.get(auth.project.id, resolveUserId(auth, request.query.user_id));
      await invitations.acceptById(auth.project, user, request.params.invitation_id);
      return {};
    },

    checkTeamInvitationCode: async (request) => {
      await invitations.check(authOf(request).project, request.body.code);
      return { is_code_valid: true } as const;
    },

    getTeamInvitationDetails: async (request) => invitations.details(authOf(request).project, request.body.code),
  } satisfies Partial<OperationHandlers>;
}
