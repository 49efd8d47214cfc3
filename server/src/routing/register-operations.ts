import {
  AccessTypeRequiredError,
  CannotGetOwnUserWithoutUserError,
  InsufficientAccessTypeError,
  InvalidSuperSecretAdminKeyError,
  UserAuthenticationRequiredError,
} from '@gatehouse/protocol/errors';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { RateLimitBucket, RateLimits } from '../config/rate-limits.ts';
import { perEmailLimit, perIpLimit } from '../plugins/rate-limits.ts';
import { routeTable } from '../generated/route-table.ts';
import type { RequestAuthenticator } from '../request-context/request-auth.ts';
import { readAuthHeaders } from '../request-context/read-headers.ts';
import type { RequestAuth } from '../request-context/request-auth.ts';
import { type RequestActor, runWithRequestOrigin } from '../request-context/request-origin.ts';
import { isReadingTokenUser, type OperationHandlers } from './operation-handlers.ts';
import type { RouteDefinition } from './route-definition.ts';
import { validatorCompiler } from './validator-compiler.ts';

/**
 * Registers every operation of the spec with its handler. Authentication runs in `preParsing`, before
 * the body is read, so header errors come first (docs/protocol/overview.md §2), then validation, then the handler.
 */
export function registerOperations(
  app: FastifyInstance,
  handlers: OperationHandlers,
  requestAuth: RequestAuthenticator,
  rateLimits: RateLimits | null,
): void {
  app.setValidatorCompiler(validatorCompiler);
  // The response schemas' references to the shared schemas resolve in the serializer factory (lazy-serializer.ts).
  for (const route of routeTable as readonly RouteDefinition[]) {
    const handler = handlers[route.operationId as keyof OperationHandlers] as unknown as RouteHandlerMethod;
    if (!handler) throw new Error(`no handler for operation ${route.operationId}`);
    const limit = route.rateLimit && rateLimits ? rateLimits[route.rateLimit as RateLimitBucket] : undefined;
    const emailLimit = limit && route.rateLimit ? perEmailLimit(route.rateLimit, limit) : undefined;
    const deferUserRead = isReadingTokenUser(handler);
    if (route.rateLimit && rateLimits && !limit) throw new Error(`${route.operationId}: unknown rate-limit bucket ${route.rateLimit}`);
    app.route({
      method: route.method,
      url: route.url,
      // Headers have no schema: the request-auth service answers them with catalogued errors, in order.
      schema: Object.fromEntries(
        Object.entries({
          params: route.schema.params,
          querystring: route.schema.querystring,
          body: route.schema.body,
          response: route.schema.response,
        }).filter(([, schema]) => schema !== undefined),
      ),
      // An operation reading the token's user itself sees its validation error, so a gone user is answered first (below).
      attachValidation: deferUserRead,
      config: { operation: route, rateLimit: limit && route.rateLimit ? perIpLimit(route.rateLimit, limit) : undefined },
      preHandler: emailLimit?.preHandler,
      onSend: emailLimit?.onSend,
      // After the per-IP rate limit (onRequest), before the body is read.
      preParsing: async (request, _reply, payload) => {
        request.auth = route.auth === 'none' ? null : await authenticate(request, route, requestAuth, deferUserRead);
        return payload;
      },
      // An absent body is an empty one: optional-only bodies pass, required fields are reported.
      preValidation:
        route.schema.body === undefined
          ? undefined
          : (request, _reply, done) => {
              if (request.body === undefined) request.body = {};
              done();
            },
      handler: async function (request, reply) {
        const origin = { ip: request.ip ?? null, userAgent: headerText(request.headers['user-agent']), actor: actorOf(request.auth) };
        const result = await runWithRequestOrigin(origin, async () => {
          if (!deferUserRead) return handler.call(this, request, reply);
          try {
            if (request.validationError) throw request.validationError;
            return await handler.call(this, request, reply);
          } catch (error) {
            // Authentication left the token's user to the operation: whatever else failed, a gone user is
            // answered as authentication would have answered it, before validation (docs/protocol/overview.md §2).
            await requestAuth.confirmUnreadUser(request.auth);
            throw error;
          }
        });
        if (result === reply) return reply;
        reply.status(route.successStatus);
        if (route.successContentType && route.successContentType !== 'application/json') {
          reply.type(`${route.successContentType}; charset=utf-8`);
        }
        return result;
      },
    });
  }
}

async function authenticate(request: FastifyRequest, route: RouteDefinition, requestAuth: RequestAuthenticator, deferUserRead: boolean) {
  const auth = await requestAuth.resolve(readAuthHeaders(request.headers), { deferUserRead });
  // A scoped admin key (the webhook portal's token) is no key at all outside its paths.
  if (auth?.scopedTo && !auth.scopedTo.some((prefix) => route.specPath.startsWith(prefix))) {
    throw new InvalidSuperSecretAdminKeyError({ project_id: auth.project.id });
  }
  if (route.auth !== 'required') return auth;
  if (!auth) throw new AccessTypeRequiredError();
  if (!route.accessTypes.includes(auth.accessType)) {
    throw new InsufficientAccessTypeError({ actual_access_type: auth.accessType, allowed_access_types: [...route.accessTypes] });
  }
  const hasUser = Boolean(auth.user ?? auth.unreadUser);
  if (!hasUser && route.user === 'required') throw new UserAuthenticationRequiredError();
  if (!hasUser && route.user === 'me') throw new CannotGetOwnUserWithoutUserError();
  return auth;
}

/** The audit log's actor of an authenticated request (an operation may name a more precise one, a SCIM directory). */
function actorOf(auth: RequestAuth | null | undefined): RequestActor {
  if (!auth) return { type: 'anonymous', id: null };
  const claims = auth.user?.claims ?? auth.unreadUser;
  if (claims) return { type: 'user', id: claims.sub };
  if (auth.accessType === 'admin') return { type: 'admin', id: auth.adminUserId ?? null };
  if (auth.accessType === 'server') return { type: 'server', id: null };
  return { type: 'anonymous', id: null };
}

const headerText = (value: string | string[] | undefined): string | null => (typeof value === 'string' ? value.slice(0, 512) : null);
