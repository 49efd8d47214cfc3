export { ApiHttpError, createApiClient, type ApiClient, type ApiClientOptions, type Middleware } from './api-client.ts';
export * from './errors.ts';
export { operationDescriptors, type OperationName } from './generated/operations.ts';
