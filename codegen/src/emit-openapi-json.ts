import type { GeneratedFile } from './generated-file.ts';
import type { OpenApiDocument } from './openapi-document.ts';

/** The bundled document the server serves at /api/v1/openapi.json and the contract tests read. */
export function emitOpenApiJson(doc: OpenApiDocument): GeneratedFile[] {
  const { 'x-header-sets': _anchorsOnly, ...served } = doc as OpenApiDocument & { 'x-header-sets'?: unknown };
  return [{ path: 'server/src/generated/openapi.json', content: `${JSON.stringify(served, null, 2)}\n` }];
}
