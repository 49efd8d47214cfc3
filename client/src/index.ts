export { ApiHttpError, createApiClient, type ApiClient, type ApiClientOptions, type Middleware, type OperationRef } from './api-client.ts';
export { ConnectionError } from './connection-error.ts';
export * from './errors.ts';
export type { OperationName } from '@gatehouse/protocol/operations';
// Every operation's facts by operationId; the SDK itself names operations by their consts
// (`@gatehouse/protocol/operations`) and loads this table only for a call by name.
export { operationDescriptors } from '@gatehouse/protocol/operation-table';
export type { components, operations, paths } from '@gatehouse/protocol/api-types';
export type * from '@gatehouse/protocol/operation-types';
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
export {
  type AdminApp,
  type AdminAppOptions,
  type ConfigOverrideLevel,
  createAdminApp,
  type ProjectConfig,
  type ProjectConfigOverride,
} from './app/admin-app.ts';
export type {
  AdminPayments,
  CatalogueItem,
  CataloguePrice,
  CatalogueProduct,
  CatalogueProductLine,
  DayInterval,
  PaymentMethodConfigs,
  PaymentTransaction,
  PaymentTransactionType,
} from './app/admin-payments.ts';
export type { AdminAiChat, AiChatContent, AiChatContextType, AiChatMessage } from './app/admin-ai-chat.ts';
export type { AppCall } from './app/app-call.ts';
export type {
  AdminWebhooks,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookMessage,
} from './app/admin-webhooks.ts';
export type * from './app/app-types.ts';
export type { AdminAccessTokenSource } from './app/backend-call.ts';
export { type ClientApp, type ClientAppOptions, createClientApp, type GetUserOr } from './app/client-app.ts';
export type { ClientSignIn, OAuthSignInResult } from './app/client-sign-in.ts';
export type { ClientTeamUpdate, Team } from './app/client-team.ts';
export type { ClientTeamCreate, CurrentUser, NewContactChannel, TeamRef } from './app/current-user.ts';
export type { OAuthProvider, OAuthSignInUrl, OAuthSignInUrlOptions } from './app/oauth-sign-in-url.ts';
export {
  browserPasskeyCeremonies,
  type PasskeyCeremonies,
  webAuthnUnsupportedError,
  webAuthnUnsupportedMessage,
} from './app/passkey-ceremonies.ts';
export { createServerApp, type ServerApp, type ServerAppOptions, type ServerCapabilities } from './app/server-app.ts';
export type {
  AdminEmails,
  EditableRegion,
  EmailDraft,
  EmailTemplate,
  EmailThemeChoice,
  EmailThemeDetail,
  EmailThemeSummary,
  RenderedEmail,
  RenderEmailInput,
} from './app/admin-emails.ts';
export type { ServerApiKeys, ServerProjectPermissions, ServerTeamPermissions, ServerTeams } from './app/server-teams.ts';
export type { ListUsersOptions, ServerContactChannels, ServerSessions, ServerUsers } from './app/server-users.ts';
export type {
  ContactChannel,
  ContactChannelUpdate,
  TeamApiKey,
  TeamApiKeyCreated,
  UserApiKey,
  UserApiKeyCreated,
} from './app/user-resources.ts';
