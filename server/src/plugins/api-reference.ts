import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { servedOpenApiDocument } from './openapi-document.ts';

/**
 * What @fastify/swagger gives @fastify/swagger-ui in static mode, `app.swagger()`, except that the
 * bundled spec (about 1 MB of JSON) is parsed on the first visit of the reference rather than held
 * parsed by every process from start-up. `{ yaml: true }` gets the JSON text, which is valid YAML.
 */
const lazySpecification = fp(
  async (app: FastifyInstance) => {
    let document: unknown;
    app.decorate('swagger', (options?: { yaml?: boolean }) => {
      if (options?.yaml) return servedOpenApiDocument();
      document ??= JSON.parse(servedOpenApiDocument());
      return document;
    });
  },
  { name: '@fastify/swagger' },
);

/** A browsable API reference at /api/v1/docs, rendered from the same bundled spec. */
export const apiReferencePlugin = fp(async (app: FastifyInstance) => {
  await app.register(lazySpecification);
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
});
