import { type Kysely, sql } from 'kysely';

/**
 * The transitive closure of permission containment: per permission, every permission it implies
 * (itself included), as one array row. Rebuilt for a project and scope whenever its definitions change (rare,
 * admin writes), so listing effective permissions (frequent) is one indexed join.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('permission_closure')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('scope', 'text', (column) => column.notNull())
    .addColumn('id', 'text', (column) => column.notNull())
    .addColumn('implied_ids', sql`text[]`, (column) => column.notNull())
    .addPrimaryKeyConstraint('permission_closure_pk', ['project_id', 'scope', 'id'])
    .execute();
  await sql`
    insert into permission_closure (project_id, scope, id, implied_ids)
    with recursive closure(project_id, scope, id, implied_id) as (
      select project_id, scope, id, id from permission_definition
      union
      select c.project_id, c.scope, c.id, unnest(d.contained_ids) from closure c
      join permission_definition d on d.project_id = c.project_id and d.scope = c.scope and d.id = c.implied_id
    )
    select project_id, scope, id, array_agg(implied_id order by implied_id) from closure group by project_id, scope, id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('permission_closure').execute();
}
