import type { GeneratedFile } from './generated-file.ts';
import type { OpenApiDocument } from './openapi-document.ts';

/** The bundled document the server serves at /api/v1/openapi.json and the contract tests read. */
export function emitOpenApiJson(doc: OpenApiDocument): GeneratedFile[] {
  return [{ path: 'server/src/generated/openapi.json', content: `${JSON.stringify(doc, null, 2)}\n` }];
}
