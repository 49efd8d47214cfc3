import { type Kysely, sql } from 'kysely';

/** A user's own language (Gatehouse's own `language`): the built-in emails speak it; null is the project's default. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_user add column language text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_user drop column language`.execute(db);
}
