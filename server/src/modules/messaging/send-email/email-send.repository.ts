import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';

/** Which of the ids are users of the project (one query for up to 1000 ids). */
export async function existingUserIds(db: DbHandle, projectId: ProjectId, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await kyselyOf(db)
    .selectFrom('project_user')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * One outbox row per addressed user of one send-email batch, in one INSERT … SELECT: `queued` (due
 * at `dueAt`), or `skipped` with the reason when the user has no primary email or turned the
 * category off. `userIds` undefined: every non-anonymous user. Returns the users addressed.
 */
export async function enqueueSendEmailRows(
  db: DbHandle,
  projectId: ProjectId,
  input: {
    batchId: string;
    userIds: readonly string[] | undefined;
    categoryId: string;
    categoryName: string;
    /** Whether the user's preference can turn the category off, and its default. */
    canDisable: boolean;
    defaultEnabled: boolean;
    subject: string;
    dueAt: Date;
  },
): Promise<string[]> {
  const optedOut = input.canDisable ? sql`not coalesce(p.enabled, ${input.defaultEnabled})` : sql`false`;
  const onlyNamed = input.userIds ? sql`and u.id = any(${sql.val(input.userIds)}::uuid[])` : sql``;
  const result = await sql<{ user_id: string }>`
    insert into email_outbox (id, project_id, to_address, kind, subject, html, text, status, skipped_reason, batch_id, user_id, next_attempt_at)
    select gen_random_uuid(), u.project_id, coalesce(u.primary_email, ''), 'custom', ${input.subject}, '', '',
      case when u.primary_email is null or ${optedOut} then 'skipped' else 'queued' end,
      case when u.primary_email is null then 'The user has no primary email.'
        when ${optedOut} then ${`The user turned ${input.categoryName} emails off.`} end,
      ${input.batchId}::uuid, u.id, ${input.dueAt}::timestamptz
    from project_user u
    left join notification_preference p
      on p.project_id = u.project_id and p.user_id = u.id and p.notification_category_id = ${input.categoryId}
    where u.project_id = ${projectId} and not u.is_anonymous ${onlyNamed}
    returning user_id`.execute(kyselyOf(db));
  return result.rows.map((row) => row.user_id);
}
