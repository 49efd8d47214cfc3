import { type Insertable, sql } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import {
  type EmailOutboxRow,
  type EmailOutboxSimpleStatus,
  type EmailOutboxStatus,
  type EmailOutboxTable,
  type EmailSendBatchRow,
  type EmailSendBatchTable,
  statusesOfSimpleStatus,
} from './email-outbox.table.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

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
/** A claimed row with what its user's rendering needs: the name, and the language the email is written in (null: the project's default). */
export type ClaimedEmail = EmailOutboxRow & { user_display_name: string | null; user_language: string | null };

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
    returning o.*,
      (select u.display_name from project_user u where u.id = o.user_id and u.project_id = o.project_id) as user_display_name,
      (select u.language from project_user u where u.id = o.user_id and u.project_id = o.project_id) as user_language`.execute(
    kyselyOf(db),
  );
  return result.rows;
}

/** What became of one claimed row. */
export type OutboxOutcome =
  | { status: 'sent'; at: Date; rendered?: { subject: string; html: string; text: string } }
  | { status: 'queued'; error: string; waitMillis: number }
  | { status: 'failed'; error: string }
  | { status: 'skipped'; reason: string };

export type OutboxSettlement = { projectId: ProjectId; id: string; attempt: number; outcome: OutboxOutcome };

/**
 * Settles claimed rows in one statement (only while their claim holds them: `sending` with the
 * attempt claimed; a row taken over by another worker after its lease ran out is left alone).
 */
export async function settleEmailOutboxesAcrossProjects(db: DbHandle, settlements: readonly OutboxSettlement[]): Promise<void> {
  if (settlements.length === 0) return;
  const column = <T>(pick: (settlement: OutboxSettlement) => T) => settlements.map(pick);
  const sentAt = column(({ outcome }) => (outcome.status === 'sent' ? outcome.at.toISOString() : null));
  const error = column(({ outcome }) => (outcome.status === 'queued' || outcome.status === 'failed' ? outcome.error : null));
  const waitMillis = column(({ outcome }) => (outcome.status === 'queued' ? outcome.waitMillis : null));
  const reason = column(({ outcome }) => (outcome.status === 'skipped' ? outcome.reason : null));
  const rendered = (field: 'subject' | 'html' | 'text') =>
    column(({ outcome }) => (outcome.status === 'sent' && outcome.rendered ? outcome.rendered[field] : null));
  await sql`
    update email_outbox o set
      status = s.status,
      sent_at = case when s.status = 'sent' then s.sent_at else o.sent_at end,
      error = case when s.status = 'skipped' then o.error else s.error end,
      -- The wait counts from the settlement, not from the failure: a late settlement never shortens it.
      next_attempt_at = case when s.status = 'queued' then now() + s.wait_millis * interval '1 millisecond' else o.next_attempt_at end,
      skipped_reason = case when s.status = 'skipped' then s.reason else o.skipped_reason end,
      subject = coalesce(s.subject, o.subject),
      html = coalesce(s.html, o.html),
      text = coalesce(s.text, o.text),
      updated_at = now()
    from unnest(
      ${column((settlement) => settlement.id)}::uuid[], ${column((settlement) => settlement.projectId)}::text[],
      ${column((settlement) => settlement.attempt)}::int[], ${column(({ outcome }) => outcome.status)}::text[],
      ${sentAt}::timestamptz[], ${error}::text[], ${waitMillis}::int[], ${reason}::text[],
      ${rendered('subject')}::text[], ${rendered('html')}::text[], ${rendered('text')}::text[]
    ) as s(id, project_id, attempt, status, sent_at, error, wait_millis, reason, subject, html, text)
    where o.id = s.id and o.project_id = s.project_id and o.status = 'sending' and o.attempts = s.attempt`.execute(kyselyOf(db));
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

/** Sent emails of the project since each of the given times (delivery-info), in one statement. */
export async function countSentEmailsSince<K extends string>(
  db: DbHandle,
  projectId: ProjectId,
  since: Record<K, Date>,
): Promise<Record<K, number>> {
  const names = Object.keys(since) as K[];
  const earliest = new Date(Math.min(...names.map((name) => since[name].getTime())));
  const row = await kyselyOf(db)
    .selectFrom('email_outbox')
    .select((eb) => names.map((name, index) => eb.fn.countAll<string>().filterWhere('sent_at', '>=', since[name]).as(`c${index}`)))
    .where('project_id', '=', projectId)
    .where('status', '=', 'sent')
    .where('sent_at', '>=', earliest)
    .executeTakeFirstOrThrow();
  const counts = row as Record<string, string>;
  return Object.fromEntries(names.map((name, index) => [name, Number(counts[`c${index}`])])) as Record<K, number>;
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
