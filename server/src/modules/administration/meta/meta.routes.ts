import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { checkClientVersion } from './client-version.ts';
import { backendUrls, componentVersions, type MetaSettings } from './deployment-info.ts';
import { matchesEtag, servedOpenApiView } from './openapi-views.ts';

export function metaHandlers(deployment: { publicUrl: string; settings: MetaSettings }) {
  return {
    getApiRoot: async (request) => `Welcome to the Gatehouse API (Stack Auth compatible).\n\n${describeAuth(request.auth)}\n`,

    getOpenApiDocument: async (request, reply) => {
      const view = { accessType: request.query.access_type, overrideErrorStatus: request.query.override_error_status === 'true' };
      const served = servedOpenApiView(view);
      // The same bytes every time: a client revalidates with the ETag instead of fetching 1.5 MB again.
      reply.header('etag', served.etag).header('cache-control', 'no-cache');
      if (matchesEtag(request.headers['if-none-match'], served.etag)) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(served.body);
    },

    checkFeatureSupport: async (request) => {
      const feature = typeof request.body?.featureName === 'string' ? ` "${request.body.featureName}"` : '';
      return `The feature${feature} is not supported by this Gatehouse server yet.`;
    },

    checkClientVersion: async (request) => checkClientVersion(request.body.clientVersion),

    listBackendUrls: async () => ({ urls: backendUrls(deployment.publicUrl, deployment.settings) }),

    listComponentVersions: async () => componentVersions(),
  } satisfies Partial<OperationHandlers>;
}

function describeAuth(auth: RequestAuth | null): string {
  if (!auth) return 'Authentication: none';
  const user = auth.user ? `, user ${auth.user.claims.sub}` : '';
  return `Authentication: ${auth.accessType} access to project ${auth.project.id}${user}`;
}
