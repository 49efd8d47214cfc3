import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { UserOAuthProviderSummary, UserRecord } from '../../tenancy/user-record.ts';

/**
 * The linked provider accounts of the user `u`, oldest first, as a JSON array: a subquery of the
 * user read (an index probe on oauth_account_user_account_idx), so reading a user stays one round
 * trip and a page of users one query.
 */
const oauthProviders = sql<UserOAuthProviderSummary[]>`coalesce((
  select json_agg(json_build_object('id', a.provider_config_id, 'account_id', a.account_id, 'email', a.email) order by a.created_at, a.id)
  from oauth_account a where a.user_id = u.id), '[]'::json)`;

const selectUserRecords = (db: Kysely<Database>) =>
  db.selectFrom('project_user as u').selectAll('u').select(oauthProviders.as('oauth_providers'));

/** The hot path of every request with a user token: one primary-key lookup, written out so no query is built per request. */
export async function findUserRecord(db: Kysely<Database>, projectId: string, userId: string): Promise<UserRecord | undefined> {
  const { rows } = await sql<UserRecord>`
    select u.*, ${oauthProviders} as oauth_providers from project_user u where u.id = ${userId} and u.project_id = ${projectId}`.execute(
    db,
  );
  return rows[0];
}

/** The auth-enabled email channel with this address (case-insensitive): at most one per project. */
export async function findAuthEmailChannel(db: Kysely<Database>, projectId: string, email: string) {
  return db
    .selectFrom('contact_channel')
    .select(['user_id', 'is_verified'])
    .where('project_id', '=', projectId)
    .where(sql`lower(value)`, '=', email.toLowerCase())
    .where('used_for_auth', '=', true)
    .executeTakeFirst();
}

/** The user whose auth-enabled email channel has this address (case-insensitive), in one round trip: every password sign-in starts here. */
export async function findUserRecordByAuthEmail(db: Kysely<Database>, projectId: string, email: string): Promise<UserRecord | undefined> {
  const { rows } = await sql<UserRecord>`
    select u.*, ${oauthProviders} as oauth_providers
    from contact_channel c join project_user u on u.id = c.user_id and u.project_id = c.project_id
    where c.project_id = ${projectId} and lower(c.value) = ${email.toLowerCase()} and c.used_for_auth
    limit 1`.execute(db);
  return rows[0];
}

export type UserListFilter = {
  limit?: number;
  cursor?: string;
  desc: boolean;
  query?: string;
  includeAnonymous: boolean;
  includeRestricted: boolean;
  onlyAnonymous: boolean;
  /** When the project requires verified emails, users without one are restricted. */
  requireEmailVerification: boolean;
};

/** Keyset pagination on (signed_up_at, id): the cursor is the id of the first user of the page. */
export async function listUserRecords(db: Kysely<Database>, projectId: string, filter: UserListFilter): Promise<UserRecord[]> {
  let query = selectUserRecords(db).where('u.project_id', '=', projectId);
  if (filter.onlyAnonymous) query = query.where('u.is_anonymous', '=', true);
  else if (!filter.includeAnonymous) query = query.where('u.is_anonymous', '=', false);
  if (!filter.includeRestricted && !filter.includeAnonymous) {
    query = query.where('u.restricted_by_admin', '=', false);
    if (filter.requireEmailVerification) query = query.where('u.primary_email_verified', '=', true);
  }
  if (filter.query) {
    const pattern = `%${filter.query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    const text = filter.query;
    query = query.where((eb) =>
      eb.or([
        eb('u.display_name', 'ilike', pattern),
        eb(sql`u.id::text`, '=', text.toLowerCase()),
        eb.exists(
          eb
            .selectFrom('contact_channel as search')
            .select('search.id')
            .whereRef('search.user_id', '=', 'u.id')
            .where('search.value', 'ilike', pattern),
        ),
      ]),
    );
  }
  if (filter.cursor) {
    const comparison = sql.raw(filter.desc ? '<=' : '>=');
    query = query.where(
      sql<boolean>`(u.signed_up_at, u.id) ${comparison} (select signed_up_at, id from project_user where project_id = ${projectId} and id = ${filter.cursor})`,
    );
  }
  const direction = filter.desc ? 'desc' : 'asc';
  query = query.orderBy('u.signed_up_at', direction).orderBy('u.id', direction);
  if (filter.limit !== undefined) query = query.limit(filter.limit + 1);
  return query.execute();
}

export async function deleteUserRow(db: Kysely<Database>, projectId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('project_user').where('project_id', '=', projectId).where('id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
