import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { servedOpenApiDocument } from './openapi-document.ts';

/** A browsable API reference at /api/v1/docs, rendered from the same bundled spec. */
export const apiReferencePlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, { mode: 'static', specification: { document: JSON.parse(servedOpenApiDocument()) } });
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
});
