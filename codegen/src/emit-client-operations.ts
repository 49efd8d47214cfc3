import type { GeneratedFile } from './generated-file.ts';
import { generatedHeader } from './generated-header.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { deref, listOperations } from './spec-walk.ts';

/** Words an operationId may not take, as it is the name of an exported const. */
const reservedWords = new Set(
  'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield'.split(
    ' ',
  ),
);

/**
 * What the fetch client needs at run time to call each operation (method, path, how to read the
 * answer); the request and response types come from api-types.ts through `operations[id]`.
 * - operations.ts: one exported const per operation (`signInWithPassword`), so a bundle holds the
 *   facts of the operations its code calls (the client's own calls name them), not of all ~300;
 * - operation-table.ts: every operation by operationId, for a call by name (\`call('getUser')\`,
 *   which loads it on demand) and the server. It repeats the facts on purpose: if it reused the
 *   consts of operations.ts, that module (a bundler's unit) would carry all of them into the page.
 */
export function emitClientOperations(doc: OpenApiDocument): GeneratedFile[] {
  const descriptors = listOperations(doc).map(({ method, path, operation }) => {
    const operationId = operation.operationId;
    if (!/^[a-z][A-Za-z0-9]*$/.test(operationId) || reservedWords.has(operationId)) {
      throw new Error(`operationId ${operationId} cannot name a const: use lowerCamelCase and no reserved word`);
    }
    const success = Object.entries(operation.responses).find(([status]) => /^[23]\d\d$/.test(status));
    const contentType = success ? Object.keys(deref(doc, success[1]).content ?? {})[0] : undefined;
    const responseType = contentType === 'application/json' ? 'json' : contentType?.startsWith('text/') ? 'text' : 'none';
    const bodyType = Object.keys(operation.requestBody?.content ?? {})[0];
    const descriptor = {
      operationId,
      method: method.toUpperCase(),
      path,
      responseType,
      ...(bodyType ? { bodyType } : {}),
      auth: operation['x-access-types'] ? 'required' : (operation['x-auth'] ?? 'required'),
    };
    return { operationId, json: JSON.stringify(descriptor) };
  });
  const operations = `${generatedHeader()}
/** Every operationId of the spec. */
export type OperationName =
${descriptors.map(({ operationId }) => `  | ${JSON.stringify(operationId)}`).join('\n')};

${descriptors.map(({ operationId, json }) => `export const ${operationId} = ${json} as const;`).join('\n')}
`;
  const table = `${generatedHeader()}
import type { OperationName } from './operations.ts';

/** Run-time facts of every operation, keyed by operationId (the same facts as the consts of operations.ts). */
export const operationDescriptors = {
${descriptors.map(({ operationId, json }) => `  ${operationId}: ${json},`).join('\n')}
} as const satisfies Record<OperationName, unknown>;
`;
  return [
    { path: 'protocol/src/generated/operations.ts', content: operations },
    { path: 'protocol/src/generated/operation-table.ts', content: table },
  ];
}
