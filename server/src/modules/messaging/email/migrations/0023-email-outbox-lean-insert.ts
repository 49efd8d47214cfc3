import { type Kysely, sql } from 'kysely';

/**
 * send-email on 100 000 users is one INSERT … SELECT of 100 000 outbox rows, and every row fired two
 * foreign-key triggers (a lookup of its project and of its send batch: together about two thirds of
 * the statement's time under EXPLAIN ANALYZE) and fed an index only those keys' cascade used. So:
 * - `batch_id` loses its foreign key and its index: the batch is written by the same request just
 *   before its rows and is never deleted on its own (only with its project, which takes the rows too);
 * - `project_id` loses its foreign key; a trigger on `project` deletes a deleted project's outbox rows
 *   instead (the cascade the key gave, fired per deleted project rather than checked per inserted row).
 *   The rows are written only by the server for a project it has just read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index email_outbox_batch_idx`.execute(db);
  await sql`alter table email_outbox drop constraint email_outbox_batch_id_fkey`.execute(db);
  await sql`alter table email_outbox drop constraint email_outbox_project_id_fkey`.execute(db);
  await sql`
    create function email_outbox_delete_with_project() returns trigger language plpgsql as $$
    begin
      delete from email_outbox where project_id = old.id;
      return old;
    end $$`.execute(db);
  await sql`
    create trigger email_outbox_delete_with_project after delete on project
    for each row execute function email_outbox_delete_with_project()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger email_outbox_delete_with_project on project`.execute(db);
  await sql`drop function email_outbox_delete_with_project()`.execute(db);
  await sql`delete from email_outbox o where not exists (select 1 from project p where p.id = o.project_id)`.execute(db);
  await sql`alter table email_outbox add constraint email_outbox_project_id_fkey
    foreign key (project_id) references project (id) on delete cascade`.execute(db);
  await sql`delete from email_outbox o where o.batch_id is not null
    and not exists (select 1 from email_send_batch b where b.id = o.batch_id)`.execute(db);
  await sql`alter table email_outbox add constraint email_outbox_batch_id_fkey
    foreign key (batch_id) references email_send_batch (id) on delete cascade`.execute(db);
  await sql`create index email_outbox_batch_idx on email_outbox (batch_id) where batch_id is not null`.execute(db);
}
