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

/** `UserAuthenticationRequiredError` -> `user-authentication-required-error`: the file of a class. */
const fileOf = (className: string): string =>
  className.replace(/[A-Z]/g, (letter, at: number) => `${at ? '-' : ''}${letter.toLowerCase()}`);

/**
 * One class per catalogue entry, each in its own module (`errors/<class>.ts`), so a bundle holds
 * only the classes its code names: a module is the unit a bundler puts into a chunk, and the
 * code-to-class table (`error-classes.ts`, which names them all) is loaded on demand by the client
 * at its first error answer (`knownErrorFromBody`). Abstract families are abstract classes (so
 * `instanceof` matches a family) that list their members' codes (`memberCodes`), so a code read
 * from a header is placed in its family without the table. `errors.ts` re-exports every class and
 * carries the union of errors each operation declares.
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
  const parentOf = (entry: CatalogueEntry) => (entry.parent ? (byCode.get(entry.parent) as CatalogueEntry) : undefined);
  const isMember = (entry: CatalogueEntry, family: CatalogueEntry): boolean => {
    const parent = parentOf(entry);
    return parent !== undefined && (parent === family || isMember(parent, family));
  };

  const classFiles = ordered.map((entry): GeneratedFile => {
    const parent = parentOf(entry);
    const base = parent ? parent.className : 'KnownError';
    const baseImport = parent
      ? `import { ${parent.className} } from './${fileOf(parent.className)}.ts';`
      : "import { KnownError } from '../../known-error.ts';";
    const doc = `/** ${entry.code}: ${entry.description.replaceAll('*/', '*\\/')} */`;
    let body: string;
    if (entry.abstract) {
      const members = ordered.filter((member) => !member.abstract && isMember(member, entry)).map((member) => member.code);
      body = `${baseImport}

${doc}
export abstract class ${entry.className} extends ${base} {
  /** The codes of the concrete errors of this family (\`isCodeInFamily\` reads them). */
  static ${parent?.abstract ? 'override ' : ''}readonly memberCodes: readonly string[] = ${JSON.stringify(members)};
}`;
    } else {
      const details = `components['schemas']['${entry.schemaName}']${entry.hasDetails ? "['details']" : ''}`;
      const detailsType = entry.hasDetails ? details : 'undefined';
      const args = entry.hasDetails ? `details: ${detailsType}, message?: string` : 'message?: string';
      const detailsArg = entry.hasDetails ? 'details' : 'undefined';
      body = `${entry.hasDetails ? "import type { components } from '../api-types.ts';\n" : ''}${baseImport}

${doc}
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
    }
    return { path: `protocol/src/generated/errors/${fileOf(entry.className)}.ts`, content: `${generatedHeader()}\n${body}\n` };
  });

  const concrete = ordered.filter((entry) => !entry.abstract);
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

  const index = `${generatedHeader()}
${ordered.map((entry) => `import { ${entry.className} } from './errors/${fileOf(entry.className)}.ts';`).join('\n')}

export {
${ordered.map((entry) => `  ${entry.className},`).join('\n')}
};

/** Every code that is ever sent. */
export type KnownErrorCode =
${concrete.map((entry) => `  | ${JSON.stringify(entry.code)}`).join('\n')};

/** The catalogued errors each operation declares. */
export type OperationErrors = {
${operationUnions.join('\n')}
};
`;
  const table = `${generatedHeader()}
import type { KnownErrorCode } from './errors.ts';
${concrete.map((entry) => `import { ${entry.className} } from './errors/${fileOf(entry.className)}.ts';`).join('\n')}

/**
 * Every code that is ever sent, to its class. It names every class: the client loads it on demand
 * (\`knownErrorFromBody\`, at the first error answer), so a page's bundle holds only the classes its code names.
 */
export const knownErrorClasses = {
${concrete.map((entry) => `  ${entry.code}: ${entry.className},`).join('\n')}
} as const satisfies Record<KnownErrorCode, unknown>;
`;
  return [
    ...classFiles,
    { path: 'protocol/src/generated/errors.ts', content: index },
    { path: 'protocol/src/generated/error-classes.ts', content: table },
  ];
}
