export * from './errors.ts';
export type { $defs, components, operations, paths, webhooks } from './generated/api-types.ts';
export { type OperationName, operationDescriptors } from './generated/operations.ts';
export { isCodeInFamily, type KnownErrorFamily } from './known-error-family.ts';
export type * from './operation-types.ts';
