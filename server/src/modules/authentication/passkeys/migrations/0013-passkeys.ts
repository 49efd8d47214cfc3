import { type Kysely, sql } from 'kysely';

/**
 * WebAuthn credentials (passkeys): a user may have several. `project_user.has_passkey` is kept by a
 * trigger, so the user read of every request (`passkey_auth_enabled`) stays a single row lookup.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkey')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (column) => column.notNull())
    .addColumn('public_key', 'bytea', (column) => column.notNull())
    .addColumn('counter', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('transports', 'jsonb', (column) => column.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('user_handle', 'text', (column) => column.notNull())
    .addColumn('rp_id', 'text', (column) => column.notNull())
    .addColumn('device_type', 'text', (column) => column.notNull())
    .addColumn('backed_up', 'boolean', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addUniqueConstraint('passkey_credential_unique', ['project_id', 'credential_id'])
    .execute();
  await db.schema.createIndex('passkey_user_idx').on('passkey').column('user_id').execute();
  await db.schema
    .alterTable('project_user')
    .addColumn('has_passkey', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
  await sql`
    create function passkey_sync_user() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        update project_user set has_passkey = exists (select 1 from passkey where user_id = old.user_id) where id = old.user_id;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        update project_user set has_passkey = true where id = new.user_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger passkey_sync_user after insert or update of user_id or delete on passkey
    for each row execute function passkey_sync_user()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkey').execute();
  await sql`drop function passkey_sync_user()`.execute(db);
  await db.schema.alterTable('project_user').dropColumn('has_passkey').execute();
}
