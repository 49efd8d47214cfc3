import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { UserTable } from '../../../tenancy/user.table.ts';
import type { ContactChannelTable } from './contact-channel.table.ts';
import type { ColumnStatistics } from './user-search.ts';
import type { UserOAuthProviderSummary, UserRecord } from '../../../tenancy/user-record.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import { isUuid } from '../../../lib/uuid.ts';

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
export async function findUserRecord(db: DbHandle, projectId: ProjectId, userId: string): Promise<UserRecord | undefined> {
  const { rows } = await sql<UserRecord>`
    select u.*, ${oauthProviders} as oauth_providers from project_user u where u.id = ${userId} and u.project_id = ${projectId}`.execute(
    kyselyOf(db),
  );
  return rows[0];
}

/** The auth-enabled email channel with this address (case-insensitive): at most one per project. */
export async function findAuthEmailChannel(db: DbHandle, projectId: ProjectId, email: string) {
  return kyselyOf(db)
    .selectFrom('contact_channel')
    .select(['user_id', 'is_verified'])
    .where('project_id', '=', projectId)
    .where(sql`lower(value)`, '=', email.toLowerCase())
    .where('used_for_auth', '=', true)
    .executeTakeFirst();
}

/** The user whose auth-enabled email channel has this address (case-insensitive), in one round trip: every password sign-in starts here. */
export async function findUserRecordByAuthEmail(db: DbHandle, projectId: ProjectId, email: string): Promise<UserRecord | undefined> {
  const { rows } = await sql<UserRecord>`
    select u.*, ${oauthProviders} as oauth_providers
    from contact_channel c join project_user u on u.id = c.user_id and u.project_id = c.project_id
    where c.project_id = ${projectId} and lower(c.value) = ${email.toLowerCase()} and c.used_for_auth
    limit 1`.execute(kyselyOf(db));
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
  /**
   * The parts of `query` the trigram indexes are asked for, emails and display names each (see
   * user-search.ts); the whole query is then checked on the rows found. Absent: the whole query.
   */
  probes?: { email?: string; displayName?: string };
};

/** `%text%` for `ilike`, with the LIKE wildcards and the escape character of `text` taken literally. */
const substringPattern = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * The rows of `table` whose `column` contains the query: the index is asked for the probe's pattern and
 * the full pattern is checked on what it finds (`offset 0` keeps the planner from handing the full
 * pattern to the index as well, which would bring its frequent trigrams back into the probe).
 */
function matching(
  table: 'contact_channel' | 'project_user',
  column: 'value' | 'display_name',
  id: 'user_id' | 'id',
  projectId: ProjectId,
  pattern: string,
  probe: string | undefined,
) {
  const [from, searched, selected] = [sql.table(table), sql.ref(column), sql.ref(id)];
  if (probe === undefined) return sql`select ${selected} from ${from} where project_id = ${projectId} and ${searched} ilike ${pattern}`;
  return sql`select probed.${selected} from (
      select ${selected}, ${searched} as searched from ${from} where project_id = ${projectId} and ${searched} ilike ${substringPattern(probe)} offset 0
    ) probed where probed.searched ilike ${pattern}`;
}

/** Keyset pagination on (signed_up_at, id): the cursor is the id of the first user of the page. */
export async function listUserRecords(db: DbHandle, projectId: ProjectId, filter: UserListFilter): Promise<UserRecord[]> {
  let query = selectUserRecords(kyselyOf(db)).where('u.project_id', '=', projectId);
  if (filter.onlyAnonymous) query = query.where('u.is_anonymous', '=', true);
  else if (!filter.includeAnonymous) query = query.where('u.is_anonymous', '=', false);
  if (!filter.includeRestricted && !filter.includeAnonymous) {
    query = query.where('u.restricted_by_admin', '=', false);
    if (filter.requireEmailVerification) query = query.where('u.primary_email_verified', '=', true);
  }
  if (filter.query) {
    const pattern = substringPattern(filter.query);
    const id = filter.query.toLowerCase();
    // The users matching by an email or the display name (each an ilike the trigram indexes of
    // migration 0075 answer), or whose id is the query: a set of ids, so the page below reads only them.
    const byId = isUuid(id) ? sql`union all select ${id}::uuid` : sql``;
    query = query.where(
      sql<boolean>`u.id in (
        ${matching('contact_channel', 'value', 'user_id', projectId, pattern, filter.probes?.email)}
        union all
        ${matching('project_user', 'display_name', 'id', projectId, pattern, filter.probes?.displayName)}
        ${byId})`,
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

/**
 * The planner's statistics of the two searched columns, where their trigram index exists (not on PGlite,
 * nor on a Postgres without pg_trgm): what user-search.ts estimates frequent trigrams from. The indexes
 * hold every project's rows, so the statistics are the whole table's.
 */
export async function readSearchStatisticsAcrossProjects(
  db: DbHandle,
): Promise<{ email?: ColumnStatistics; displayName?: ColumnStatistics }> {
  const { rows } = await sql<{
    tablename: string;
    null_frac: number;
    common_values: string[] | null;
    common_shares: number[] | null;
    histogram: string[] | null;
  }>`
    select s.tablename, s.null_frac, s.most_common_vals::text::text[] as common_values,
      s.most_common_freqs::float8[] as common_shares, s.histogram_bounds::text::text[] as histogram
    from pg_stats s
    join pg_indexes i on i.schemaname = s.schemaname and i.tablename = s.tablename
      and i.indexname = case s.tablename when 'contact_channel' then 'contact_channel_value_trgm_idx' else 'project_user_display_name_trgm_idx' end
    where s.schemaname = current_schema() and not s.inherited
      and ((s.tablename = 'contact_channel' and s.attname = 'value') or (s.tablename = 'project_user' and s.attname = 'display_name'))`.execute(
    kyselyOf(db),
  );
  const statistics = (row: (typeof rows)[number]): ColumnStatistics => ({
    nullShare: Number(row.null_frac),
    commonValues: row.common_values ?? [],
    commonShares: (row.common_shares ?? []).map(Number),
    histogram: row.histogram ?? [],
  });
  const email = rows.find((row) => row.tablename === 'contact_channel');
  const displayName = rows.find((row) => row.tablename === 'project_user');
  return { email: email && statistics(email), displayName: displayName && statistics(displayName) };
}

export async function deleteUserRow(db: DbHandle, projectId: ProjectId, userId: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('project_user')
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertUser(db: DbHandle, row: Insertable<UserTable>): Promise<void> {
  await kyselyOf(db).insertInto('project_user').values(row).execute();
}

/** Sets the columns given (undefined ones are left alone). */
export async function updateUserColumns(db: DbHandle, projectId: ProjectId, userId: string, columns: Updateable<UserTable>): Promise<void> {
  const defined = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
  if (Object.keys(defined).length === 0) return;
  await kyselyOf(db).updateTable('project_user').set(defined).where('project_id', '=', projectId).where('id', '=', userId).execute();
}

/** Clears the selected team when it is `teamId` (the user left it). */
export async function clearSelectedTeam(db: DbHandle, projectId: ProjectId, userId: string, teamId: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('project_user')
    .set({ selected_team_id: null })
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .where('selected_team_id', '=', teamId)
    .execute();
}

export async function insertContactChannel(db: DbHandle, row: Insertable<ContactChannelTable>): Promise<void> {
  await kyselyOf(db).insertInto('contact_channel').values(row).execute();
}

export async function deletePrimaryEmail(db: DbHandle, projectId: ProjectId, userId: string): Promise<void> {
  await kyselyOf(db)
    .deleteFrom('contact_channel')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
    .execute();
}

export async function updatePrimaryEmail(
  db: DbHandle,
  projectId: ProjectId,
  userId: string,
  set: Pick<Updateable<ContactChannelTable>, 'value' | 'is_verified' | 'used_for_auth'>,
): Promise<void> {
  await kyselyOf(db)
    .updateTable('contact_channel')
    .set(set)
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
    .execute();
}

/** Whether the user has proved it owns this email (a verified channel, case-insensitive). */
export async function hasVerifiedEmail(db: DbHandle, projectId: ProjectId, userId: string, email: string): Promise<boolean> {
  const channel = await kyselyOf(db)
    .selectFrom('contact_channel')
    .select('id')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('is_verified', '=', true)
    .where(sql`lower(value)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return channel !== undefined;
}
