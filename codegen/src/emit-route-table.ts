import { compactJson } from './compact-json.ts';
import { generatedHeader } from './generated-header.ts';
import type { JsonSchema, OpenApiDocument } from './openapi-document.ts';
import type { GeneratedFile } from './generated-file.ts';
import { sharedSchemas } from './shared-schemas.ts';
import { collectErrorCodes, deref, inlineSchema, listOperations, operationParameters, toFastifyPath } from './spec-walk.ts';

/**
 * The server's route table: one entry per operation with the JSON Schemas Fastify validates
 * (params, querystring, body) and serialises (2xx JSON responses) with, plus the access rules and
 * the error codes the operation declares per status. Response schemas refer to the shared schemas
 * written once before the table (given to the server's serialiser factory); request schemas are
 * inlined whole. Headers get no schema: the request-auth service reads them, in the protocol's order.
 */
export function emitRouteTable(doc: OpenApiDocument): GeneratedFile[] {
  const basePath = serverPath(doc);
  const shared = sharedSchemas(doc);
  const routes = listOperations(doc).map((entry) => {
    const { operation } = entry;
    const parameters = operationParameters(doc, entry);
    const objectSchema = (location: 'path' | 'query') => {
      const selected = parameters.filter((parameter) => parameter.in === location);
      if (selected.length === 0 && location !== 'query') return undefined;
      return {
        type: 'object',
        // A query is closed unless the operation ignores unknown parameters (`x-unknown-query: ignore`).
        additionalProperties: location === 'query' && operation['x-unknown-query'] === 'ignore',
        required: selected.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        properties: Object.fromEntries(selected.map((parameter) => [parameter.name, inlineSchema(doc, parameter.schema ?? {})])),
      };
    };
    const bodySchemas = Object.values(operation.requestBody?.content ?? {}).map((media) => inlineSchema(doc, media.schema ?? {}));
    const responses = Object.entries(operation.responses).map(([status, response]) => [status, deref(doc, response)] as const);
    const success = responses.find(([status]) => /^[23]\d\d$/.test(status));
    if (!success) throw new Error(`${operation.operationId} declares no 2xx or 3xx response`);
    const [successStatus, successResponse] = success;
    const successContentType = Object.keys(successResponse.content ?? {})[0] ?? null;
    const responseSchemas: Record<string, unknown> = {};
    for (const [status, response] of responses) {
      const json = response.content?.['application/json']?.schema;
      if (/^2\d\d$/.test(status) && json) responseSchemas[status] = shared.inline(json);
    }
    const errorCodes: Record<string, string[]> = {};
    for (const [status, response] of responses) {
      if (!/^[45]\d\d$/.test(status)) continue;
      const codes = collectErrorCodes(doc, response.content?.['application/json']?.schema);
      if (typeof response['x-error-code'] === 'string') codes.add(response['x-error-code']);
      errorCodes[status] = [...codes].sort();
    }
    return {
      operationId: operation.operationId,
      method: entry.method.toUpperCase(),
      url: basePath + toFastifyPath(entry.path),
      specPath: entry.path,
      auth: operation['x-access-types'] ? 'required' : (operation['x-auth'] ?? 'required'),
      accessTypes: operation['x-access-types'] ?? [],
      user: operation['x-user'] ?? 'optional',
      rateLimit: operation['x-rate-limit'] ?? null,
      successStatus: Number(successStatus),
      successContentType,
      bodyRequired: operation.requestBody?.required === true,
      schema: {
        params: objectSchema('path'),
        querystring: objectSchema('query'),
        body: bodySchemas.length === 0 ? undefined : singleBodySchema(operation.operationId, bodySchemas),
        response: Object.keys(responseSchemas).length > 0 ? responseSchemas : undefined,
      },
      errorCodes,
    };
  });
  const operationIds = routes.map((route) => JSON.stringify(route.operationId)).join(' | ');
  const content = `${generatedHeader()}
import type { RouteDefinition, SharedSchema } from '../routing/route-definition.ts';

export type OperationId = ${operationIds};

/** The schemas response schemas refer to as \`{ "$ref": "<$id>#" }\`, each once. */
export const sharedSchemas = ${compactJson(shared.collect())} as const satisfies readonly SharedSchema[];

export const routeTable = ${compactJson(routes)} as const satisfies readonly RouteDefinition[];
`;
  return [{ path: 'server/src/generated/route-table.ts', content }];
}

/** Fastify validates one body schema per route; every media type of an operation must share it. */
function singleBodySchema(operationId: string, schemas: unknown[]): unknown {
  const [first, ...rest] = schemas as JsonSchema[];
  if (rest.some((schema) => JSON.stringify(schema) !== JSON.stringify(first))) {
    throw new Error(`${operationId}: every request media type must use the same schema`);
  }
  return first;
}

/** The path of the first server URL (`{origin}/api/v1` → `/api/v1`): where the routes are mounted. */
function serverPath(doc: OpenApiDocument): string {
  const server = doc.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'http://server.invalid').pathname.replace(/\/$/, '');
}
