import { knownErrorClasses, type KnownErrorCode } from './generated/errors.ts';
import { KnownError, type KnownErrorBody } from './known-error.ts';

export * from './generated/errors.ts';
export { KnownError, type KnownErrorBody } from './known-error.ts';

export const isKnownErrorCode = (code: unknown): code is KnownErrorCode =>
  typeof code === 'string' && Object.hasOwn(knownErrorClasses, code);

/**
 * Rebuilds the generated error class from a response body, keeping the server's message and
 * details; `undefined` when the code is not in the catalogue.
 */
export function knownErrorFromBody(body: KnownErrorBody, status: number): KnownError | undefined {
  if (!isKnownErrorCode(body.code)) return undefined;
  const errorClass = knownErrorClasses[body.code];
  return Reflect.construct(KnownError, [body.code, status, body.error, body.details], errorClass) as KnownError;
}
