import type { FastifyReply, FastifyRequest } from 'fastify';
import { authOf } from '../../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { ScimContext, ScimDirectoryService } from './scim-directory.service.ts';
import type { ScimProvisioningService } from './scim-provisioning.service.ts';
import { listOf, resourceTypes, type ScimObject, schemas, serviceProviderConfig } from './scim-resources.ts';
import type { ScimDirectoryRow } from './scim.table.ts';

type ScimRequest = FastifyRequest & { params: { directory_id: string; resource_id?: string } };

export function scimHandlers(services: {
  scimDirectories: ScimDirectoryService;
  scimProvisioning: ScimProvisioningService;
  teams: TeamService;
}) {
  const { scimDirectories: directories, scimProvisioning: provisioning } = services;
  const view = (row: ScimDirectoryRow) => directories.toView(row);
  const context = (request: FastifyRequest): Promise<ScimContext> =>
    directories.authenticate((request as ScimRequest).params.directory_id, request.headers.authorization);
  /** SCIM answers are application/scim+json, with the status the operation gives. */
  const answer = async (reply: FastifyReply, status: number, body: Promise<ScimObject> | ScimObject) =>
    reply
      .status(status)
      .type('application/scim+json; charset=utf-8')
      .send(await body);
  const body = (request: FastifyRequest) => (request.body ?? {}) as ScimObject;
  const id = (request: FastifyRequest) => (request as ScimRequest).params.resource_id as string;
  const noContent = (reply: FastifyReply) => reply.status(204).send();

  return {
    listScimDirectories: async (request) => {
      const auth = authOf(request);
      await services.teams.get(auth.project.id, request.params.team_id);
      return { items: (await directories.list(auth.project.id, request.params.team_id)).map(view), is_paginated: false as const };
    },
    createScimDirectory: async (request) => {
      const auth = authOf(request);
      await services.teams.get(auth.project.id, request.params.team_id);
      const { row, token } = await directories.create(
        auth.project.id,
        request.params.team_id,
        request.body.display_name ?? 'SCIM directory',
      );
      return { ...view(row), token };
    },
    deleteScimDirectory: async (request) => {
      const auth = authOf(request);
      await directories.delete(auth.project.id, request.params.team_id, request.params.directory_id);
      return { success: true as const };
    },
    createScimDirectoryToken: async (request) => {
      const auth = authOf(request);
      const { row, token } = await directories.rotateToken(
        auth.project.id,
        request.params.team_id,
        request.params.directory_id,
        request.body.overlap_hours,
      );
      return { ...view(row), token };
    },
    getScimServiceProviderConfig: async (request, reply) => answer(reply, 200, serviceProviderConfig((await context(request)).baseUrl)),
    listScimResourceTypes: async (request, reply) => answer(reply, 200, listOf(resourceTypes((await context(request)).baseUrl))),
    listScimSchemas: async (request, reply) => answer(reply, 200, listOf(schemas((await context(request)).baseUrl))),
    listScimUsers: async (request, reply) => answer(reply, 200, provisioning.listUsers(await context(request), request.query)),
    createScimUser: async (request, reply) => answer(reply, 201, provisioning.createUser(await context(request), body(request))),
    getScimUser: async (request, reply) => answer(reply, 200, provisioning.getUser(await context(request), id(request))),
    setScimUser: async (request, reply) => answer(reply, 200, provisioning.replaceUser(await context(request), id(request), body(request))),
    updateScimUser: async (request, reply) =>
      answer(reply, 200, provisioning.patchUser(await context(request), id(request), body(request))),
    deleteScimUser: async (request, reply) => {
      await provisioning.deleteUser(await context(request), id(request));
      return noContent(reply);
    },
    listScimGroups: async (request, reply) => answer(reply, 200, provisioning.listGroups(await context(request), request.query)),
    createScimGroup: async (request, reply) => answer(reply, 201, provisioning.createGroup(await context(request), body(request))),
    getScimGroup: async (request, reply) => answer(reply, 200, provisioning.getGroup(await context(request), id(request))),
    setScimGroup: async (request, reply) =>
      answer(reply, 200, provisioning.replaceGroup(await context(request), id(request), body(request))),
    updateScimGroup: async (request, reply) =>
      answer(reply, 200, provisioning.patchGroup(await context(request), id(request), body(request))),
    deleteScimGroup: async (request, reply) => {
      await provisioning.deleteGroup(await context(request), id(request));
      return noContent(reply);
    },
  } satisfies Partial<OperationHandlers>;
}
