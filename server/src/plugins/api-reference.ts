import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { platformRouterOptions } from './router-options.ts';
import { servedOpenApiDocument } from './openapi-document.ts';

/** Where the browsable API reference lives. */
export const apiReferencePrefix = '/api/v1/docs';

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

/**
 * The reference itself: @fastify/swagger-ui in an app of its own that never listens, built at the
 * first visit. Loading swagger-ui (its `yaml`, @fastify/static, glob, send) and registering its routes
 * took about 65 ms of every start's CPU (issue #20) for a page most processes never serve; the first
 * visit pays it once instead. The router options are the platform's, so both see the same paths.
 */
async function buildReferenceApp(): Promise<FastifyInstance> {
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  const reference = Fastify({ routerOptions: platformRouterOptions });
  await reference.register(lazySpecification);
  await reference.register(swaggerUi, { routePrefix: apiReferencePrefix, uiConfig: { docExpansion: 'list', deepLinking: true } });
  await reference.ready();
  return reference;
}

/** Hop-by-hop headers and the ones the platform's reply sets itself. */
const notForwarded = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * A browsable API reference at /api/v1/docs, rendered from the same bundled spec. The platform's
 * routes hand each request to the reference app (`inject`, in process) and send its answer as their
 * own, so the platform's hooks (security headers, request ids, CORS) apply as to any other page, and
 * a path the reference does not know is the platform's own 404.
 */
export const apiReferencePlugin = fp(async (app: FastifyInstance) => {
  let reference: Promise<FastifyInstance> | undefined;
  app.addHook('onClose', async () => {
    await (await reference?.catch(() => undefined))?.close();
  });
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reference ??= buildReferenceApp().catch((error: unknown) => {
      reference = undefined; // the next visit tries again
      throw error;
    });
    // Fastify answers HEAD from the GET route (the same headers, the body's length, no body): so does this one.
    const answer = await (await reference).inject({ method: 'GET', url: request.url, headers: request.headers });
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !notForwarded.has(name)) reply.header(name, value);
    }
    // An empty answer (a redirect) is sent as none, so that no content type is added to it.
    return reply.code(answer.statusCode).send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined);
  };
  app.get(apiReferencePrefix, handler);
  app.get(`${apiReferencePrefix}/*`, handler);
});
