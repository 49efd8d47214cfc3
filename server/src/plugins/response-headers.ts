import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Headers every response carries (protocol README §1, §7): request id, no-store caching unless a
 * route chose otherwise, and the status override that turns a 4xx into a 200 for SDKs that ask.
 */
export const responseHeadersPlugin = fp(async (app: FastifyInstance) => {
  // Callback style: an async hook costs every response a promise and a microtask turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-stack-request-id', request.id);
    reply.header('x-hexclave-request-id', request.id);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store, max-age=0');
    const status = reply.statusCode;
    const wantsOverride =
      request.headers['x-stack-override-error-status'] !== undefined || request.headers['x-hexclave-override-error-status'] !== undefined;
    if (wantsOverride && status >= 400 && status < 500) {
      reply.header('x-stack-actual-status', String(status));
      reply.header('x-hexclave-actual-status', String(status));
      reply.status(200);
    }
    done(null, payload);
  });
});
