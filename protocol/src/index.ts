export * from './errors.ts';
export { isKnownErrorCode, knownErrorClasses, rebuildKnownError } from './error-table.ts';
export type { $defs, components, operations, paths, webhooks } from './generated/api-types.ts';
export type { OperationName } from './generated/operations.ts';
export { operationDescriptors } from './generated/operation-table.ts';
export type * from './operation-types.ts';
