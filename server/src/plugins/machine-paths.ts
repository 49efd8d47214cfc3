import { errorCodes, type FastifyError } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { routeTable } from '../generated/route-table.ts';
import { platformRouterOptions } from './router-options.ts';

/**
 * Paths for machines, never for a person's browser: the API (`/api`, `/api/…`) and well-known URIs
 * (`/.well-known/…`, RFC 8615, which OAuth and OpenID clients probe). A web app served at `/` answers
 * every other GET with its page; these answer what the API-only server answers (issue #29). The path
 * is read as the router reads it: `%`-escapes decoded, duplicate slashes collapsed.
 */
export function isMachinePath(url: string): boolean {
  let path: string;
  try {
    path = FindMyWay.removeDuplicateSlashes(FindMyWay.sanitizeUrlPath(url));
  } catch {
    // Undecodable: the router answers it before any route runs (SCHEMA_ERROR).
    return true;
  }
  return /^\/(api|\.well-known)(\/|$)/.test(path);
}

type Verdict = 'route' | FastifyError;

const matched = (() => 'route') as () => Verdict;
/** find-my-way calls these instead of answering "no route"; typed `void` there, they hand back the error Fastify's router would raise. */
const refuse = (error: () => FastifyError) => (() => error()) as unknown as () => void;

/**
 * The spec's operations alone, in a router configured as the platform's: what the platform would make
 * of a path if no web app's catch-all page route (`/*`) stood beside them. find-my-way tries that
 * wildcard after a parameter over the length limit fails to match, so with a web app mounted at `/`
 * the page route would otherwise take a GET the API-only server refuses as SCHEMA_ERROR (issue #30,
 * finding 10).
 */
const specRouter = FindMyWay({
  ...platformRouterOptions,
  onBadUrl: refuse(() => new errorCodes.FST_ERR_BAD_URL('')),
  onMaxParamLength: refuse(() => new errorCodes.FST_ERR_MAX_PARAM_LENGTH('')),
});
for (const route of routeTable) {
  // Fastify serves HEAD for every GET route (exposeHeadRoutes).
  specRouter.on(route.method === 'GET' ? ['GET', 'HEAD'] : route.method, route.url, matched);
}

/** The router failure (a bad `%`-escape, a parameter over the limit) the API-only server answers this request with, if any. */
export function routerFailureOf(method: string, url: string): FastifyError | undefined {
  const found = specRouter.find(method as HTTPMethod, url);
  if (!found) return undefined;
  const verdict = (found.handler as unknown as () => Verdict)();
  return verdict === 'route' ? undefined : verdict;
}
