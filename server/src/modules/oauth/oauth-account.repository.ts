import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Updateable } from 'kysely';
import type { Database, OAuthAccountRow, OAuthAccountTable, OAuthProviderTokenRow } from '../../db/schema.ts';

/** Linked provider accounts and their provider tokens (Kysely only). */

export async function findSignInAccount(
  db: Kysely<Database>,
  projectId: string,
  providerConfigId: string,
  accountId: string,
): Promise<OAuthAccountRow | undefined> {
  return db
    .selectFrom('oauth_account')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('provider_config_id', '=', providerConfigId)
    .where('account_id', '=', accountId)
    .where('allow_sign_in', '=', true)
    .executeTakeFirst();
}

export async function listAccounts(
  db: Kysely<Database>,
  projectId: string,
  filter: { userId?: string; providerConfigId?: string; accountId?: string } = {},
): Promise<OAuthAccountRow[]> {
  let query = db.selectFrom('oauth_account').selectAll().where('project_id', '=', projectId);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.providerConfigId) query = query.where('provider_config_id', '=', filter.providerConfigId);
  if (filter.accountId) query = query.where('account_id', '=', filter.accountId);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function findAccount(db: Kysely<Database>, projectId: string, userId: string, id: string) {
  return db
    .selectFrom('oauth_account')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type NewAccount = Omit<OAuthAccountRow, 'id' | 'created_at'>;

export async function insertAccount(db: Kysely<Database>, account: NewAccount): Promise<OAuthAccountRow> {
  // The statement's clock, not the transaction's: links made in one transaction (POST /users) keep their order.
  return db
    .insertInto('oauth_account')
    .values({ id: randomUUID(), ...account, created_at: sql<Date>`clock_timestamp()` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateAccount(db: Kysely<Database>, id: string, changes: Updateable<OAuthAccountTable>): Promise<OAuthAccountRow> {
  return db.updateTable('oauth_account').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteAccount(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('oauth_account').where('id', '=', id).execute();
}

export async function insertToken(
  db: Kysely<Database>,
  token: { oauthAccountId: string; kind: 'access' | 'refresh'; sealedValue: string; scopes: string[]; expiresAt: Date | null },
): Promise<void> {
  await db
    .insertInto('oauth_provider_token')
    .values({
      id: randomUUID(),
      oauth_account_id: token.oauthAccountId,
      kind: token.kind,
      sealed_value: token.sealedValue,
      scopes: token.scopes,
      expires_at: token.expiresAt,
    })
    .execute();
}

/** Valid tokens of an account, newest first; access tokens only when they live at least `minimumLifetimeMillis` more. */
export async function listValidTokens(
  db: Kysely<Database>,
  oauthAccountId: string,
  kind: 'access' | 'refresh',
  minimumLifetimeMillis = 0,
): Promise<OAuthProviderTokenRow[]> {
  let query = db
    .selectFrom('oauth_provider_token')
    .selectAll()
    .where('oauth_account_id', '=', oauthAccountId)
    .where('kind', '=', kind)
    .where('is_valid', '=', true);
  if (kind === 'access') {
    const horizon = new Date(Date.now() + minimumLifetimeMillis);
    query = query.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', horizon)]));
  }
  return query.orderBy('created_at', 'desc').execute();
}

export async function invalidateToken(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('oauth_provider_token').set({ is_valid: false }).where('id', '=', id).execute();
}
