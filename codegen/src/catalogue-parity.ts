import type { OpenApiDocument } from './openapi-document.ts';
import { readCatalogue } from './emit-errors.ts';

/** An entry of codegen/reference/stack-auth-errors.yaml, the reference catalogue (Stack Auth's known errors). */
export type ReferenceEntry = {
  code: string;
  status: number | string;
  parent?: string;
  abstract?: boolean;
  details?: Record<string, string> | string;
};

/**
 * Every way the spec's catalogue, the reference catalogue and the generated classes can disagree:
 * a code missing on either side, another status or parent, other detail fields, or a code without
 * its class. Gatehouse extensions (`x-error-extension: true`) must not be in the reference and need
 * their response and class. Empty when they agree.
 */
export function catalogueParity(reference: ReferenceEntry[], spec: OpenApiDocument, classNames: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const specEntries = new Map(readCatalogue(spec).map((entry) => [entry.code, entry]));
  const specResponses = new Map(
    Object.entries(spec.components.responses)
      .filter(([, response]) => typeof response['x-error-code'] === 'string')
      .map(([name, response]) => [response['x-error-code'] as string, { name, response }]),
  );
  for (const expected of reference) {
    const entry = specEntries.get(expected.code);
    if (!entry) {
      problems.push(`${expected.code}: no schema in the spec`);
      continue;
    }
    const response = specResponses.get(expected.code);
    if (!response) problems.push(`${expected.code}: no response in components/responses`);
    if (Boolean(expected.abstract) !== entry.abstract) problems.push(`${expected.code}: abstract differs`);
    if (!expected.abstract && entry.status !== expected.status)
      problems.push(`${expected.code}: status ${entry.status}, expected ${expected.status}`);
    if ((expected.parent ?? undefined) !== entry.parent)
      problems.push(`${expected.code}: parent ${entry.parent}, expected ${expected.parent}`);
    if (!classNames.has(entry.className)) problems.push(`${expected.code}: no generated class ${entry.className}`);
    if (!expected.abstract) {
      const schema = spec.components.schemas[entry.schemaName] as { properties?: { details?: { properties?: object } } };
      const specDetails = Object.keys(schema.properties?.details?.properties ?? {}).sort();
      const referenceDetails = typeof expected.details === 'object' ? Object.keys(expected.details).sort() : [];
      if (specDetails.join() !== referenceDetails.join())
        problems.push(`${expected.code}: details [${specDetails}] expected [${referenceDetails}]`);
    }
  }
  const referenceCodes = new Set(reference.map((entry) => entry.code));
  for (const [code, entry] of specEntries) {
    if (entry.extension && referenceCodes.has(code)) problems.push(`${code}: marked x-error-extension but in the reference catalogue`);
    if (entry.extension) {
      if (!specResponses.has(code)) problems.push(`${code}: no response in components/responses`);
      if (!classNames.has(entry.className)) problems.push(`${code}: no generated class ${entry.className}`);
    } else if (!referenceCodes.has(code)) problems.push(`${code}: in the spec but not in the reference catalogue`);
  }
  return problems;
}
