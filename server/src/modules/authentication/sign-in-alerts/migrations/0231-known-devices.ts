import { type Kysely, sql } from 'kysely';

/**
 * The devices each user has signed in from: browser and OS family, kind of device and country (no
 * versions, which change with every update). A sign-in from one not listed is announced by email.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('known_device')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (column) => column.notNull())
    .addColumn('first_seen_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('known_device_pk', ['user_id', 'fingerprint'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('known_device').execute();
}
