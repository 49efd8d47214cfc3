import type { OperationHandlers } from '../../routing/operation-handlers.ts';
import type { Services } from '../../services.ts';
import { authOf } from '../auth/auth-of.ts';
import { resolveUserId } from '../auth/resolve-user-id.ts';

export function permissionHandlers(services: Services) {
  const { permissions } = services;
  const success = { success: true } as const;
  return {
    listTeamPermissions: async (request) => {
      const auth = authOf(request);
      const requested = request.query.user_id ?? (auth.accessType === 'client' ? 'me' : undefined);
      const rows = await permissions.listTeamGrants(auth.project.id, {
        teamId: request.query.team_id,
        userId: requested === undefined ? undefined : resolveUserId(auth, requested),
        permissionId: request.query.permission_id,
        recursive: request.query.recursive !== 'false',
      });
      return { items: rows, is_paginated: false as const };
    },
    createTeamPermission: async (request, reply) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.params.user_id);
      await permissions.grantTeam(auth.project.id, request.params.team_id, userId, request.params.permission_id);
      reply.status(201);
      return { id: request.params.permission_id, user_id: userId, team_id: request.params.team_id };
    },
    deleteTeamPermission: async (request) => {
      const auth = authOf(request);
      await permissions.revokeTeam(
        auth.project.id,
        request.params.team_id,
        resolveUserId(auth, request.params.user_id),
        request.params.permission_id,
      );
      return success;
    },
    listProjectPermissions: async (request) => {
      const auth = authOf(request);
      const requested = request.query.user_id ?? (auth.accessType === 'client' ? 'me' : undefined);
      const rows = await permissions.listProjectGrants(auth.project.id, {
        userId: requested === undefined ? undefined : resolveUserId(auth, requested),
        permissionId: request.query.permission_id,
        recursive: request.query.recursive !== 'false',
      });
      return { items: rows, is_paginated: false as const };
    },
    createProjectPermission: async (request, reply) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.params.user_id);
      await permissions.grantProject(auth.project.id, userId, request.params.permission_id);
      reply.status(201);
      return { id: request.params.permission_id, user_id: userId };
    },
    deleteProjectPermission: async (request) => {
      const auth = authOf(request);
      await permissions.revokeProject(auth.project.id, resolveUserId(auth, request.params.user_id), request.params.permission_id);
      return success;
    },
    listTeamPermissionDefinitions: async (request) => ({
      items: await permissions.listDefinitions(authOf(request).project.id, 'team'),
      is_paginated: false as const,
    }),
    createTeamPermissionDefinition: async (request, reply) => {
      reply.status(201);
      return permissions.createDefinition(authOf(request).project.id, 'team', request.body);
    },
    updateTeamPermissionDefinition: async (request) =>
      permissions.updateDefinition(authOf(request).project.id, 'team', request.params.permission_id, request.body),
    deleteTeamPermissionDefinition: async (request) => {
      await permissions.deleteDefinition(authOf(request).project.id, 'team', request.params.permission_id);
      return success;
    },
    listProjectPermissionDefinitions: async (request) => ({
      items: await permissions.listDefinitions(authOf(request).project.id, 'project'),
      is_paginated: false as const,
    }),
    createProjectPermissionDefinition: async (request, reply) => {
      reply.status(201);
      return permissions.createDefinition(authOf(request).project.id, 'project', request.body);
    },
    updateProjectPermissionDefinition: async (request) =>
      permissions.updateDefinition(authOf(request).project.id, 'project', request.params.permission_id, request.body),
    deleteProjectPermissionDefinition: async (request) => {
      await permissions.deleteDefinition(authOf(request).project.id, 'project', request.params.permission_id);
      return success;
    },
  } satisfies Partial<OperationHandlers>;
}
