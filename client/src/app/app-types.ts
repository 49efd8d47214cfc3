import type { components } from '@gatehouse/protocol/api-types';

/**
 * The wire shapes the app objects return and accept, named once. Data keeps the protocol's field
 * names (snake_case): it is what the server sends, typed from the spec, so a field the spec adds
 * reaches callers without an SDK change.
 */
type Schemas = components['schemas'];

export type SignInResponse = Schemas['SignInResponse'];
export type ClientProject = Schemas['ClientProject'];

export type ClientCurrentUserData = Schemas['ClientCurrentUser'];
export type CurrentUserUpdate = Schemas['CurrentUserClientUpdate'];
export type ServerUser = Schemas['ServerUser'];
export type ServerUserCreate = Schemas['ServerUserCreate'];
export type ServerUserUpdate = Schemas['ServerUserUpdate'];
export type UserList = Schemas['UserList'];

export type ClientTeamData = Schemas['ClientTeam'];
export type ServerTeam = Schemas['ServerTeam'];
export type TeamCreate = Schemas['TeamCreate'];
export type TeamUpdate = Schemas['TeamUpdate'];
export type TeamMembership = Schemas['TeamMembership'];
export type TeamMemberProfile = Schemas['TeamMemberProfile'];
export type TeamInvitation = Schemas['TeamInvitation'];

export type TeamPermission = Schemas['TeamPermission'];
export type ProjectPermission = Schemas['ProjectPermission'];
export type PermissionDefinition = Schemas['PermissionDefinition'];
export type PermissionDefinitionCreate = Schemas['PermissionDefinitionCreate'];
export type PermissionDefinitionUpdate = Schemas['PermissionDefinitionUpdate'];

export type ContactChannelData = Schemas['ContactChannel'];
export type SessionInfo = Schemas['Session'];

export type UserApiKeyData = Schemas['UserApiKey'];
export type UserApiKeyCreatedData = Schemas['UserApiKeyCreated'];
export type TeamApiKeyData = Schemas['TeamApiKey'];
export type TeamApiKeyCreatedData = Schemas['TeamApiKeyCreated'];
/** What a new user or team API key is made of (the owner is given separately). */
export type ApiKeyCreate = { description: string; expires_at_millis?: number | null; is_public?: boolean };

export type AdminProject = Schemas['AdminProject'];
export type ProjectCreate = Schemas['ProjectCreate'];
export type ProjectUpdate = Schemas['ProjectUpdate'];
export type ProjectMetrics = Schemas['ProjectMetrics'];
export type InternalApiKey = Schemas['InternalApiKey'];
export type InternalApiKeyCreated = Schemas['InternalApiKeyCreated'];

/** The tokens of a session a server created, ready for a TokenStore (`createMemoryTokenStore(tokens)`). */
export type CreatedSessionTokens = { accessToken: string; refreshToken: string };
