import type { FastifyReply } from 'fastify';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import type { Scope } from './permission.repository.ts';
import type { DefinitionWrite, PermissionService } from './permission.service.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';

export function permissionHandlers(services: { permissions: PermissionService }) {
  const { permissions } = services;
  const success = { success: true } as const;
  /** The admin CRUD of definitions, the same for both scopes. */
  const definitions = {
    list: async (auth: RequestAuth, scope: Scope) => ({
      items: await permissions.listDefinitions(auth.project.id, scope),
      is_paginated: false as const,
    }),
    create: async (auth: RequestAuth, scope: Scope, body: DefinitionWrite & { id: string }, reply: FastifyReply) => {
      reply.status(201);
      return permissions.createDefinition(auth.project.id, scope, body);
    },
    update: (auth: RequestAuth, scope: Scope, id: string, body: DefinitionWrite) =>
      permissions.updateDefinition(auth.project.id, scope, id, body),
    delete: async (auth: RequestAuth, scope: Scope, id: string) => {
      await permissions.deleteDefinition(auth.project.id, scope, id);
      return success;
    },
  };
  return {
    listTeamPermissions: async (request) => {
      const auth = authOf(request);
      const requested = request.query.user_id ?? (auth.accessType === 'client' ? 'me' : undefined);
      const rows = await permissions.listTeamGrants(auth.project.id, {
        teamId: request.query.team_id,
        userId: requested === undefined ? undefined : resolveUserId(auth, requested),
        permissionId: request.query.permission_id,
        recursive: request.query.recursive === 'true',
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
        recursive: request.query.recursive === 'true',
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
    listTeamPermissionDefinitions: async (request) => definitions.list(authOf(request), 'team'),
    createTeamPermissionDefinition: async (request, reply) => definitions.create(authOf(request), 'team', request.body, reply),
    updateTeamPermissionDefinition: async (request) =>
      definitions.update(authOf(request), 'team', request.params.permission_id, request.body),
    deleteTeamPermissionDefinition: async (request) => definitions.delete(authOf(request), 'team', request.params.permission_id),
    listProjectPermissionDefinitions: async (request) => definitions.list(authOf(request), 'project'),
    createProjectPermissionDefinition: async (request, reply) => definitions.create(authOf(request), 'project', request.body, reply),
    updateProjectPermissionDefinition: async (request) =>
      definitions.update(authOf(request), 'project', request.params.permission_id, request.body),
    deleteProjectPermissionDefinition: async (request) => definitions.delete(authOf(request), 'project', request.params.permission_id),
  } satisfies Partial<OperationHandlers>;
}
