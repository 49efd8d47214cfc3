export { createApiClient, type ApiClient, type ApiClientOptions } from './api-client.ts';
export * from './errors.ts';
export { operationDescriptors, type OperationName } from './generated/operations.ts';
