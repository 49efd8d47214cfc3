import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { usersFixture } from '@gatehouse/testing/users-fixture';

/**
 * The users operations on the signed-in user (docs/protocol/endpoints.md §10, docs/protocol/entities.md User):
 * views per access type, metadata, what client access may change, the primary email. Passwords and deletion:
 * user-passwords.test.ts; listing: users-list.test.ts; one user by id: user-by-id.test.ts.
 */
const { env, call, unique, signedInUser } = usersFixture();

const serverOnlyFields = [
  'server_metadata',
  'last_active_at_millis',
  'primary_email_auth_enabled',
  'restricted_by_admin_private_details',
  'country_code',
  'risk_scores',
];

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
    expectError(short, 400, 'PASSWORD_TOO_SHORT');
    expect(short.body.details).toEqual({ min_length: 8 });
    const long = await call('/users/me', { method: 'PATCH', headers, payload: { password: 'x'.repeat(71) } });
    expectError(long, 400, 'PASSWORD_TOO_LONG');
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
      expectError(response, 400, 'SCHEMA_ERROR');
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
    expectError(on, 400, 'USER_FIELD_INVALID');
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
    expectError(response, 409, 'USER_EMAIL_ALREADY_EXISTS');
    expect(response.body.details).toEqual({ email: taken.toUpperCase(), would_work_if_email_was_verified: false });
    expect((await call(`/users/${user.id}`)).body.primary_email).toBe(own);
  });

  it('creating a user with another user’s auth email is a conflict; without auth, or in another project, it is not', async () => {
    const email = unique('dup');
    const first = await call('/users', { method: 'POST', payload: { primary_email: email, primary_email_auth_enabled: true } });
    expect(first.status).toBe(201);
    const duplicate = await call('/users', { method: 'POST', payload: { primary_email: email, primary_email_auth_enabled: true } });
    expectError(duplicate, 409, 'USER_EMAIL_ALREADY_EXISTS');
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
      expectPlain(await call('/users', { method: 'POST', payload: { primary_email: null, ...flags } }), 400);
      const { user } = await signedInUser();
      expectPlain(await call(`/users/${user.id}`, { method: 'PATCH', payload: flags }), 400);
      expectPlain(await call(`/users/${user.id}`, { method: 'PATCH', payload: { primary_email: null, ...flags } }), 400);
    }
  });

  it('creating a user with email flags but no primary_email is a plain-text 400 too', async () => {
    for (const flags of [{ primary_email_verified: true }, { primary_email_auth_enabled: true }]) {
      expectPlain(await call('/users', { method: 'POST', payload: flags }), 400);
    }
  });
});
