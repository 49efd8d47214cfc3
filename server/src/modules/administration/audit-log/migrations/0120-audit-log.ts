import { type Kysely, sql } from 'kysely';

/** The audit log: append-only (updates refused by a trigger; retention and project deletion remove rows). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log_entry')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('team_id', 'text')
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('actor_type', 'text', (column) => column.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('details', 'jsonb', (column) => column.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('occurred_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_entry_project_idx').on('audit_log_entry').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('audit_log_entry_team_idx').on('audit_log_entry').columns(['project_id', 'team_id', 'id']).execute();
  await db.schema.createIndex('audit_log_entry_occurred_idx').on('audit_log_entry').column('occurred_at').execute();
  await sql`create function audit_log_entry_refuse_update() returns trigger language plpgsql as $$
    begin raise exception 'audit log entries cannot be changed'; end $$`.execute(db);
  await sql`create trigger audit_log_entry_append_only before update on audit_log_entry
    for each row execute function audit_log_entry_refuse_update()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log_entry').execute();
  await sql`drop function if exists audit_log_entry_refuse_update()`.execute(db);
}
