import { type RawBuilder, sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/** The tables whose rows lapse (each has an `expires_at`, indexed by migration 0017, the provider's by 0100). */
export type ExpiringTable =
  | 'verification_code'
  | 'cli_login_attempt'
  | 'oauth_flow'
  | 'oauth_authorization_code'
  | 'refresh_session'
  | 'oauth_provider_token'
  | 'oauth_provider_entity';

/** Which rows of a table may go once `cutoff` has passed, written against the table's own name (no alias). */
function deletable(table: ExpiringTable, cutoff: Date): RawBuilder<boolean> {
  if (table === 'oauth_provider_token') {
    // Expired access tokens only when a newer access token of the account has all their scopes:
    // whether an account ever had a scope (the connected-accounts errors tell those apart) is kept.
    return sql<boolean>`kind = 'access' and expires_at < ${cutoff} and exists (
      select 1 from oauth_provider_token newer
      where newer.oauth_account_id = oauth_provider_token.oauth_account_id and newer.kind = 'access'
        and (newer.created_at, newer.id) > (oauth_provider_token.created_at, oauth_provider_token.id)
        and newer.scopes @> oauth_provider_token.scopes)`;
  }
  return sql<boolean>`expires_at < ${cutoff}`;
}

/**
 * Deletes at most `limit` deletable rows of `table`, picked by ctid (a TID scan) so each statement
 * is short and holds few locks; returns how many went. A row updated after it was picked has a new
 * ctid and stays (an expiry moved on is not lost). Across every project: expiry is the same rule for all.
 */
export async function deleteExpiredBatchAcrossProjects(db: DbHandle, table: ExpiringTable, cutoff: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from ${sql.table(table)}
    where ctid = any(array(select ctid from ${sql.table(table)} where ${deletable(table, cutoff)} limit ${limit}))`.execute(kyselyOf(db));
  return Number(result.numAffectedRows ?? 0n);
}
