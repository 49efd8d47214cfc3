import { bundle, createConfig } from '@redocly/openapi-core';
import type { OpenApiDocument } from './openapi-document.ts';

/**
 * Bundles openapi/v1.yaml (and any file it `$ref`s) into one document whose refs all point inside it.
 * YAML anchors are expanded by the parser, so the result is plain JSON.
 */
export async function loadSpec(specPath: string): Promise<OpenApiDocument> {
  const config = await createConfig({});
  const { bundle: result, problems } = await bundle({ ref: specPath, config, dereference: false });
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`openapi bundle failed:\n${errors.map((problem) => problem.message).join('\n')}`);
  }
  return JSON.parse(JSON.stringify(result.parsed)) as OpenApiDocument;
}
