import type { GeneratedFile } from './generated-file.ts';
import { generatedHeader } from './generated-header.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { deref, listOperations } from './spec-walk.ts';

/**
 * What the fetch client needs at run time to call each operation (method, path, how to read the
 * answer); the request and response types come from api-types.ts through `operations[id]`.
 */
export function emitClientOperations(doc: OpenApiDocument): GeneratedFile[] {
  const descriptors = listOperations(doc).map(({ method, path, operation }) => {
    const success = Object.entries(operation.responses).find(([status]) => /^[23]\d\d$/.test(status));
    const contentType = success ? Object.keys(deref(doc, success[1]).content ?? {})[0] : undefined;
    const responseType = contentType === 'application/json' ? 'json' : contentType?.startsWith('text/') ? 'text' : 'none';
    const bodyType = Object.keys(operation.requestBody?.content ?? {})[0];
    const descriptor = {
      method: method.toUpperCase(),
      path,
      responseType,
      ...(bodyType ? { bodyType } : {}),
      auth: operation['x-access-types'] ? 'required' : (operation['x-auth'] ?? 'required'),
    };
    return `  ${operation.operationId}: ${JSON.stringify(descriptor)},`;
  });
  const content = `${generatedHeader()}
/** Run-time facts of every operation, keyed by operationId. */
export const operationDescriptors = {
${descriptors.join('\n')}
} as const;

export type OperationName = keyof typeof operationDescriptors;
`;
  return [{ path: 'protocol/src/generated/operations.ts', content }];
}
