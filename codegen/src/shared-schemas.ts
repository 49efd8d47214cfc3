import type { JsonSchema, OpenApiDocument } from './openapi-document.ts';
import { deref, inlineSchema, resolvePointer } from './spec-walk.ts';

const componentRef = /^#\/components\/schemas\/([^/]+)$/;

/**
 * The component schemas that response schemas share, each written once with `$id` set to its name
 * and referenced as `{ "$ref": "<Name>#" }`; the server's serialiser factory gives them to
 * fast-json-stringify, which resolves the references when it compiles a route's serialiser. Only objects,
 * arrays and unions are shared: a string or number schema stays inline, where a reference would only
 * add a call.
 */
export function sharedSchemas(doc: OpenApiDocument) {
  const written = new Map<string, JsonSchema | null>();
  const pending: string[] = [];

  /** Inlines a schema, keeping references to the shared components (and noting them). */
  const inline = (schema: unknown): unknown => inlineSchema(doc, schema, keepRef);
  const keepRef = (ref: string): JsonSchema | undefined => {
    const name = ref.match(componentRef)?.[1];
    if (!name || !isComposite(deref(doc, resolvePointer(doc, ref) as JsonSchema))) return undefined;
    if (!written.has(name)) {
      written.set(name, null);
      pending.push(name);
    }
    return { $ref: `${name}#` };
  };

  /** Every shared schema noted so far (and those they reference), by name. */
  const collect = (): JsonSchema[] => {
    for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
      const component = deref(doc, doc.components.schemas[name] as JsonSchema);
      written.set(name, { $id: name, ...(inline(component) as JsonSchema) });
    }
    return [...written.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, schema]) => schema as JsonSchema);
  };

  return { inline, collect };
}

function isComposite(schema: JsonSchema): boolean {
  const types = [schema.type ?? []].flat();
  return (
    types.includes('object') ||
    types.includes('array') ||
    ['properties', 'items', 'oneOf', 'anyOf', 'allOf'].some((keyword) => schema[keyword] !== undefined)
  );
}
