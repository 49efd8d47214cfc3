import type { UserRow } from './user.table.ts';

/** A provider account linked to the user, as the user views list it (the spec's UserOAuthProviderSummary). */
export type UserOAuthProviderSummary = { id: string; account_id: string; email: string | null };

/** A user with its primary email (kept on the row by a trigger) and its linked provider accounts, as every read needs them. */
export type UserRecord = UserRow & { oauth_providers: UserOAuthProviderSummary[] };
