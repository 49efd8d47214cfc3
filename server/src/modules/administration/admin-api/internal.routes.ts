import { ApiKeyNotFoundError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { ApiKeyService } from '../../platform/project-keys/index.ts';
import type { EmailService } from '../../messaging/email/index.ts';
import type { InternalProjectService } from './internal-project.service.ts';
import type { MetricsService } from './metrics.service.ts';
import { toInternalApiKey } from '../../platform/project-keys/index.ts';
import { authOf, userOf } from '../../../request-context/auth-of.ts';
import { toAdminProject } from './internal-project.service.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';

export function internalHandlers(services: {
  internalProjects: InternalProjectService;
  apiKeys: ApiKeyService;
  email: EmailService;
  metrics: MetricsService;
}) {
  const { internalProjects, apiKeys } = services;
  return {
    listInternalProjects: async (request) => {
      const auth = authOf(request);
      internalProjects.assertInternal(auth.project);
      const projects = await internalProjects.list(userOf(request).id);
      return { items: projects.map(toAdminProject), is_paginated: false as const };
    },
    createInternalProject: async (request, reply) => {
      const auth = authOf(request);
      internalProjects.assertInternal(auth.project);
      const project = await internalProjects.create(userOf(request).id, request.body);
      reply.status(201);
      return toAdminProject(project);
    },
    transferInternalProject: async (request) => {
      const auth = authOf(request);
      internalProjects.assertInternal(auth.project);
      await internalProjects.transfer(userOf(request).id, request.body.project_id.toLowerCase(), request.body.new_team_id);
      return { success: 'true' as const };
    },
    getAdminProject: async (request) => toAdminProject(authOf(request).project),
    updateAdminProject: async (request) => toAdminProject(await internalProjects.update(authOf(request).project, request.body)),
    deleteAdminProject: async (request) => {
      await internalProjects.delete(authOf(request).project);
      return { success: true } as const;
    },

    getProjectConfig: async (request) => ({ config_string: JSON.stringify(authOf(request).project.config) }),
    getProjectConfigOverride: async (request) => ({ config_string: JSON.stringify(authOf(request).project.config_override) }),
    setProjectConfigOverride: async (request) => {
      const project = await internalProjects.replaceConfigOverride(
        authOf(request).project,
        request.body.config_string,
        request.body.source,
      );
      return { config_string: JSON.stringify(project.config) };
    },
    resetProjectConfigKeys: async (request) => {
      if (request.params.level === 'project') throw new PlainHttpError(403, 'Keys can be reset only at the branch and environment levels.');
      await internalProjects.resetConfigKeys(authOf(request).project, request.body.keys);
      return { success: true } as const;
    },
    getProjectConfigSource: async (request) => ({ source: await internalProjects.configSource(authOf(request).project) }),
    deleteProjectConfigSource: async (request) => {
      await internalProjects.unlinkConfigSource(authOf(request).project);
      return { success: true } as const;
    },
    updateProjectConfigOverride: async (request) => {
      const project = await internalProjects.mergeConfigOverride(authOf(request).project, request.body.config_override_string);
      return { config_string: JSON.stringify(project.config) };
    },
    sendTestEmail: async (request) => {
      const { email_config: config, recipient_email: to } = request.body;
      const { project } = authOf(request);
      return services.email.sendTest(
        {
          // A server given by the project: the same outbound guard as its webhooks (no internal addresses).
          policy: { allowLoopback: project.config.domains.allowLocalhost },
          host: config.host,
          port: config.port,
          username: config.username || undefined,
          password: config.password,
          senderName: config.sender_name,
          senderEmail: config.sender_email,
        },
        to,
      );
    },

    getUserCounts: async (request) => services.metrics.userCounts(authOf(request).project.id),
    getUserActivity: async (request) => services.metrics.userActivity(authOf(request).project.id, request.query.user_id),
    listOnboardingAffectedUsers: async (request) =>
      services.metrics.previewAffectedUsers(authOf(request).project, request.body.onboarding, Number(request.query.limit ?? 10)),
    getProjectMetrics: async (request) => services.metrics.of(authOf(request).project.id, request.query.include_anonymous === 'true'),

    listInternalApiKeys: async (request) => ({
      items: (await apiKeys.list(authOf(request).project.id)).map(toInternalApiKey),
      is_paginated: false as const,
    }),
    createInternalApiKey: async (request) => {
      const { project } = authOf(request);
      const body = request.body;
      const { row, keys } = await apiKeys.createKeySet({
        projectId: project.id,
        description: body.description,
        expiresAt: new Date(body.expires_at_millis),
        keys: {
          ...(body.has_publishable_client_key ? { publishable_client_key: true as const } : {}),
          ...(body.has_secret_server_key ? { secret_server_key: true as const } : {}),
          ...(body.has_super_secret_admin_key ? { super_secret_admin_key: true as const } : {}),
        },
      });
      return {
        id: row.id,
        description: row.description,
        expires_at_millis: row.expires_at.getTime(),
        created_at_millis: row.created_at.getTime(),
        ...keys,
      };
    },
    getInternalApiKey: async (request) => {
      const row = await apiKeys.get(authOf(request).project.id, request.params.api_key_id);
      if (!row) throw new ApiKeyNotFoundError();
      return toInternalApiKey(row);
    },
    updateInternalApiKey: async (request) => {
      const { project } = authOf(request);
      const id = request.params.api_key_id;
      if (!(await apiKeys.get(project.id, id))) throw new ApiKeyNotFoundError();
      if (request.body.description !== undefined) await apiKeys.describe(project.id, id, request.body.description);
      if (request.body.revoked) await apiKeys.revokeKeySet(project.id, id);
      return toInternalApiKey((await apiKeys.get(project.id, id)) as NonNullable<Awaited<ReturnType<typeof apiKeys.get>>>);
    },
  } satisfies Partial<OperationHandlers>;
}
