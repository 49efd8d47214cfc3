import { sql } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

export type RecentRow = {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  profile_image_url: string | null;
  signed_up_at: Date;
  last_active_at: Date;
};

/**
 * The metrics' queries, run concurrently: the counts come from the rollups that triggers keep on
 * project_user (migration 0015), a few dozen rows whatever the number of users; the recent users
 * from covering indexes. Anonymous users only when included.
 */
export function metricsQueries(db: DbHandle, projectId: ProjectId, includeAnonymous: boolean) {
  const anonymous = includeAnonymous ? sql`` : sql`and not is_anonymous`;
  const recent = async (column: 'signed_up_at' | 'last_active_at') => {
    const { rows } = await sql<RecentRow>`
      select id, display_name, primary_email, profile_image_url, signed_up_at, last_active_at from project_user
      where project_id = ${projectId} ${anonymous} order by ${sql.ref(column)} desc limit 10`.execute(kyselyOf(db));
    return rows;
  };
  return {
    /** Users per sign-up method and country ('' for none). */
    totals: async () => {
      const { rows } = await sql<{ sign_up_method: string; country_code: string; users: number }>`
        select sign_up_method, country_code, sum(users)::int as users from user_metrics_total
        where project_id = ${projectId} ${anonymous} group by 1, 2 having sum(users) > 0`.execute(kyselyOf(db));
      return rows;
    },
    /** Sign-ups and latest activity per UTC day (`YYYY-MM-DD`), from `firstDay` on. */
    days: async (firstDay: string) => {
      const { rows } = await sql<{ day: string; sign_ups: number; last_active: number }>`
        select day::text as day, sum(sign_ups)::int as sign_ups, sum(last_active)::int as last_active from user_metrics_daily
        where project_id = ${projectId} and day >= ${firstDay}::date ${anonymous} group by 1`.execute(kyselyOf(db));
      return rows;
    },
    recentlyRegistered: () => recent('signed_up_at'),
    recentlyActive: () => recent('last_active_at'),
  };
}

/** Users that are and are not anonymous, from the rollups. */
export async function countUsersByAnonymity(db: DbHandle, projectId: ProjectId): Promise<{ total: number; anonymous: number }> {
  const { rows } = await sql<{ is_anonymous: boolean; users: number }>`
    select is_anonymous, sum(users)::int as users from user_metrics_total where project_id = ${projectId} group by 1`.execute(kyselyOf(db));
  return {
    total: rows.find((row) => !row.is_anonymous)?.users ?? 0,
    anonymous: rows.find((row) => row.is_anonymous)?.users ?? 0,
  };
}

/** A user's latest activity; undefined for an unknown user. */
export async function findLastActiveAt(db: DbHandle, projectId: ProjectId, userId: string): Promise<Date | undefined> {
  const row = await kyselyOf(db)
    .selectFrom('project_user')
    .select('last_active_at')
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.last_active_at;
}

/** Users not anonymous, not restricted by an administrator, without a verified primary email: the first `limit` by sign-up, and how many. */
export async function unverifiedUnrestrictedUsers(db: DbHandle, projectId: ProjectId, limit: number) {
  const base = kyselyOf(db)
    .selectFrom('project_user')
    .where('project_id', '=', projectId)
    .where('is_anonymous', '=', false)
    .where('restricted_by_admin', '=', false)
    .where((eb) => eb.or([eb('primary_email_verified', 'is', null), eb('primary_email_verified', '=', false)]));
  const [users, count] = await Promise.all([
    base.select(['id', 'display_name', 'primary_email']).orderBy('signed_up_at').orderBy('id').limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { users, total: Number(count.count) };
}
