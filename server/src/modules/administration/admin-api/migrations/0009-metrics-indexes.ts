import { type Kysely, sql } from 'kysely';

/**
 * Covering indexes for the project metrics: each aggregate is an index-only scan (the anonymous flag
 * is included so the default filter needs no table access).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index project_user_signed_up_metrics_idx on project_user (project_id, signed_up_at) include (is_anonymous)`.execute(db);
  await sql`create index project_user_last_active_idx on project_user (project_id, last_active_at) include (is_anonymous)`.execute(db);
  await sql`create index project_user_country_idx on project_user (project_id, country_code) include (is_anonymous)`.execute(db);
  await sql`create index project_user_sign_up_method_idx on project_user (project_id, sign_up_method) include (is_anonymous)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'project_user_signed_up_metrics_idx',
    'project_user_last_active_idx',
    'project_user_country_idx',
    'project_user_sign_up_method_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
}
