import { type Kysely, sql } from 'kysely';

/**
 * The data vault's values. `slot` is a keyed hash (per-project key) of the store id and the client's
 * hashed key, and `sealed_value` the client's ciphertext encrypted again under the project's key:
 * a dump of this table alone reveals neither the keys the client hashed nor its ciphertexts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_vault_entry (
      project_id text not null references project (id) on delete cascade,
      slot text not null,
      sealed_value text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (project_id, slot)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_vault_entry').execute();
}
