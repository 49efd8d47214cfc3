export { ApiHttpError, createApiClient, type ApiClient, type ApiClientOptions, type Middleware } from './api-client.ts';
export { ConnectionError } from './connection-error.ts';
export * from './errors.ts';
export { operationDescriptors, type OperationName } from './generated/operations.ts';
export { type AccessType, CLIENT_VERSION, type RequestHeadersOptions, requestHeaders } from './middleware/request-headers.ts';
export { type RetryOptions, retry } from './middleware/retry.ts';
export { tokenRefresh } from './middleware/token-refresh.ts';
export { accessTokenExpiresAt } from './session/access-token-expiry.ts';
export type { BroadcastChannelLike, CrossTabOptions, LockManagerLike } from './session/cross-tab-refresh.ts';
export { createSession, REFRESH_MARGIN_MS, type Session, type SessionOptions } from './session/session.ts';
export { createSessionClient, type SessionClient, type SessionClientOptions } from './session-client.ts';
export { type CookieDocument, type CookieTokenStoreOptions, createCookieTokenStore } from './token-store/cookie-token-store.ts';
export {
  createLocalStorageTokenStore,
  type LocalStorageTokenStoreOptions,
  type StorageEventSource,
  type StorageLike,
} from './token-store/local-storage-token-store.ts';
export { createMemoryTokenStore } from './token-store/memory-token-store.ts';
export type { SessionTokens, TokenStore } from './token-store/token-store.ts';
