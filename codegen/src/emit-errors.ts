import { generatedHeader } from './generated-header.ts';
import type { GeneratedFile } from './generated-file.ts';
import type { JsonSchema, OpenApiDocument } from './openapi-document.ts';
import { collectErrorCodes, deref, listOperations } from './spec-walk.ts';

type CatalogueEntry = {
  code: string;
  schemaName: string;
  className: string;
  parent?: string;
  abstract: boolean;
  status?: number;
  message?: string;
  hasDetails: boolean;
  description: string;
};

/** The catalogue as the spec states it: every schema tagged with `x-error-code`. */
export function readCatalogue(doc: OpenApiDocument): CatalogueEntry[] {
  return Object.entries(doc.components.schemas)
    .filter(([, schema]) => typeof schema['x-error-code'] === 'string')
    .map(([schemaName, schema]) => ({
      code: schema['x-error-code'] as string,
      schemaName,
      className: schemaName,
      parent: schema['x-error-parent'] as string | undefined,
      abstract: schema['x-error-abstract'] === true,
      status: schema['x-error-status'] as number | undefined,
      message: schema['x-error-message'] as string | undefined,
      hasDetails: Boolean((schema.properties as Record<string, JsonSchema> | undefined)?.details),
      description: String(schema.description ?? ''),
    }));
}

/**
 * One class per catalogue entry (abstract families as abstract classes, so `instanceof` matches a
 * family), the code-to-class map, and the union of errors each operation declares.
 */
export function emitErrors(doc: OpenApiDocument): GeneratedFile[] {
  const entries = readCatalogue(doc);
  const byCode = new Map(entries.map((entry) => [entry.code, entry]));
  const ordered: CatalogueEntry[] = [];
  const visit = (entry: CatalogueEntry) => {
    if (ordered.includes(entry)) return;
    const parent = entry.parent ? byCode.get(entry.parent) : undefined;
    if (entry.parent && !parent) throw new Error(`${entry.code}: unknown parent ${entry.parent}`);
    if (parent) visit(parent);
    ordered.push(entry);
  };
  entries.forEach(visit);

  const classes = ordered.map((entry) => {
    const base = entry.parent ? (byCode.get(entry.parent) as CatalogueEntry).className : 'KnownError';
    const doc = `/** ${entry.code}: ${entry.description.replaceAll('*/', '*\\/')} */`;
    if (entry.abstract) return `${doc}\nexport abstract class ${entry.className} extends ${base} {}`;
    const details = `components['schemas']['${entry.schemaName}']${entry.hasDetails ? "['details']" : ''}`;
    const detailsType = entry.hasDetails ? details : 'undefined';
    const args = entry.hasDetails ? `details: ${detailsType}, message?: string` : 'message?: string';
    const detailsArg = entry.hasDetails ? 'details' : 'undefined';
    return `${doc}
export class ${entry.className} extends ${base} {
  static readonly code = ${JSON.stringify(entry.code)};
  static readonly status = ${entry.status};
  static readonly defaultMessage = ${JSON.stringify(entry.message ?? entry.code)};
  declare readonly code: ${JSON.stringify(entry.code)};
  declare readonly details: ${detailsType};
  constructor(${args}) {
    super(${JSON.stringify(entry.code)}, ${entry.status}, message ?? ${entry.className}.defaultMessage, ${detailsArg});
  }
}`;
  });

  const concrete = ordered.filter((entry) => !entry.abstract);
  const map = concrete.map((entry) => `  ${entry.code}: ${entry.className},`).join('\n');
  const operationUnions = listOperations(doc).map(({ operation }) => {
    const codes = new Set<string>();
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!/^[45]\d\d$/.test(status)) continue;
      collectErrorCodes(doc, deref(doc, response).content?.['application/json']?.schema, codes);
    }
    const union =
      [...codes]
        .sort()
        .map((code) => (byCode.get(code) as CatalogueEntry).className)
        .join(' | ') || 'never';
    return `  ${operation.operationId}: ${union};`;
  });

  const content = `${generatedHeader()}
import type { components } from './api-types.ts';
import { KnownError } from '../known-error.ts';

${classes.join('\n\n')}

/** Every code that is ever sent, to its class. */
export const knownErrorClasses = {
${map}
} as const;

export type KnownErrorCode = keyof typeof knownErrorClasses;

/** The catalogued errors each operation declares. */
export type OperationErrors = {
${operationUnions.join('\n')}
};
`;
  return [{ path: 'protocol/src/generated/errors.ts', content }];
}
