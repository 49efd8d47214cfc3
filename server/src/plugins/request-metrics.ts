import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Told of every answered request: the spec's operationId (or `not_found` / `other`), method, status and seconds. */
export type ObserveRequest = (operation: string, method: string, status: number, seconds: number) => void;

/**
 * Times every request for the metrics (modules/metrics). The status is the one the client meant to
 * get: with the SDKs' status override a 4xx sent as 200 counts as the 4xx.
 */
export const requestMetricsPlugin = fp(async (app: FastifyInstance, options: { observe: ObserveRequest }) => {
  app.addHook('onResponse', (request, reply, done) => {
    const operation =
      request.routeOptions.config.operation?.operationId ?? (request.routeOptions.url === undefined ? 'not_found' : 'other');
    const actual = reply.getHeader('x-stack-actual-status');
    const status = actual === undefined ? reply.statusCode : Number(actual);
    options.observe(operation, request.method, status, reply.elapsedTime / 1000);
    done();
  });
});
