import { isKnownErrorCode, knownErrorClasses } from './errors.ts';
import type { KnownError } from './known-error.ts';

/** An abstract catalogue family such as InvalidAccessTokenError (never sent, only subclassed). */
export type KnownErrorFamily = abstract new (...args: never[]) => KnownError;

/** Whether a code on the wire belongs to a family, read from the generated class hierarchy. */
export function isCodeInFamily(code: string | undefined, family: KnownErrorFamily): boolean {
  return isKnownErrorCode(code) && knownErrorClasses[code].prototype instanceof family;
}
