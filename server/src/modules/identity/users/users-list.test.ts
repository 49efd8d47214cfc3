import { beforeAll, describe, expect, it } from 'vitest';
import { expectPlain } from '@gatehouse/testing/expect-response';
import type { TestProject } from '@gatehouse/testing/test-context';
import type { UserWrite } from './user-writes.ts';
import { usersFixture } from '@gatehouse/testing/users-fixture';

/**
 * GET /users: order, pagination by cursor, search, and which anonymous and restricted users are listed.
 */
const { env, call, unique } = usersFixture();

describe('GET /users', () => {
  let project: TestProject;
  /** The normal users in list order: by signed_up_at, then id (several share a timestamp). */
  let ordered: string[];
  const ids = {} as Record<'zebra' | 'search' | 'literal' | 'anonymous' | 'restricted', string>;
  const list = async (query = '') => {
    const response = await call(`/users${query}`, { headers: project.headers.server });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const idsOf = (body: { items: Array<{ id: string }> }) => body.items.map((item) => item.id);
  /** Every page from the first, following next_cursor. */
  const allPages = async (limit: number, extra = '') => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const body = await list(`?limit=${limit}${extra}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.is_paginated).toBe(true);
      expect(body.items.length).toBeLessThanOrEqual(limit);
      seen.push(...idsOf(body));
      cursor = body.pagination.next_cursor;
      if (cursor === null) return seen;
      expect(body.items).toHaveLength(limit);
    }
    throw new Error('pagination did not end');
  };

  beforeAll(async () => {
    project = await env.context.createProject();
    const { users } = env.context.services;
    const create = async (write: UserWrite) => (await users.create(project.project, write, 'server')).id;
    ids.zebra = await create({ display_name: 'Zebra Crossing' });
    ids.search = await create({ primary_email: 'Find.Me-XYZ@Example.com' });
    ids.literal = await create({ display_name: 'a_b%c' });
    const plain = [];
    for (let index = 0; index < 4; index++) plain.push(await create({ display_name: `axb plain ${index}` }));
    ids.anonymous = (await users.create(project.project, { is_anonymous: true }, 'anonymous')).id;
    ids.restricted = await create({ restricted_by_admin: true, restricted_by_admin_reason: 'spam' });
    // Known sign-up times, three users on the same instant: the id breaks the tie.
    const normal = [ids.zebra, ids.search, ids.literal, ...plain];
    const times = [3, 1, 2, 2, 2, 0, 4].map((minutes) => new Date(Date.UTC(2024, 0, 1, 12, minutes)));
    for (const [index, id] of normal.entries()) {
      await env.context.database.db
        .updateTable('project_user')
        .set({ signed_up_at: times[index] as Date })
        .where('id', '=', id)
        .execute();
    }
    ordered = normal
      .map((id, index) => ({ id, time: (times[index] as Date).getTime() }))
      .sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1))
      .map((entry) => entry.id);
  });

  it('without a limit answers every normal user in order, unpaginated', async () => {
    const body = await list();
    expect(body.is_paginated).toBe(false);
    expect(idsOf(body)).toEqual(ordered);
  });

  it('chains pages by next_cursor: the exact order, no duplicates, null on the last page', async () => {
    for (const limit of [1, 2, 3, 6, 7, 100]) expect(await allPages(limit), `limit ${limit}`).toEqual(ordered);
    const single = await list('?limit=7');
    expect(single.pagination).toEqual({ next_cursor: null });
    const first = await list('?limit=3');
    expect(first.pagination.next_cursor).toBe(ordered[3]);
  });

  it('desc=true reverses the order, paged or not', async () => {
    const reversed = [...ordered].reverse();
    expect(idsOf(await list('?desc=true'))).toEqual(reversed);
    expect(await allPages(3, '&desc=true')).toEqual(reversed);
    expect(idsOf(await list('?desc=false'))).toEqual(ordered);
  });

  it('query matches a display-name or email substring case-insensitively, or an exact id', async () => {
    expect(idsOf(await list('?query=zEBRA%20cr'))).toEqual([ids.zebra]);
    expect(idsOf(await list('?query=me-xyz%40EXAMPLE'))).toEqual([ids.search]);
    expect(idsOf(await list(`?query=${ids.search}`))).toEqual([ids.search]);
    expect(idsOf(await list(`?query=${ids.search.toUpperCase()}`))).toEqual([ids.search]);
    expect(idsOf(await list(`?query=${ids.search.slice(0, 13)}`))).toEqual([]);
    // LIKE wildcards in the query are literal characters.
    expect(idsOf(await list('?query=a_b%25'))).toEqual([ids.literal]);
    expect(idsOf(await list('?query=nobody-matches-this'))).toEqual([]);
  });

  it('anonymous users only with include_anonymous (which implies restricted); only_anonymous narrows to them', async () => {
    expect(idsOf(await list())).not.toContain(ids.anonymous);
    const withAnonymous = idsOf(await list('?include_anonymous=true'));
    expect(withAnonymous).toHaveLength(ordered.length + 2);
    expect(withAnonymous).toEqual(expect.arrayContaining([ids.anonymous, ids.restricted]));
    const onlyAnonymous = await list('?include_anonymous=true&only_anonymous=true');
    expect(idsOf(onlyAnonymous)).toEqual([ids.anonymous]);
    expect(onlyAnonymous.items[0]).toMatchObject({ is_anonymous: true, is_restricted: true, restricted_reason: { type: 'anonymous' } });
  });

  it('restricted users only with include_restricted', async () => {
    expect(idsOf(await list())).not.toContain(ids.restricted);
    const body = await list('?include_restricted=true');
    expect(idsOf(body)).toHaveLength(ordered.length + 1);
    expect(body.items.find((item: { id: string }) => item.id === ids.restricted)).toMatchObject({
      restricted_by_admin: true,
      restricted_by_admin_reason: 'spam',
      is_restricted: true,
      restricted_reason: { type: 'restricted_by_administrator' },
    });
  });

  it('with required email verification, users without a verified email count as restricted', async () => {
    const strict = await env.context.createProject({ 'onboarding.requireEmailVerification': true });
    const { users } = env.context.services;
    const verified = await users.create(strict.project, { primary_email: unique('ok'), primary_email_verified: true }, 'server');
    const unverified = await users.create(strict.project, { primary_email: unique('unverified') }, 'server');
    const noEmail = await users.create(strict.project, {}, 'server');
    const listed = async (query: string) => idsOf((await call(`/users${query}`, { headers: strict.headers.server })).body).sort();
    expect(await listed('')).toEqual([verified.id]);
    expect(await listed('?include_restricted=true')).toEqual([verified.id, unverified.id, noEmail.id].sort());
    const view = (await call(`/users/${unverified.id}`, { headers: strict.headers.server })).body;
    expect(view).toMatchObject({ is_restricted: true, restricted_reason: { type: 'email_not_verified' } });
  });

  it('only_anonymous without include_anonymous is a plain-text 400', async () => {
    expectPlain(await call('/users?only_anonymous=true', { headers: project.headers.server }), 400);
  });
});
