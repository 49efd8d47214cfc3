import { type Kysely, sql } from 'kysely';

/**
 * Users' choices per email notification category. Categories are fixed in code
 * (notification-preferences/notification-categories.ts); a user without a row gets the default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_preference')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('notification_category_id', 'uuid', (column) => column.notNull())
    .addColumn('enabled', 'boolean', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('notification_preference_pk', ['user_id', 'notification_category_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_preference').execute();
}
