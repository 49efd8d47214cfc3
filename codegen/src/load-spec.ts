import { bundle, createConfig } from '@redocly/openapi-core';
import type { OpenApiDocument } from './openapi-document.ts';
import { describeSecurity } from './security.ts';

/**
 * Bundles openapi/v1.yaml (and any file it `$ref`s) into one document whose refs all point inside it.
 * YAML anchors are expanded by the parser, so the result is plain JSON. The project-authentication
 * headers become security schemes and per-operation `security` (security.ts).
 */
export async function loadSpec(specPath: string): Promise<OpenApiDocument> {
  const doc = await bundleSpec(specPath);
  describeSecurity(doc);
  return doc;
}

/** The bundle as the split files write it (every header parameter still there): for the tests of the split. */
export async function bundleSpec(specPath: string): Promise<OpenApiDocument> {
  const config = await createConfig({});
  const { bundle: result, problems } = await bundle({ ref: specPath, config, dereference: false });
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`openapi bundle failed:\n${errors.map((problem) => problem.message).join('\n')}`);
  }
  return JSON.parse(JSON.stringify(result.parsed)) as OpenApiDocument;
}
