import { defineModule } from '../../../kernel/module.ts';
import { emailModule } from '../../messaging/email/index.ts';
import { eventsModule } from '../../platform/events/index.ts';
import { permissionsModule } from '../permissions/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { verificationCodesModule } from '../../authentication/verification-codes/index.ts';
import { TeamInvitationService } from './team-invitation.service.ts';
import { teamInvitationHandlers } from './team-invitations.routes.ts';
import { TeamService } from './team.service.ts';
import { toClientTeam, toServerTeam } from './team-views.ts';
import { teamHandlers } from './teams.routes.ts';

/** Teams, memberships with their profiles, email invitations; the personal team of a new user. */
export const teamsModule = defineModule({
  name: 'teams',
  requires: [eventsModule, usersModule, permissionsModule, verificationCodesModule, emailModule],
  services: ({ events, users, permissions, verificationCodes, email }, { db }) => {
    const teams = new TeamService(db, events, users, permissions, verificationCodes);
    users.teams.provide({
      isMember: (trx, projectId, teamId, userId) => teams.isMember(projectId, teamId, userId, trx),
      views: async (projectId, teamIds) =>
        new Map(
          (await teams.getMany(projectId, teamIds)).map((team) => [team.id, { client: toClientTeam(team), server: toServerTeam(team) }]),
        ),
    });
    permissions.membership.provide((trx, projectId, teamId, userId) => teams.isMember(projectId, teamId, userId, trx));
    // A personal team on sign-up, selected, when the project asks (anonymous users get none).
    users.created.subscribe(async (trx, project, user) => {
      if (!project.config.teams.createPersonalTeamOnSignUp || user.is_anonymous) return;
      const name = user.display_name ? `${user.display_name}'s Team` : 'Personal Team';
      const team = await teams.create(project, { display_name: name }, user.id, trx);
      await users.selectTeam(trx, project.id, user.id, team.id);
    });
    return { teams, invitations: new TeamInvitationService(teams, users, verificationCodes, email) };
  },
  handlers: (services) => ({ ...teamHandlers(services), ...teamInvitationHandlers(services) }),
});

// The module's public surface: what other modules may import (through this file only).
export type { TeamService } from './team.service.ts';
