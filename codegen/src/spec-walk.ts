import type { HttpMethod, JsonSchema, OpenApiDocument, OperationObject, ParameterObject } from './openapi-document.ts';
import { httpMethods } from './openapi-document.ts';

export type OperationEntry = { method: HttpMethod; path: string; operation: OperationObject };

/** Every operation of the document, in document order. */
export function listOperations(doc: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of httpMethods) {
      const operation = item[method];
      if (operation) entries.push({ method, path, operation });
    }
  }
  return entries;
}

/** Follows a local `$ref` (`#/components/...`). */
export function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local refs are supported after bundling: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = (node as Record<string, unknown>)[key];
    if (node === undefined) throw new Error(`unresolved ref ${ref}`);
  }
  return node;
}

/** Resolves an object that may itself be a `$ref` (one level). */
export function deref<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    return deref(doc, resolvePointer(doc, value.$ref) as T | { $ref: string });
  }
  return value as T;
}

/**
 * Inlines every `$ref` of a schema, merging sibling keywords (OpenAPI 3.1 allows them), and drops
 * vendor extensions and documentation-only keywords, so the result is a self-contained JSON Schema
 * that Ajv and fast-json-stringify compile. `keepRef` may answer a `$ref` (with no sibling keywords
 * but documentation) with what to write in its place instead, such as a reference to a shared schema.
 */
export function inlineSchema(
  doc: OpenApiDocument,
  schema: unknown,
  keepRef?: (ref: string) => JsonSchema | undefined,
  seen: string[] = [],
): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineSchema(doc, item, keepRef, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const source = schema as JsonSchema;
  const siblings = Object.entries(source).filter(
    ([keyword]) =>
      keyword !== '$ref' && (!keyword.startsWith('x-') || validationExtensions.has(keyword)) && !documentationKeywords.has(keyword),
  );
  let merged: JsonSchema = {};
  if (typeof source.$ref === 'string') {
    const kept = siblings.length === 0 ? keepRef?.(source.$ref) : undefined;
    if (kept) return kept;
    if (seen.includes(source.$ref)) throw new Error(`recursive schema ${source.$ref} cannot be inlined`);
    merged = inlineSchema(doc, resolvePointer(doc, source.$ref), keepRef, [...seen, source.$ref]) as JsonSchema;
  }
  for (const [keyword, value] of siblings) {
    merged[keyword] =
      keyword === 'properties'
        ? mapValues(value, (property) => inlineSchema(doc, property, keepRef, seen))
        : inlineSchema(doc, value, keepRef, seen);
  }
  return merged;
}

/** Extensions the server's validator implements (server/src/routing/validator-compiler.ts), kept in the route table. */
const validationExtensions = new Set(['x-max-json-length']);

const documentationKeywords = new Set(['description', 'summary', 'example', 'examples', 'title', 'deprecated', 'externalDocs']);

function mapValues(value: unknown, map: (item: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, map(item)]));
}

/** The parameters of an operation, path-level ones first, refs resolved. */
export function operationParameters(doc: OpenApiDocument, entry: OperationEntry): ParameterObject[] {
  const pathLevel = doc.paths[entry.path]?.parameters ?? [];
  return [...pathLevel, ...(entry.operation.parameters ?? [])].map((parameter) => deref(doc, parameter));
}

/** The catalogued error codes a (response) schema can carry, following refs and unions. */
export function collectErrorCodes(doc: OpenApiDocument, schema: unknown, into = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return into;
  const node = schema as JsonSchema;
  if (typeof node.$ref === 'string') collectErrorCodes(doc, resolvePointer(doc, node.$ref), into);
  if (typeof node['x-error-code'] === 'string' && node['x-error-abstract'] !== true && node.type === 'object') {
    into.add(node['x-error-code']);
  }
  for (const union of ['oneOf', 'anyOf'] as const) {
    const members = node[union];
    if (Array.isArray(members)) for (const member of members) collectErrorCodes(doc, member, into);
  }
  return into;
}

/** `/projects/{project_id}/x` → `/projects/:project_id/x` (Fastify's syntax). */
export const toFastifyPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');
