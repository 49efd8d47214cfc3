import type { components } from '@gatehouse/client/api-types';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { metricsQueries, type RecentRow } from './metrics.repository.ts';

const toRecentUser = (row: RecentRow) => ({
  id: row.id,
  display_name: row.display_name,
  primary_email: row.primary_email,
  profile_image_url: row.profile_image_url,
  signed_up_at_millis: row.signed_up_at.getTime(),
  last_active_at_millis: row.last_active_at.getTime(),
});

/** The last 30 UTC days, oldest first, each with its count (0 when none). */
function last30Days(rows: Array<{ date: string; activity: number }>) {
  const counts = new Map(rows.map((row) => [row.date, row.activity]));
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: 30 }, (_, index) => {
    const date = new Date(today - (29 - index) * 86_400_000).toISOString().slice(0, 10);
    return { date, activity: counts.get(date) ?? 0 };
  });
}

/** The dashboard's user metrics, its queries run concurrently. The total is the sum per method. */
export async function projectMetrics(
  db: Kysely<Database>,
  projectId: string,
  includeAnonymous: boolean,
): Promise<components['schemas']['ProjectMetrics']> {
  const queries = metricsQueries(db, projectId, includeAnonymous);
  const [signUps, active, countries, methods, registered, recentlyActive] = await Promise.all([
    queries.signUpsPerDay(),
    queries.activePerDay(),
    queries.byCountry(),
    queries.byMethod(),
    queries.recentlyRegistered(),
    queries.recentlyActive(),
  ]);
  return {
    total_users: methods.reduce((sum, row) => sum + row.count, 0),
    daily_users: last30Days(signUps),
    daily_active_users: last30Days(active),
    users_by_country: Object.fromEntries(countries.filter((row) => row.key !== null).map((row) => [row.key, row.count])),
    recently_registered: registered.map(toRecentUser),
    recently_active: recentlyActive.map(toRecentUser),
    login_methods: methods.map((row) => ({ method: row.key ?? 'other', count: row.count })).sort((a, b) => b.count - a.count),
  };
}
