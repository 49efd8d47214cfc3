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
 * its class. Empty when they agree.
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
  const own = new Set(gatehouseOwnCodes(spec));
  for (const code of specEntries.keys())
    if (!referenceCodes.has(code) && !own.has(code)) problems.push(`${code}: in the spec but not in the reference catalogue`);
  return problems;
}

/**
 * The codes Gatehouse adds to Stack's catalogue for what the protocol leaves open (webhook endpoints,
 * say): their schema says so with `x-error-origin: gatehouse`, so nothing else slips in unnoticed.
 */
export function gatehouseOwnCodes(spec: OpenApiDocument): string[] {
  return readCatalogue(spec)
    .filter((entry) => (spec.components.schemas[entry.schemaName] as { 'x-error-origin'?: string })['x-error-origin'] === 'gatehouse')
    .map((entry) => entry.code);
}
