import { ProjectNotFoundError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { SigningKeysService } from '../../authentication/signing-keys/index.ts';
import type { BotChallengeService } from '../../authentication/bot-challenges/index.ts';
import type { ProjectDiscovery } from './project-discovery.ts';
import type { ProjectService } from './project.service.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import { toClientProject } from './client-project.ts';

export function projectHandlers(services: {
  projects: ProjectService;
  projectDiscovery: ProjectDiscovery;
  signingKeys: SigningKeysService;
  botChallenges: BotChallengeService;
}) {
  return {
    getCurrentProject: async (request) => {
      const { project } = authOf(request);
      return toClientProject(project, services.botChallenges.widget(project));
    },

    getProjectJwks: async (request, reply) => {
      const project = await services.projects.find(request.params.project_id);
      if (!project) throw new ProjectNotFoundError({ project_id: request.params.project_id });
      reply.header('cache-control', 'public, max-age=3600');
      return services.signingKeys.publicJwks(project.id, {
        includeAnonymous: request.query.include_anonymous === 'true',
        includeRestricted: request.query.include_restricted === 'true',
      });
    },

    getProjectOpenIdConfiguration: async (request, reply) => {
      const project = await services.projects.find(request.params.project_id);
      if (!project) throw new ProjectNotFoundError({ project_id: request.params.project_id });
      reply.header('cache-control', 'public, max-age=3600');
      return services.projectDiscovery.openIdConfiguration(project.id, request.query.include_anonymous === 'true');
    },

    redirectAnonymousWellKnown: async (request, reply) => {
      const { project_id: projectId, document } = request.params;
      return reply.redirect(
        `/api/v1/projects/${encodeURIComponent(projectId)}/.well-known/${encodeURIComponent(document)}?include_anonymous=true`,
        307,
      );
    },

    redirectAnonymousJwks: async (request, reply) =>
      reply.redirect(`/api/v1/projects/${encodeURIComponent(request.params.project_id)}/.well-known/jwks.json?include_anonymous=true`, 307),
  } satisfies Partial<OperationHandlers>;
}
