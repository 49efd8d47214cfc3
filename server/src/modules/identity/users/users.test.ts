import { randomUUID } from 'node:crypto';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestProject, withTestContext } from '../../../testing/test-context.ts';
import type { UserWrite } from './user-writes.ts';

/**
 * The users operations (docs/protocol/endpoints.md §10, docs/protocol/entities.md User): views per access type,
 * metadata, primary email, passwords, deletion, listing and the events each change records.
 */
const env = withTestContext();

type RequestOptions = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; headers?: Record<string, string>; payload?: unknown };
const call = (url: string, options: RequestOptions = {}) =>
  env.context.request({
    method: options.method ?? 'GET',
    url: `/api/v1${url}`,
    headers: options.headers ?? env.project.headers.server,
    payload: options.payload as Record<string, unknown> | undefined,
  });
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const serverOnlyFields = [
  'server_metadata',
  'last_active_at_millis',
  'primary_email_auth_enabled',
  'restricted_by_admin_private_details',
  'country_code',
  'risk_scores',
];

/** A user with a session: its record, tokens and the client headers of its access token. */
async function signedInUser(write: UserWrite = {}, project: TestProject = env.project) {
  const { users, signIn } = env.context.services;
  const user = await users.create(project.project, write, 'server');
  const tokens = await signIn.signIn(project.project, user);
  return { user, ...tokens, client: { ...project.headers.client, 'x-stack-access-token': tokens.access_token } };
}

/** The refresh grant of the token endpoint, as the SDK sends it. */
const refresh = (refreshToken: string, project: TestProject = env.project) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: project.project.id,
      client_secret: '__stack_public_client__',
    }).toString(),
  });

const expectKnownError = (response: { status: number; body: { code?: string } }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
};
const expectPlainText = (response: { status: number; headers: Record<string, unknown>; text: string }, status: number) => {
  expect(response.status, response.text).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^text\/plain/);
  expect(response.headers['x-stack-known-error']).toBeUndefined();
};

describe('GET /users/me: the view depends on the access type', () => {
  it('client access gets no server-only field; server and admin access get all of them', async () => {
    const email = unique('me');
    const { user, access_token, client } = await signedInUser({
      primary_email: email,
      primary_email_verified: true,
      display_name: 'Ada',
      client_metadata: { theme: 'dark' },
      client_read_only_metadata: { plan: 'pro' },
      server_metadata: { secret: 42 },
      country_code: 'DE',
    });
    const clientView = await call('/users/me', { headers: client });
    expect(clientView.status).toBe(200);
    for (const field of serverOnlyFields) expect(clientView.body, field).not.toHaveProperty(field);
    expect(clientView.body).toMatchObject({
      id: user.id,
      primary_email: email,
      primary_email_verified: true,
      display_name: 'Ada',
      client_metadata: { theme: 'dark' },
      client_read_only_metadata: { plan: 'pro' },
      has_password: false,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
    });

    for (const type of ['server', 'admin'] as const) {
      const serverView = await call('/users/me', { headers: { ...env.project.headers[type], 'x-stack-access-token': access_token } });
      expect(serverView.status).toBe(200);
      expect(Object.keys(serverView.body).sort()).toEqual([...Object.keys(clientView.body), ...serverOnlyFields].sort());
      expect(serverView.body).toMatchObject({
        ...clientView.body,
        server_metadata: { secret: 42 },
        primary_email_auth_enabled: false,
        restricted_by_admin_private_details: null,
        country_code: 'DE',
        risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } },
      });
      expect(typeof serverView.body.last_active_at_millis).toBe('number');
    }
  });
});

describe('PATCH /users/me with server access', () => {
  it('applies the password policy with its catalogued errors', async () => {
    const { access_token } = await signedInUser({ primary_email: unique('policy') });
    const headers = { ...env.project.headers.server, 'x-stack-access-token': access_token };
    const short = await call('/users/me', { method: 'PATCH', headers, payload: { password: 'seven77' } });
    expectKnownError(short, 400, 'PASSWORD_TOO_SHORT');
    expect(short.body.details).toEqual({ min_length: 8 });
    const long = await call('/users/me', { method: 'PATCH', headers, payload: { password: 'x'.repeat(71) } });
    expectKnownError(long, 400, 'PASSWORD_TOO_LONG');
    expect(long.body.details).toEqual({ maxLength: 70 });
    const ok = await call('/users/me', { method: 'PATCH', headers, payload: { password: 'eight888' } });
    expect(ok.status).toBe(200);
    expect(ok.body.has_password).toBe(true);
  });
});

describe('metadata', () => {
  it('client access writes client_metadata, each update replacing the whole value, JSON null included', async () => {
    const { user, client } = await signedInUser({ client_metadata: { keep: 'no' } });
    const first = await call('/users/me', {
      method: 'PATCH',
      headers: client,
      payload: { client_metadata: { theme: 'dark', list: [1, { a: null }] } },
    });
    expect(first.status).toBe(200);
    expect(first.body.client_metadata).toEqual({ theme: 'dark', list: [1, { a: null }] });
    const second = await call('/users/me', { method: 'PATCH', headers: client, payload: { client_metadata: { language: 'fr' } } });
    expect(second.body.client_metadata).toEqual({ language: 'fr' });
    for (const value of [null, 'text', 0, false, [1, 2]]) {
      const response = await call('/users/me', { method: 'PATCH', headers: client, payload: { client_metadata: value } });
      expect(response.status).toBe(200);
      expect(response.body.client_metadata).toEqual(value);
    }
    expect((await call(`/users/${user.id}`)).body.client_metadata).toEqual([1, 2]);
  });

  it('client access may not write client_read_only_metadata or server_metadata (SCHEMA_ERROR, nothing changes)', async () => {
    const { user, client } = await signedInUser({ client_read_only_metadata: { plan: 'free' }, server_metadata: { note: 'x' } });
    for (const field of ['client_read_only_metadata', 'server_metadata']) {
      const response = await call('/users/me', {
        method: 'PATCH',
        headers: client,
        payload: { [field]: { hacked: true }, display_name: 'Eve' },
      });
      expectKnownError(response, 400, 'SCHEMA_ERROR');
      expect(response.body.details.message).toContain(field);
    }
    const stored = (await call(`/users/${user.id}`)).body;
    expect(stored).toMatchObject({ client_read_only_metadata: { plan: 'free' }, server_metadata: { note: 'x' }, display_name: null });
  });

  it('server access writes all three kinds, replacing each value; the client reads two of them', async () => {
    const { user, client } = await signedInUser({ server_metadata: { a: 1, b: 2 } });
    const all = { client_metadata: { c: 1 }, client_read_only_metadata: { r: [true] }, server_metadata: { b: 3 } };
    const updated = await call(`/users/${user.id}`, { method: 'PATCH', payload: all });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject(all);
    const viaMe = await call('/users/me', {
      method: 'PATCH',
      headers: { ...env.project.headers.server, 'x-stack-access-token': client['x-stack-access-token'] },
      payload: { server_metadata: null, client_read_only_metadata: 'ro' },
    });
    expect(viaMe.body).toMatchObject({ client_metadata: { c: 1 }, client_read_only_metadata: 'ro', server_metadata: null });
    const clientView = (await call('/users/me', { headers: client })).body;
    expect(clientView).toMatchObject({ client_metadata: { c: 1 }, client_read_only_metadata: 'ro' });
    expect(clientView).not.toHaveProperty('server_metadata');
  });
});

describe('PATCH /users/me: what client access may change', () => {
  it('its profile fields, answered in the client view', async () => {
    const { client } = await signedInUser();
    const response = await call('/users/me', {
      method: 'PATCH',
      headers: client,
      payload: { display_name: 'Grace', profile_image_url: 'https://example.com/grace.png', otp_auth_enabled: true },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      display_name: 'Grace',
      profile_image_url: 'https://example.com/grace.png',
      otp_auth_enabled: true,
    });
    for (const field of serverOnlyFields) expect(response.body, field).not.toHaveProperty(field);
  });

  it('passkey sign-in may be turned off but not on (USER_FIELD_INVALID)', async () => {
    const { client } = await signedInUser();
    const off = await call('/users/me', { method: 'PATCH', headers: client, payload: { passkey_auth_enabled: false } });
    expect(off.body.passkey_auth_enabled).toBe(false);
    const on = await call('/users/me', { method: 'PATCH', headers: client, payload: { passkey_auth_enabled: true } });
    expectKnownError(on, 400, 'USER_FIELD_INVALID');
    expect(on.body.details).toEqual({ field: 'passkey_auth_enabled' });
  });
});

describe('primary email', () => {
  it('a changed primary email is unverified, on client and on server access', async () => {
    const { user, client } = await signedInUser({ primary_email: unique('verified'), primary_email_verified: true });
    const changed = unique('changed');
    const response = await call('/users/me', { method: 'PATCH', headers: client, payload: { primary_email: changed } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ primary_email: changed, primary_email_verified: false });

    await call(`/users/${user.id}`, { method: 'PATCH', payload: { primary_email_verified: true } });
    const again = await call(`/users/${user.id}`, { method: 'PATCH', payload: { primary_email: unique('again') } });
    expect(again.body.primary_email_verified).toBe(false);
  });

  it('an email another user signs in with is USER_EMAIL_ALREADY_EXISTS, case-insensitively, and changes nothing', async () => {
    const taken = unique('taken');
    await signedInUser({ primary_email: taken, primary_email_auth_enabled: true });
    const own = unique('own');
    const { user, client } = await signedInUser({ primary_email: own, primary_email_auth_enabled: true });
    const response = await call('/users/me', { method: 'PATCH', headers: client, payload: { primary_email: taken.toUpperCase() } });
    expectKnownError(response, 409, 'USER_EMAIL_ALREADY_EXISTS');
    expect(response.body.details).toEqual({ email: taken.toUpperCase(), would_work_if_email_was_verified: false });
    expect((await call(`/users/${user.id}`)).body.primary_email).toBe(own);
  });

  it('creating a user with another user’s auth email is a conflict; without auth, or in another project, it is not', async () => {
    const email = unique('dup');
    const first = await call('/users', { method: 'POST', payload: { primary_email: email, primary_email_auth_enabled: true } });
    expect(first.status).toBe(201);
    const duplicate = await call('/users', { method: 'POST', payload: { primary_email: email, primary_email_auth_enabled: true } });
    expectKnownError(duplicate, 409, 'USER_EMAIL_ALREADY_EXISTS');
    expect(duplicate.body.details.email).toBe(email);
    const notForAuth = await call('/users', { method: 'POST', payload: { primary_email: email } });
    expect(notForAuth.status).toBe(201);
    expect(notForAuth.body).toMatchObject({ primary_email: email, primary_email_auth_enabled: false });
    const other = await env.context.createProject();
    const elsewhere = await call('/users', {
      method: 'POST',
      headers: other.headers.server,
      payload: { primary_email: email, primary_email_auth_enabled: true },
    });
    expect(elsewhere.status).toBe(201);
  });
  it('email flags with a null email, or on a user without one, are a plain-text 400', async () => {
    for (const flags of [{ primary_email_verified: true }, { primary_email_auth_enabled: true }]) {
      expectPlainText(await call('/users', { method: 'POST', payload: { primary_email: null, ...flags } }), 400);
      const { user } = await signedInUser();
      expectPlainText(await call(`/users/${user.id}`, { method: 'PATCH', payload: flags }), 400);
      expectPlainText(await call(`/users/${user.id}`, { method: 'PATCH', payload: { primary_email: null, ...flags } }), 400);
    }
  });

  it('creating a user with email flags but no primary_email is a plain-text 400 too', async () => {
    for (const flags of [{ primary_email_verified: true }, { primary_email_auth_enabled: true }]) {
      expectPlainText(await call('/users', { method: 'POST', payload: flags }), 400);
    }
  });
});

describe('passwords through server create and update', () => {
  it('enforces 8 to 70 characters with the catalogued details', async () => {
    const { user } = await signedInUser();
    for (const [url, method] of [
      ['/users', 'POST'],
      [`/users/${user.id}`, 'PATCH'],
    ] as const) {
      const short = await call(url, { method, payload: { password: 'seven77' } });
      expectKnownError(short, 400, 'PASSWORD_TOO_SHORT');
      expect(short.body.details).toEqual({ min_length: 8 });
      const long = await call(url, { method, payload: { password: 'x'.repeat(71) } });
      expectKnownError(long, 400, 'PASSWORD_TOO_LONG');
      expect(long.body.details).toEqual({ maxLength: 70 });
      for (const password of ['eight888', 'y'.repeat(70)]) {
        const accepted = await call(url, { method, payload: { password } });
        expect(accepted.status).toBe(method === 'POST' ? 201 : 200);
        expect(accepted.body.has_password).toBe(true);
      }
    }
  });

  it('password with password_hash is a plain-text 400; a hash that is not bcrypt is USER_FIELD_INVALID', async () => {
    const { user } = await signedInUser();
    const bcrypt = await bcryptHash('hunter2hunter2', { cost: 4 });
    for (const [url, method] of [
      ['/users', 'POST'],
      [`/users/${user.id}`, 'PATCH'],
    ] as const) {
      expectPlainText(await call(url, { method, payload: { password: 'longenough', password_hash: bcrypt } }), 400);
      for (const hash of ['plaintext-password', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA']) {
        const refused = await call(url, { method, payload: { password_hash: hash } });
        expectKnownError(refused, 400, 'USER_FIELD_INVALID');
        expect(refused.body.details).toEqual({ field: 'password_hash' });
      }
    }
    expect((await call(`/users/${user.id}`)).body.has_password).toBe(false);
  });

  it('setting, importing or removing a password ends every session of the user', async () => {
    const bcrypt = await bcryptHash('hunter2hunter2', { cost: 4 });
    for (const payload of [{ password: 'a new password' }, { password_hash: bcrypt }, { password: null }]) {
      const { user, refresh_token } = await signedInUser({ password: 'the old password' });
      const second = await env.context.services.signIn.signIn(env.project.project, user);
      expect((await refresh(refresh_token)).status).toBe(200);
      const updated = await call(`/users/${user.id}`, { method: 'PATCH', payload });
      expect(updated.status).toBe(200);
      expect(updated.body.has_password).toBe(payload.password !== null);
      for (const token of [refresh_token, second.refresh_token]) {
        expectKnownError(await refresh(token), 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
      }
    }
  });

  it('an imported bcrypt hash signs in and is upgraded to argon2id', async () => {
    const project = await env.context.createProject({ 'auth.password.allowSignIn': true });
    const email = unique('imported');
    const created = await call('/users', {
      method: 'POST',
      headers: project.headers.server,
      payload: { primary_email: email, primary_email_auth_enabled: true, password_hash: await bcryptHash('correct horse', { cost: 4 }) },
    });
    expect(created.status).toBe(201);
    expect(created.body.has_password).toBe(true);
    const signIn = (password: string) =>
      call('/auth/password/sign-in', { method: 'POST', headers: project.headers.client, payload: { email, password } });
    expectKnownError(await signIn('wrong horse'), 400, 'EMAIL_PASSWORD_MISMATCH');
    const storedHash = async () =>
      (
        await env.context.database.db
          .selectFrom('project_user')
          .select('password_hash')
          .where('id', '=', created.body.id)
          .executeTakeFirstOrThrow()
      ).password_hash;
    expect(await storedHash()).toMatch(/^\$2b\$04\$/);
    const first = await signIn('correct horse');
    expect(first.status).toBe(200);
    expect(first.body.user_id).toBe(created.body.id);
    expect(await storedHash()).toMatch(/^\$argon2id\$/);
    expect((await signIn('correct horse')).status).toBe(200);
  });
});

describe('DELETE /users/me', () => {
  it('client access is refused in plain text unless the project allows client deletion', async () => {
    const { user, client } = await signedInUser();
    expectPlainText(await call('/users/me', { method: 'DELETE', headers: client }), 400);
    expect((await call(`/users/${user.id}`)).status).toBe(200);
  });

  it('with client deletion allowed, the user is gone and its access and refresh tokens stop working', async () => {
    const project = await env.context.createProject({ 'users.allowClientUserDeletion': true });
    const { user, client, refresh_token } = await signedInUser({}, project);
    const response = await call('/users/me', { method: 'DELETE', headers: client });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expectKnownError(await call('/users/me', { headers: client }), 401, 'UNPARSABLE_ACCESS_TOKEN');
    expectKnownError(await refresh(refresh_token, project), 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    expectKnownError(await call(`/users/${user.id}`, { headers: project.headers.server }), 404, 'USER_NOT_FOUND');
  });

  it('server access deletes the user of the token whatever the setting', async () => {
    const { user, access_token } = await signedInUser();
    const headers = { ...env.project.headers.server, 'x-stack-access-token': access_token };
    expect((await call('/users/me', { method: 'DELETE', headers })).body).toEqual({ success: true });
    expectKnownError(await call(`/users/${user.id}`), 404, 'USER_NOT_FOUND');
  });
});

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
    expectPlainText(await call('/users?only_anonymous=true', { headers: project.headers.server }), 400);
  });
});

describe('GET, PATCH and DELETE /users/{user_id}', () => {
  it('an unknown user is USER_NOT_FOUND', async () => {
    const url = `/users/${randomUUID()}`;
    expectKnownError(await call(url), 404, 'USER_NOT_FOUND');
    expectKnownError(await call(url, { method: 'PATCH', payload: { display_name: 'x' } }), 404, 'USER_NOT_FOUND');
    expectKnownError(await call(url, { method: 'DELETE' }), 404, 'USER_NOT_FOUND');
    const other = await env.context.createProject();
    const foreign = await env.context.services.users.create(other.project, {}, 'server');
    expectKnownError(await call(`/users/${foreign.id}`), 404, 'USER_NOT_FOUND');
  });

  it('reads and updates the server view; the id is case-insensitive', async () => {
    const { user } = await signedInUser({ display_name: 'Before' });
    const read = await call(`/users/${user.id.toUpperCase()}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: user.id, display_name: 'Before', has_password: false });
    const updated = await call(`/users/${user.id}`, {
      method: 'PATCH',
      payload: { display_name: 'After', restricted_by_admin: true, restricted_by_admin_private_details: 'notes', country_code: 'FR' },
    });
    expect(updated.body).toMatchObject({
      display_name: 'After',
      restricted_by_admin: true,
      restricted_by_admin_private_details: 'notes',
      country_code: 'FR',
      is_restricted: true,
    });
    expect((await call(`/users/${user.id}`)).body).toEqual(updated.body);
  });

  it('updating to another user’s auth email is USER_EMAIL_ALREADY_EXISTS', async () => {
    const taken = unique('server-taken');
    await signedInUser({ primary_email: taken, primary_email_auth_enabled: true });
    const { user } = await signedInUser({ primary_email: unique('mine'), primary_email_auth_enabled: true });
    const response = await call(`/users/${user.id}`, { method: 'PATCH', payload: { primary_email: taken, display_name: 'Changed' } });
    expectKnownError(response, 409, 'USER_EMAIL_ALREADY_EXISTS');
    expect(response.body.details.email).toBe(taken);
    expect((await call(`/users/${user.id}`)).body.display_name).toBeNull();
  });

  it('records user.created, user.updated and user.deleted events with the server view', async () => {
    const project = await env.context.createProject();
    const headers = project.headers.server;
    const events = () =>
      env.context.database.db
        .selectFrom('event')
        .select(['type', 'data'])
        .where('project_id', '=', project.project.id)
        .orderBy('id')
        .execute();
    const created = await call('/users', { method: 'POST', headers, payload: { display_name: 'Evented', server_metadata: { s: 1 } } });
    expect(created.status).toBe(201);
    const updated = await call(`/users/${created.body.id}`, { method: 'PATCH', headers, payload: { display_name: 'Renamed' } });
    const taken = unique('event-taken');
    await call('/users', { method: 'POST', headers, payload: { primary_email: taken, primary_email_auth_enabled: true } });
    const conflict = await call(`/users/${created.body.id}`, { method: 'PATCH', headers, payload: { primary_email: taken } });
    expect(conflict.status).toBe(409);
    expect((await call(`/users/${created.body.id}`, { method: 'DELETE', headers })).body).toEqual({ success: true });

    const recorded = await events();
    expect(recorded.map((event) => event.type)).toEqual(['user.created', 'user.updated', 'user.created', 'user.deleted']);
    expect(recorded[0]?.data).toEqual(created.body);
    expect(recorded[1]?.data).toEqual(updated.body);
    expect(recorded[3]?.data).toEqual({ id: created.body.id, teams: [] });
  });

  it('creates a user with TOTP on (totp_secret_base64) and accepts passkey_auth_enabled false, refusing true', async () => {
    const secret = Buffer.alloc(20, 7).toString('base64');
    const withTotp = await call('/users', { method: 'POST', payload: { display_name: 'Totp', totp_secret_base64: secret } });
    expect(withTotp.status).toBe(201);
    expect(withTotp.body.requires_totp_mfa).toBe(true);
    const without = await call('/users', {
      method: 'POST',
      payload: { display_name: 'No totp', totp_secret_base64: null, passkey_auth_enabled: false },
    });
    expect(without.status).toBe(201);
    expect(without.body.requires_totp_mfa).toBe(false);
    expect(without.body.passkey_auth_enabled).toBe(false);
    const badSecret = await call('/users', { method: 'POST', payload: { totp_secret_base64: 'c2hvcnQ=' } });
    expectKnownError(badSecret, 400, 'USER_FIELD_INVALID');
    expect(badSecret.body).toMatchObject({
      error: 'totp_secret_base64 must be the base64 of a 16 to 64 byte secret.',
      details: { field: 'totp_secret_base64' },
    });
    const passkeyOn = await call('/users', { method: 'POST', payload: { passkey_auth_enabled: true } });
    expectKnownError(passkeyOn, 400, 'USER_FIELD_INVALID');
    expect(passkeyOn.body).toMatchObject({
      error: 'passkey_auth_enabled can only be turned off; register a passkey to turn it on.',
      details: { field: 'passkey_auth_enabled' },
    });
  });
});
