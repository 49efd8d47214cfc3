import type { components } from '@gatehouse/protocol/api-types';
import type { DbHandle } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { UserNotFoundError } from '@gatehouse/protocol/errors';
import type { Project } from '../../../tenancy/project.ts';
import {
  countUsersByAnonymity,
  findLastActiveAt,
  metricsQueries,
  type RecentRow,
  unverifiedUnrestrictedUsers,
} from './metrics.repository.ts';

const toRecentUser = (row: RecentRow) => ({
  id: row.id,
  display_name: row.display_name,
  primary_email: row.primary_email,
  profile_image_url: row.profile_image_url,
  signed_up_at_millis: row.signed_up_at.getTime(),
  last_active_at_millis: row.last_active_at.getTime(),
});

/** The last 30 UTC days (`YYYY-MM-DD`), oldest first. */
function last30Days(): string[] {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: 30 }, (_, index) => new Date(today - (29 - index) * 86_400_000).toISOString().slice(0, 10));
}

/** Sums `count` per key ('' stands for none). */
function tally<Row>(rows: Row[], key: (row: Row) => string, count: (row: Row) => number): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + count(row));
  return totals;
}

/** The dashboard's user metrics, its queries run concurrently. */
async function projectMetrics(
  db: DbHandle,
  projectId: ProjectId,
  includeAnonymous: boolean,
): Promise<components['schemas']['ProjectMetrics']> {
  const queries = metricsQueries(db, projectId, includeAnonymous);
  const days = last30Days();
  const [totals, perDay, registered, recentlyActive] = await Promise.all([
    queries.totals(),
    queries.days(days[0] as string),
    queries.recentlyRegistered(),
    queries.recentlyActive(),
  ]);
  const byDay = new Map(perDay.map((row) => [row.day, row]));
  const byCountry = tally(
    totals,
    (row) => row.country_code,
    (row) => row.users,
  );
  const byMethod = tally(
    totals,
    (row) => row.sign_up_method,
    (row) => row.users,
  );
  byCountry.delete('');
  return {
    total_users: totals.reduce((sum, row) => sum + row.users, 0),
    daily_users: days.map((date) => ({ date, activity: byDay.get(date)?.sign_ups ?? 0 })),
    daily_active_users: days.map((date) => ({ date, activity: byDay.get(date)?.last_active ?? 0 })),
    users_by_country: Object.fromEntries(byCountry),
    recently_registered: registered.map(toRecentUser),
    recently_active: recentlyActive.map(toRecentUser),
    login_methods: [...byMethod].map(([method, count]) => ({ method: method || 'other', count })).sort((a, b) => b.count - a.count),
  };
}

/** The dashboard's user metrics of a project. */
export class MetricsService {
  constructor(private readonly db: DbHandle) {}

  of(projectId: ProjectId, includeAnonymous: boolean): Promise<components['schemas']['ProjectMetrics']> {
    return projectMetrics(this.db, projectId, includeAnonymous);
  }

  async userCounts(projectId: ProjectId): Promise<{ total_users: number; anonymous_users: number }> {
    const { total, anonymous } = await countUsersByAnonymity(this.db, projectId);
    return { total_users: total, anonymous_users: anonymous };
  }

  /** The last 30 UTC days: 1 on the day of the user's latest activity (the only one kept), else 0. */
  async userActivity(projectId: ProjectId, userId: string): Promise<{ data_points: Array<{ date: string; activity: number }> }> {
    const lastActive = await findLastActiveAt(this.db, projectId, userId.toLowerCase());
    if (!lastActive) throw new UserNotFoundError();
    const day = lastActive.toISOString().slice(0, 10);
    return { data_points: last30Days().map((date) => ({ date, activity: date === day ? 1 : 0 })) };
  }

  /** The users the onboarding settings given would newly restrict (see previewAffectedUsers). */
  async previewAffectedUsers(project: Project, onboarding: { require_email_verification?: boolean }, limit: number) {
    const requires = onboarding.require_email_verification ?? project.config.onboarding.requireEmailVerification;
    if (!requires || project.config.onboarding.requireEmailVerification) return { affected_users: [], total_affected_count: 0 };
    const { users, total } = await unverifiedUnrestrictedUsers(this.db, project.id, limit);
    return {
      affected_users: users.map((user) => ({ ...user, restricted_reason: { type: 'email_not_verified' as const } })),
      total_affected_count: total,
    };
  }
}
