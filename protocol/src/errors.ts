import { KnownError, type KnownErrorBody } from './known-error.ts';

export * from './generated/errors.ts';
export { KnownError, type KnownErrorBody } from './known-error.ts';

/**
 * Rebuilds the generated error class from a response body, keeping the server's message and
 * details; `undefined` when the code is not in the catalogue. The code-to-class table names all
 * ~150 classes, so it is loaded here, at the first error answer, and not with the page: a class a
 * module imports statically is the same class the table holds (one module each), so `instanceof`
 * holds either way. Should the table fail to load (a browser that lost its connection, an
 * application redeployed under an open page), the error keeps its code, status, message and
 * details as a plain KnownError.
 */
export async function knownErrorFromBody(body: KnownErrorBody, status: number): Promise<KnownError | undefined> {
  let table: typeof import('./error-table.ts');
  try {
    table = await import('./error-table.ts');
  } catch {
    return typeof body.code === 'string' ? new KnownError(body.code, status, body.error, body.details) : undefined;
  }
  return table.rebuildKnownError(body, status);
}

export { isCodeInFamily, type KnownErrorFamily } from './known-error-family.ts';
