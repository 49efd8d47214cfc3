import type { OperationInput, OperationRef } from '../api-client.ts';
import type { OperationName } from '@gatehouse/protocol/operations';
import type { KnownError } from '../errors.ts';
import type { OperationResult } from '@gatehouse/protocol/operation-types';

/**
 * A typed operation call with one app's credentials (the app objects are built on it). The SDK
 * passes operations by their consts (`op.getCurrentUser` from `@gatehouse/protocol/operations`), so a
 * bundle holds only the operations it calls; an operationId works too (the table loads on demand).
 */
export type AppCall = <Id extends OperationName>(operation: OperationRef<Id>, input?: OperationInput<Id>) => Promise<OperationResult<Id>>;

/** A catalogued error class, concrete or an abstract family. */
type ErrorClass = abstract new (...args: never[]) => KnownError;

/** The value, or null when the call failed with one of the given errors (a "not found" answer). */
export async function orNull<T>(promise: Promise<T>, ...notFound: ErrorClass[]): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (notFound.some((errorClass) => error instanceof errorClass)) return null;
    throw error;
  }
}

/** Query strings carry booleans as `"true"`/`"false"`; undefined stays out of the query. */
export const queryBoolean = (value: boolean | undefined): 'true' | 'false' | undefined =>
  value === undefined ? undefined : value ? 'true' : 'false';

/** Drops undefined values, so they are not sent as the string "undefined". */
export function definedOnly<T extends Record<string, unknown>>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as T;
}
