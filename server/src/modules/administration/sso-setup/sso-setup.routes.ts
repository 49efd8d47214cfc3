import type { FastifyRequest } from 'fastify';
import { authOf } from '../../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { SsoSetupLinkService } from './sso-setup-links.service.ts';
import type { SsoSetupSessionService } from './sso-setup-session.service.ts';

export function ssoSetupHandlers(services: { ssoSetupLinks: SsoSetupLinkService; ssoSetupSessions: SsoSetupSessionService }) {
  const { ssoSetupLinks: links, ssoSetupSessions: sessions } = services;
  const session = (request: FastifyRequest) => links.authenticate(request.headers.authorization);
  return {
    listSsoSetupLinks: async (request) => ({ items: await links.list(authOf(request).project.id, request.params.team_id) }),
    createSsoSetupLink: async (request, reply) => {
      const created = await links.create(authOf(request).project.id, request.params.team_id, request.body.expires_in_minutes);
      reply.status(201);
      return created;
    },
    revokeSsoSetupLink: async (request) => {
      await links.revoke(authOf(request).project.id, request.params.team_id, request.params.setup_link_id);
      return { success: true } as const;
    },
    exchangeSsoSetupLink: async (request, reply) => {
      const opened = await links.exchange(request.body.token);
      reply.status(201);
      return opened;
    },
    getSsoSetupOverview: async (request) => sessions.overview(await session(request)),
    createSsoSetupConnection: async (request, reply) => {
      const created = await sessions.createConnection(await session(request), request.body);
      reply.status(201);
      return created;
    },
    createSsoSetupDomain: async (request, reply) => {
      const created = await sessions.createDomain(await session(request), request.body);
      reply.status(201);
      return created;
    },
    verifySsoSetupDomain: async (request) => sessions.verifyDomain(await session(request), request.params.domain_id),
    createSsoSetupScimDirectory: async (request, reply) => {
      const created = await sessions.createScimDirectory(await session(request), request.body.display_name ?? 'SCIM directory');
      reply.status(201);
      return created;
    },
  } satisfies Partial<OperationHandlers>;
}
