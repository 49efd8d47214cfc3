/**
 * The per-operation bench's plan, read from the bundled spec (`server/src/generated/openapi.json`):
 * every GET operation, how to authenticate it, the request to send (path and required query filled
 * from the fixture by parameter name) and its floor, if one is defined. An operation added to the
 * spec is in the plan the day it lands; without a floor it is measured alone and reported as
 * "no floor"; a floor naming an operation the spec no longer has fails the plan (loudly).
 */

export type AccessType = 'client' | 'server' | 'admin';

/** Fastify + the same authentication + one prepared statement (none: the operation reads no rows). */
export type FloorDefinition = {
  /** Parameterised SQL (`$1`…), prepared once by name. */
  statement?: string;
  /** Values for the statement, from the fixture. */
  values?: (fixture: Fixture) => unknown[];
  /** Optional query parameters the operation is measured with (both sides get the same request). */
  query?: (fixture: Fixture) => Record<string, string | undefined>;
};

/** Values the bench created, by the parameter names the spec uses (`user_id`, `team_id`, …). */
export type Fixture = Record<string, string>;

export type PlannedOperation = {
  operationId: string;
  /** The spec path, e.g. `/users/{user_id}`. */
  specPath: string;
  /** The request path under `/api/v1`, with path and required query parameters filled; undefined when the fixture lacks one. */
  requestPath?: string;
  /** Parameters the fixture has no value for (the operation is listed, not measured). */
  missing: string[];
  /** How the bench authenticates it: the first of client (with the user's access token), server, admin it accepts; none when it declares no access type. */
  accessType?: AccessType;
  /** Headers the operation's own security scheme needs beside the access type's (a SCIM directory's bearer token). */
  headers: Record<string, string>;
  floor?: FloorDefinition;
};

type Parameter = { name: string; in: string; required?: boolean; $ref?: string };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  'x-access-types'?: string[];
  security?: Array<Record<string, unknown>>;
};
export type SpecDocument = {
  paths: Record<string, { get?: Operation; parameters?: Parameter[] }>;
  components?: { parameters?: Record<string, Parameter> };
};

const accessPreference: AccessType[] = ['client', 'server', 'admin'];

export function planReadOperations(
  doc: SpecDocument,
  floors: Readonly<Record<string, FloorDefinition>>,
  fixture: Fixture,
): PlannedOperation[] {
  const plan: PlannedOperation[] = [];
  for (const [specPath, item] of Object.entries(doc.paths)) {
    const operation = item.get;
    if (!operation) continue;
    const operationId = operation.operationId ?? `GET ${specPath}`;
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) =>
      parameter.$ref ? (doc.components?.parameters?.[parameter.$ref.split('/').pop() as string] ?? parameter) : parameter,
    );
    const missing: string[] = [];
    // `<operationId>:<name>` first: one parameter name can mean different rows to different operations.
    const fixtureValue = (name: string) => fixture[`${operationId}:${name}`] ?? fixture[name];
    const path = specPath.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = fixtureValue(name);
      if (value === undefined) missing.push(name);
      return encodeURIComponent(value ?? '');
    });
    const query = parameters
      .filter((parameter) => parameter.in === 'query' && parameter.required)
      .map((parameter) => {
        const value = fixtureValue(parameter.name);
        if (value === undefined) missing.push(parameter.name);
        return `${encodeURIComponent(parameter.name)}=${encodeURIComponent(value ?? '')}`;
      });
    const floor = floors[operationId];
    for (const [name, value] of Object.entries(floor?.query?.(fixture) ?? {})) {
      if (value === undefined) missing.push(name);
      query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value ?? '')}`);
    }
    const accessTypes = operation['x-access-types'] ?? [];
    const headers: Record<string, string> = {};
    if (operation.security?.some((requirement) => 'ScimBearerToken' in requirement)) {
      if (fixture.scim_token === undefined) missing.push('scim_token');
      else headers.authorization = `Bearer ${fixture.scim_token}`;
    }
    plan.push({
      operationId,
      specPath,
      requestPath: missing.length > 0 ? undefined : query.length > 0 ? `${path}?${query.join('&')}` : path,
      missing,
      accessType: accessPreference.find((type) => accessTypes.includes(type)),
      headers,
      floor,
    });
  }
  const planned = new Set(plan.map((operation) => operation.operationId));
  const stale = Object.keys(floors).filter((operationId) => !planned.has(operationId));
  if (stale.length > 0) throw new Error(`Floors defined for operations the spec has no GET of: ${stale.join(', ')}`);
  return plan;
}
