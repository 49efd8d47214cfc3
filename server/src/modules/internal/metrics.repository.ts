import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export type RecentRow = {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  profile_image_url: string | null;
  signed_up_at: Date;
  last_active_at: Date;
};

/**
 * The metrics' queries, each answerable from a covering index (migration 0009) and run
 * concurrently; anonymous users only when included.
 */
export function metricsQueries(db: Kysely<Database>, projectId: string, includeAnonymous: boolean) {
  const anonymous = includeAnonymous ? sql`` : sql`and not is_anonymous`;
  const perDay = async (column: 'signed_up_at' | 'last_active_at') => {
    const { rows } = await sql<{ date: string; activity: number }>`
      select to_char(${sql.ref(column)} at time zone 'utc', 'YYYY-MM-DD') as date, count(*)::int as activity
      from project_user
      where project_id = ${projectId} and ${sql.ref(column)} >= (now() at time zone 'utc')::date - 29 ${anonymous}
      group by 1`.execute(db);
    return rows;
  };
  const grouped = async (column: 'country_code' | 'sign_up_method') => {
    const { rows } = await sql<{ key: string | null; count: number }>`
      select ${sql.ref(column)} as key, count(*)::int as count from project_user
      where project_id = ${projectId} ${anonymous} group by 1`.execute(db);
    return rows;
  };
  const recent = async (column: 'signed_up_at' | 'last_active_at') => {
    const { rows } = await sql<RecentRow>`
      select id, display_name, primary_email, profile_image_url, signed_up_at, last_active_at from project_user
      where project_id = ${projectId} ${anonymous} order by ${sql.ref(column)} desc limit 10`.execute(db);
    return rows;
  };
  return {
    signUpsPerDay: () => perDay('signed_up_at'),
    activePerDay: () => perDay('last_active_at'),
    byCountry: () => grouped('country_code'),
    byMethod: () => grouped('sign_up_method'),
    recentlyRegistered: () => recent('signed_up_at'),
    recentlyActive: () => recent('last_active_at'),
  };
}
