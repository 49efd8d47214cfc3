import { BodyParsingError } from '@gatehouse/protocol/errors';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The content types of docs/protocol/overview.md §1: JSON (an empty body is no body), form-urlencoded (the
 * OAuth token endpoint), text/plain and octet-stream (analytics batches). Any other type is
 * BODY_PARSING_ERROR, raised by Fastify and mapped by the error handler.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as it was sent (before parsing). */
    rawBody?: string;
  }
}

export const bodyParsersPlugin = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  /** JSON as the default parser reads it (prototype-poisoning safe), an empty body being no body. */
  const jsonParser =
    (keepRawBody: boolean) => (request: FastifyRequest, raw: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
      const body = String(raw);
      // Kept for signature checks over the exact bytes (the Stripe webhook).
      if (keepRawBody) request.rawBody = body;
      if (body.trim() === '') return done(null, undefined);
      // The default parser answers through its callback.
      void parseJson(request, body, (error, parsed) => {
        if (error) return done(new BodyParsingError(`The request body is not valid JSON: ${error.message}`), undefined);
        done(null, parsed);
      });
    };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonParser(true));
  // SCIM clients send application/scim+json (RFC 7644 §3.1): the same JSON, parsed the same way.
  app.addContentTypeParser('application/scim+json', { parseAs: 'string' }, jsonParser(false));
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  await app.register(formbody);
});
