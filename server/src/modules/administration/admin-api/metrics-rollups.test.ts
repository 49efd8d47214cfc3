import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../db/schema.ts';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * The metrics' rollups (migration 0015) must always equal an aggregate over project_user, whatever
 * wrote the users: each test writes some other way, then compares the two.
 */
const env = withTestContext();
const day = 24 * 60 * 60 * 1000;

async function rollups(db: Kysely<Database>, projectId: string) {
  const { rows: totals } = await sql<{ key: string; users: number }>`
    select concat_ws('/', is_anonymous, sign_up_method, country_code) as key, sum(users)::int as users from user_metrics_total
    where project_id = ${projectId} group by 1 having sum(users) <> 0 order by 1`.execute(db);
  const { rows: days } = await sql<{ key: string; sign_ups: number; last_active: number }>`
    select concat_ws('/', day, is_anonymous) as key, sum(sign_ups)::int as sign_ups, sum(last_active)::int as last_active
    from user_metrics_daily where project_id = ${projectId} group by 1 having sum(sign_ups) <> 0 or sum(last_active) <> 0 order by 1`.execute(
    db,
  );
  return { totals, days };
}

async function recomputed(db: Kysely<Database>, projectId: string) {
  const { rows: totals } = await sql<{ key: string; users: number }>`
    select concat_ws('/', is_anonymous, coalesce(sign_up_method, ''), coalesce(country_code, '')) as key, count(*)::int as users
    from project_user where project_id = ${projectId} group by 1 order by 1`.execute(db);
  const { rows: days } = await sql<{ key: string; sign_ups: number; last_active: number }>`
    select concat_ws('/', day, is_anonymous) as key, sum(s)::int as sign_ups, sum(a)::int as last_active from (
      select (signed_up_at at time zone 'utc')::date as day, is_anonymous, 1 as s, 0 as a from project_user where project_id = ${projectId}
      union all
      select (last_active_at at time zone 'utc')::date, is_anonymous, 0, 1 from project_user where project_id = ${projectId}
    ) d group by 1 order by 1`.execute(db);
  return { totals, days };
}

const expectConsistent = async (projectId: string) => {
  const { db } = env.context.database;
  expect(await rollups(db, projectId)).toEqual(await recomputed(db, projectId));
};

describe('user metrics rollups', () => {
  it('count sign-ups of every kind, anonymous users and their upgrade', async () => {
    const { project } = env.project;
    const { users } = env.context.services;
    await users.create(project, { display_name: 'A', country_code: 'DE' }, 'password');
    await users.create(project, { display_name: 'B' }, 'otp');
    const anonymous = await users.create(project, { is_anonymous: true }, 'anonymous');
    await expectConsistent(project.id);
    await users.update(project, anonymous.id, { is_anonymous: false, country_code: 'FR' });
    await expectConsistent(project.id);
  });

  it('stay exact under concurrent sign-ups over many connections (sharded counters)', async () => {
    const { project } = await env.context.createProject();
    const { users } = env.context.services;
    await Promise.all(Array.from({ length: 24 }, (_, n) => users.create(project, { country_code: n % 2 ? 'SE' : null }, 'password')));
    await expectConsistent(project.id);
    const { db } = env.context.database;
    const { rows } = await sql<{ shards: number }>`
      select count(distinct shard)::int as shards from user_metrics_total where project_id = ${project.id}`.execute(db);
    expect(rows[0]?.shards).toBeGreaterThan(1);
  });

  it('move users between days and countries on updates, and forget deleted users', async () => {
    const { project } = env.project;
    const { users } = env.context.services;
    const { db } = env.context.database;
    const user = await users.create(project, { country_code: 'US' }, 'server');
    await db
      .updateTable('project_user')
      .set({ signed_up_at: new Date(Date.now() - 3 * day), last_active_at: new Date(Date.now() - 2 * day) })
      .where('id', '=', user.id)
      .execute();
    await expectConsistent(project.id);
    // Activity later the same day changes no counter; activity today moves the user to today.
    await db
      .updateTable('project_user')
      .set({ last_active_at: new Date(Date.now() - 2 * day + 1000) })
      .where('id', '=', user.id)
      .execute();
    await db.updateTable('project_user').set({ last_active_at: new Date() }).where('id', '=', user.id).execute();
    await users.update(project, user.id, { country_code: null });
    await expectConsistent(project.id);
    await users.delete(project, user.id);
    await expectConsistent(project.id);
  });

  it('count bulk inserts and deletes as a whole, and go with their project', async () => {
    const { db } = env.context.database;
    const { project } = await env.context.createProject();
    await sql`
      insert into project_user (id, project_id, signed_up_at, last_active_at, is_anonymous, country_code, sign_up_method)
      select gen_random_uuid(), ${project.id}, now() - n * interval '7 hours', now() - n * interval '3 hours', n % 5 = 0,
        (array['DE', 'JP', null])[1 + n % 3], (array['password', 'oauth', null])[1 + n % 3]
      from generate_series(1, 200) as n`.execute(db);
    await expectConsistent(project.id);
    await sql`delete from project_user where project_id = ${project.id} and is_anonymous`.execute(db);
    await expectConsistent(project.id);
    await env.context.services.projects.delete(project.id);
    expect(await rollups(db, project.id)).toEqual({ totals: [], days: [] });
  });
});
