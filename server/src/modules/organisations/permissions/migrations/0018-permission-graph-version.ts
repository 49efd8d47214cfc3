import { type Kysely, sql } from 'kysely';

/**
 * A version per project and permission scope, bumped with every closure rebuild: a server caches a
 * scope's closure under the version it read, and a grant listing reads the current version in the
 * same statement as the grants, so every instance notices a changed graph at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table permission_graph_version (
      project_id text not null references project (id) on delete cascade,
      scope text not null,
      version bigint not null,
      primary key (project_id, scope)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table permission_graph_version`.execute(db);
}
