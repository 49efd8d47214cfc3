import { type Insertable, sql } from 'kysely';
import type { ProjectId } from '../../tenancy/project-id.ts';
import {
  type EmailOutboxRow,
  type EmailOutboxSimpleStatus,
  type EmailOutboxStatus,
  type EmailOutboxTable,
  type EmailSendBatchRow,
  type EmailSendBatchTable,
  statusesOfSimpleStatus,
} from './email-outbox.table.ts';
import { type DbHandle, kyselyOf } from '../../db/handle.ts';

export async function insertEmailOutbox(db: DbHandle, row: Insertable<EmailOutboxTable>): Promise<EmailOutboxRow> {
  return kyselyOf(db).insertInto('email_outbox').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertEmailSendBatch(db: DbHandle, projectId: ProjectId, batch: Omit<Insertable<EmailSendBatchTable>, 'project_id'>) {
  await kyselyOf(db)
    .insertInto('email_send_batch')
    .values({ ...batch, project_id: projectId, variables: JSON.stringify(batch.variables) })
    .execute();
}

export async function findEmailSendBatch(db: DbHandle, projectId: ProjectId, id: string): Promise<EmailSendBatchRow | undefined> {
  return kyselyOf(db)
    .selectFrom('email_send_batch')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A claimed row with its recipient's current name (send-email rows are rendered for the user). */
export type ClaimedEmail = EmailOutboxRow & { user_display_name: string | null };

/**
 * Claims up to `limit` due rows of every project (`queued` ones due now, and `sending` ones whose
 * lease ran out: their worker died): each counts an attempt and is leased (`next_attempt_at` moves
 * `leaseMillis` ahead), so another worker skips it (SKIP LOCKED while this one decides, the lease
 * after) until this worker settles it.
 */
export async function claimDueEmailsAcrossProjects(db: DbHandle, limit: number, leaseMillis: number): Promise<ClaimedEmail[]> {
  const result = await sql<ClaimedEmail>`
    with due as (
      select id from email_outbox
      where status in ('queued', 'sending') and next_attempt_at <= now()
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update email_outbox o
    set status = 'sending', attempts = o.attempts + 1, next_attempt_at = now() + ${leaseMillis} * interval '1 millisecond', updated_at = now()
    from due
    where o.id = due.id
    returning o.*, (select u.display_name from project_user u where u.id = o.user_id and u.project_id = o.project_id) as user_display_name`.execute(
    kyselyOf(db),
  );
  return result.rows;
}

/** Settles a claimed row (only while this claim holds it: `sending` with the attempt it claimed). */
export async function settleEmailOutbox(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  attempt: number,
  outcome:
    | { status: 'sent'; at: Date; rendered?: { subject: string; html: string; text: string } }
    | { status: 'queued'; error: string; nextAttemptAt: Date }
    | { status: 'failed'; error: string }
    | { status: 'skipped'; reason: string },
): Promise<void> {
  const set =
    outcome.status === 'sent'
      ? { status: 'sent' as const, sent_at: outcome.at, error: null, ...(outcome.rendered ?? {}) }
      : outcome.status === 'queued'
        ? { status: 'queued' as const, error: outcome.error, next_attempt_at: outcome.nextAttemptAt }
        : outcome.status === 'failed'
          ? { status: 'failed' as const, error: outcome.error }
          : { status: 'skipped' as const, skipped_reason: outcome.reason };
  await kyselyOf(db)
    .updateTable('email_outbox')
    .set({ ...set, updated_at: new Date() })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('attempts', '=', attempt)
    .execute();
}

export type OutboxFilter = { status?: EmailOutboxStatus; simpleStatus?: EmailOutboxSimpleStatus; limit: number; cursorId?: string };

/** The project's outbox, newest first (keyset on created_at, id; the cursor is the id of the first row of the page). */
export async function listEmailOutbox(db: DbHandle, projectId: ProjectId, filter: number | OutboxFilter): Promise<EmailOutboxRow[]> {
  const { status, simpleStatus, limit, cursorId } = typeof filter === 'number' ? { limit: filter } : filter;
  let query = kyselyOf(db).selectFrom('email_outbox as o').selectAll('o').where('o.project_id', '=', projectId);
  if (status) query = query.where('o.status', '=', status);
  if (simpleStatus) query = query.where('o.status', 'in', statusesOfSimpleStatus[simpleStatus]);
  if (cursorId)
    query = query.where(
      sql<boolean>`(o.created_at, o.id) <= (select c.created_at, c.id from email_outbox c where c.project_id = ${projectId} and c.id = ${cursorId})`,
    );
  return query.orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(limit).execute();
}

/** The newest rows that were sent or had a failed attempt. */
export async function listAttemptedEmails(db: DbHandle, projectId: ProjectId, limit: number): Promise<EmailOutboxRow[]> {
  return kyselyOf(db)
    .selectFrom('email_outbox')
    .selectAll()
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('sent_at', 'is not', null), eb('error', 'is not', null)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function findEmailOutbox(db: DbHandle, projectId: ProjectId, id: string): Promise<EmailOutboxRow | undefined> {
  return kyselyOf(db).selectFrom('email_outbox').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** Changes a row that was not sent yet (queued, failed or skipped); undefined when it is sending or sent (or gone). */
export async function updateUnsentEmailOutbox(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  change: {
    to_address?: string;
    subject?: string;
    html?: string;
    text?: string;
    batch_id?: null;
    status?: 'queued' | 'skipped';
    skipped_reason?: string | null;
    next_attempt_at?: Date;
    error?: null;
  },
): Promise<EmailOutboxRow | undefined> {
  return kyselyOf(db)
    .updateTable('email_outbox')
    .set({ ...change, updated_at: new Date() })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'failed', 'skipped'])
    .returningAll()
    .executeTakeFirst();
}

/** Sent emails of the project per window (delivery-info). */
export async function countSentEmails(db: DbHandle, projectId: ProjectId, since: Date): Promise<number> {
  const row = await kyselyOf(db)
    .selectFrom('email_outbox')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('project_id', '=', projectId)
    .where('status', '=', 'sent')
    .where('sent_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Emails queued or being sent, in every project (the metrics' queue depth). */
export async function countUnsentEmailsAcrossProjects(db: DbHandle): Promise<number> {
  const row = await kyselyOf(db)
    .selectFrom('email_outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', ['queued', 'sending'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type OutboxContent = { id: string; subject: string; html: string; text: string };

/**
 * Rendered rows whose content is not sealed under the current key (written before sealing existed,
 * or under a key since rotated): the upgrade's migration of existing rows works through them.
 * Every project's rows; `html` is sealed whenever a row is rendered, so it tells the old rows apart.
 */
export function listUnsealedOutboxContentAcrossProjects(db: DbHandle, sealedPrefix: string, limit: number): Promise<OutboxContent[]> {
  return kyselyOf(db)
    .selectFrom('email_outbox')
    .select(['id', 'subject', 'html', 'text'])
    .where('html', '<>', '')
    .where(sql<boolean>`left(html, ${sealedPrefix.length}) <> ${sealedPrefix}`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Replaces one row's content with its sealed form, only if it is unchanged meanwhile. */
export async function replaceOutboxContentAcrossProjects(
  db: DbHandle,
  before: OutboxContent,
  sealed: Omit<OutboxContent, 'id'>,
): Promise<void> {
  await kyselyOf(db).updateTable('email_outbox').set(sealed).where('id', '=', before.id).where('html', '=', before.html).execute();
}
