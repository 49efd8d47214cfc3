import { knownErrorClasses } from './generated/error-classes.ts';
import type { KnownErrorCode } from './generated/errors.ts';
import { KnownError, type KnownErrorBody } from './known-error.ts';

export { knownErrorClasses };

export const isKnownErrorCode = (code: unknown): code is KnownErrorCode =>
  typeof code === 'string' && Object.hasOwn(knownErrorClasses, code);

/**
 * Rebuilds the generated error class from a response body, keeping the server's message and
 * details; `undefined` when the code is not in the catalogue. This module names every error class:
 * browser code reaches it through `knownErrorFromBody` (errors.ts), which loads it on demand.
 */
export function rebuildKnownError(body: KnownErrorBody, status: number): KnownError | undefined {
  if (!isKnownErrorCode(body.code)) return undefined;
  const errorClass = knownErrorClasses[body.code];
  return Reflect.construct(KnownError, [body.code, status, body.error, body.details], errorClass) as KnownError;
}
