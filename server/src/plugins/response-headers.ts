import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Headers every response carries (docs/protocol/overview.md §1, §7): request id, no-store caching unless a
 * route chose otherwise, the status override that turns a 4xx into a 200 for SDKs that ask, and
 * the security headers below.
 */
export const responseHeadersPlugin = fp(async (app: FastifyInstance) => {
  // Callback style: an async hook costs every response a promise and a microtask turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(reply);
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

/**
 * No page of the server may be framed (the handler pages, the API reference: clickjacking), no answer
 * is content-sniffed into another type, and no page tells other sites its URL (reset and verification
 * links carry codes in the query). CORS is untouched: browsers call the API from any origin.
 */
export function setSecurityHeaders(reply: FastifyReply): void {
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', "frame-ancestors 'none'");
  else if (!String(reply.getHeader('content-security-policy')).includes('frame-ancestors'))
    reply.header('content-security-policy', `${String(reply.getHeader('content-security-policy'))}; frame-ancestors 'none'`);
  reply.header('x-frame-options', 'DENY');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
}
