import type { RequestAuth } from '../request-context/request-auth.ts';
import type { RouteDefinition } from './route-definition.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set before validation on every operation; null when the operation reads no credentials or none were sent. */
    auth: RequestAuth | null;
  }
  interface FastifyContextConfig {
    operation?: RouteDefinition;
  }
}
