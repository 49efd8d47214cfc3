import { randomUUID } from 'node:crypto';
import { sql, type Updateable } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { OAuthAccountRow, OAuthAccountTable, OAuthProviderTokenRow } from './oauth.table.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/** Linked provider accounts and their provider tokens (Kysely only). */

export async function findSignInAccount(
  db: DbHandle,
  projectId: ProjectId,
  providerConfigId: string,
  accountId: string,
): Promise<OAuthAccountRow | undefined> {
  return kyselyOf(db)
    .selectFrom('oauth_account')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('provider_config_id', '=', providerConfigId)
    .where('account_id', '=', accountId)
    .where('allow_sign_in', '=', true)
    .executeTakeFirst();
}

export async function listAccounts(
  db: DbHandle,
  projectId: ProjectId,
  filter: { userId?: string; providerConfigId?: string; accountId?: string } = {},
): Promise<OAuthAccountRow[]> {
  let query = kyselyOf(db).selectFrom('oauth_account').selectAll().where('project_id', '=', projectId);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.providerConfigId) query = query.where('provider_config_id', '=', filter.providerConfigId);
  if (filter.accountId) query = query.where('account_id', '=', filter.accountId);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function findAccount(db: DbHandle, projectId: ProjectId, userId: string, id: string) {
  return kyselyOf(db)
    .selectFrom('oauth_account')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type NewAccount = Omit<OAuthAccountRow, 'id' | 'created_at' | 'project_id'>;

export async function insertAccount(db: DbHandle, projectId: ProjectId, account: NewAccount): Promise<OAuthAccountRow> {
  // The statement's clock, not the transaction's: links made in one transaction (POST /users) keep their order.
  return kyselyOf(db)
    .insertInto('oauth_account')
    .values({ id: randomUUID(), project_id: projectId, ...account, created_at: sql<Date>`clock_timestamp()` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateAccount(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  changes: Updateable<OAuthAccountTable>,
): Promise<OAuthAccountRow> {
  return kyselyOf(db)
    .updateTable('oauth_account')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteAccount(db: DbHandle, projectId: ProjectId, id: string): Promise<void> {
  await kyselyOf(db).deleteFrom('oauth_account').where('project_id', '=', projectId).where('id', '=', id).execute();
}

/*
 * Provider tokens have no project column: they belong to an account the service read within the
 * project, and every call still names the project.
 */

export async function insertToken(
  db: DbHandle,
  _projectId: ProjectId,
  token: { oauthAccountId: string; kind: 'access' | 'refresh'; sealedValue: string; scopes: string[]; expiresAt: Date | null },
): Promise<void> {
  await kyselyOf(db)
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
  db: DbHandle,
  _projectId: ProjectId,
  oauthAccountId: string,
  kind: 'access' | 'refresh',
  minimumLifetimeMillis = 0,
): Promise<OAuthProviderTokenRow[]> {
  let query = kyselyOf(db)
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

export async function invalidateToken(db: DbHandle, _projectId: ProjectId, id: string): Promise<void> {
  await kyselyOf(db).updateTable('oauth_provider_token').set({ is_valid: false }).where('id', '=', id).execute();
}

/** The scopes of every token (valid or not) of an account. */
export async function listTokenScopes(db: DbHandle, _projectId: ProjectId, oauthAccountId: string): Promise<string[][]> {
  const rows = await kyselyOf(db)
    .selectFrom('oauth_provider_token')
    .select(['scopes'])
    .where('oauth_account_id', '=', oauthAccountId)
    .execute();
  return rows.map((row) => row.scopes);
}
