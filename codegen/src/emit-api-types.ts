import openapiTS, { astToString } from 'openapi-typescript';
import type { GeneratedFile } from './generated-file.ts';
import { generatedHeader } from './generated-header.ts';
import type { OpenApiDocument } from './openapi-document.ts';

/** Request and response types of every operation and schema (openapi-typescript). */
export async function emitApiTypes(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const ast = await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0], { alphabetize: false });
  return [{ path: 'protocol/src/generated/api-types.ts', content: `${generatedHeader()}\n${astToString(ast)}` }];
}
