import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleOf } from '../../../db/handle.ts';
import { freshDatabase } from '@gatehouse/testing/server-process';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';
import { readSearchStatisticsAcrossProjects } from './user.repository.ts';
import { frequentTrigrams, searchProbe, substringTrigrams, valueTrigrams } from './user-search.ts';

/**
 * `GET /users?query=` asks the trigram indexes for the query's rare part only (user-search.ts) and checks
 * the whole query on what they find: on 3 000 users of a database of its own (its statistics are this
 * file's rows alone) every answer, paged by next_cursor, equals a plain scan's.
 */
const users = 3_000;
let context: TestContext;
let project: TestProject;
let client: pg.Client;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  const database = await freshDatabase();
  closers.push(database.drop);
  context = await createTestContext({ databaseUrl: database.url });
  closers.unshift(() => context.close());
  project = await context.createProject();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  closers.unshift(() => client.end());
  // Users whose emails and display names share frequent trigrams, as generated users do; three
  // users share each sign-up instant, so the id breaks ties.
  await client.query(
    `insert into project_user (id, project_id, display_name, signed_up_at, primary_email, primary_email_verified, primary_email_auth_enabled)
     select md5($1 || n)::uuid, $1, 'Searcher ' || n, timestamptz '2024-01-01' + (n % 1000) * interval '1 minute', 'srch-' || n || '@example.com', true, true
     from generate_series(1, $2::int) as n`,
    [project.project.id, users],
  );
  await client.query(
    `insert into contact_channel (id, project_id, user_id, type, value, is_verified, is_primary, used_for_auth)
     select gen_random_uuid(), $1, md5($1 || n)::uuid, 'email', 'srch-' || n || '@example.com', true, true, true
     from generate_series(1, $2::int) as n`,
    [project.project.id, users],
  );
  const create = (write: Parameters<TestContext['services']['users']['create']>[1]) =>
    context.services.users.create(project.project, write, 'server');
  await create({ display_name: 'Lit 100%_off' });
  await create({ display_name: 'lit 100x off' });
  await create({ primary_email: 'Mixed.CASE-1234@Example.COM' });
  await create({ display_name: 'SRCH-1234 in capitals' });
  await create({ display_name: 'back\\slash srch-77' });
  await create({ primary_email: 'srch-1234@restricted.test', restricted_by_admin: true, restricted_by_admin_reason: 'spam' });
  await context.services.users.create(project.project, { display_name: 'anonymous srch-1234', is_anonymous: true }, 'anonymous');
  // A second, not primary, email: the search covers every email of a user.
  const second = await create({ display_name: 'Two emails' });
  await client.query(
    `insert into contact_channel (id, project_id, user_id, type, value, is_verified, is_primary, used_for_auth)
     values (gen_random_uuid(), $1, $2, 'email', 'other.SRCH-1234@example.org', false, false, false)`,
    [project.project.id, second.id],
  );
  await client.query('analyze project_user, contact_channel');
});

afterAll(async () => {
  for (const close of closers) await close();
});

/** The normal users containing `query` in an email or the display name, case-insensitively, by a plain scan (strpos, no pattern, no index). */
async function scanned(query: string, desc = false): Promise<string[]> {
  const direction = desc ? 'desc' : 'asc';
  const { rows } = await client.query<{ id: string }>(
    `select u.id from project_user u
     where u.project_id = $1 and not u.is_anonymous and not u.restricted_by_admin
       and (strpos(lower(u.display_name), lower($2)) > 0
         or exists (select 1 from contact_channel c where c.user_id = u.id and strpos(lower(c.value), lower($2)) > 0))
     order by u.signed_up_at ${direction}, u.id ${direction}`,
    [project.project.id, query],
  );
  return rows.map((row) => row.id);
}

/** Every page of `GET /users?query=`, following next_cursor. */
async function paged(query: string, limit: number, desc = false): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const search: URLSearchParams = new URLSearchParams({
      query,
      limit: String(limit),
      ...(desc ? { desc: 'true' } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const response = await context.request({ url: `/api/v1/users?${search}`, headers: project.headers.server });
    expect(response.status, response.text).toBe(200);
    seen.push(...response.body.items.map((item: { id: string }) => item.id));
    cursor = response.body.pagination.next_cursor;
    if (cursor === null) return seen;
    expect(response.body.items).toHaveLength(limit);
  }
  throw new Error('pagination did not end');
}

describe('the probes', () => {
  it('are read from the planner statistics of the real database and leave out the frequent trigrams', async () => {
    const statistics = await readSearchStatisticsAcrossProjects(handleOf(context.database.db));
    if (!statistics.email || !statistics.displayName) throw new Error('no statistics for the trigram-indexed columns');
    const emails = frequentTrigrams(statistics.email);
    const names = frequentTrigrams(statistics.displayName);
    for (const trigram of ['src', 'rch', 'ch ', 'exa', 'com', '  1']) expect(emails.has(trigram), trigram).toBe(true);
    for (const trigram of ['123', '234', ' 12']) expect(emails.has(trigram), trigram).toBe(false);
    expect(names.has('sea')).toBe(true);
    // `srch-1234`: `-1234` brings `  1` (a third of the numbers start with 1), so the probe is `1234`.
    expect(searchProbe('srch-1234', emails)).toBe('1234');
    expect(searchProbe('SRCH-1234@EXAMPLE', emails)).toBe('1234@');
    // Nothing rare to ask for: the whole query goes to the index.
    expect(searchProbe('srch-1', emails)).toBeUndefined();
    expect(searchProbe('zebra', emails)).toBeUndefined();
    // Not printable ASCII, or longer than 64 characters: the whole query too.
    expect(searchProbe('srch-1234é', emails)).toBeUndefined();
    expect(searchProbe(`srch-1234${'x'.repeat(60)}`, emails)).toBeUndefined();
  });

  it('count trigrams as pg_trgm does (show_trgm)', async () => {
    for (const value of ['srch-4321@example.com', 'Zebra Crossing', 'a_b%c', 'x', 'Lit 100%_off']) {
      const { rows } = await client.query<{ trigrams: string[] }>('select show_trgm($1) as trigrams', [value]);
      expect([...valueTrigrams(value)].sort(), value).toEqual([...(rows[0]?.trigrams ?? [])].sort());
    }
    // A word cut by the query's edge is not padded there (the `%` of `ilike '%…%'`).
    expect([...substringTrigrams(Array.from('er-4321@'))].sort()).toEqual(['  4', ' 43', '21 ', '321', '432', 'er '].sort());
  });
});

describe('GET /users?query= answers as a plain scan', () => {
  const queries = [
    'srch-1234',
    'SRCH-12',
    'srch-1',
    'rch-99',
    '1234@',
    'h-2999@example.c',
    'Searcher 17',
    'earcher 2',
    '100%_',
    '100%',
    '_off',
    '%',
    '_',
    'back\\slash',
    'case-1234@example',
    'srch-1234@example.org',
    'nobody-matches-this',
    'srch-77',
  ];

  it('for each query, paged by next_cursor, both directions', { timeout: 120_000 }, async () => {
    for (const query of queries) {
      const expected = await scanned(query);
      expect(await paged(query, 25), query).toEqual(expected);
      expect(await paged(query, 7, true), `${query} desc`).toEqual(await scanned(query, true));
    }
    // The interesting ones match what the test means them to.
    expect((await scanned('srch-1234')).length).toBe(3);
    expect((await scanned('100%_')).length).toBe(1);
    expect((await scanned('srch-1')).length).toBeGreaterThan(1_000);
  });

  it('pages through a match of every user', { timeout: 120_000 }, async () => {
    const expected = await scanned('@example.com');
    expect(expected.length).toBe(users + 1);
    expect(await paged('@example.com', 400)).toEqual(expected);
  });
});
