import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { usersFixture } from '@gatehouse/testing/users-fixture';

/**
 * GET, PATCH and DELETE /users/{user_id} with server access: not found, the server view, the events each
 * change records, TOTP on create.
 */
const { env, call, unique, signedInUser } = usersFixture();

describe('GET, PATCH and DELETE /users/{user_id}', () => {
  it('an unknown user is USER_NOT_FOUND', async () => {
    const url = `/users/${randomUUID()}`;
    expectError(await call(url), 404, 'USER_NOT_FOUND');
    expectError(await call(url, { method: 'PATCH', payload: { display_name: 'x' } }), 404, 'USER_NOT_FOUND');
    expectError(await call(url, { method: 'DELETE' }), 404, 'USER_NOT_FOUND');
    const other = await env.context.createProject();
    const foreign = await env.context.services.users.create(other.project, {}, 'server');
    expectError(await call(`/users/${foreign.id}`), 404, 'USER_NOT_FOUND');
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
    expectError(response, 409, 'USER_EMAIL_ALREADY_EXISTS');
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
    expectError(badSecret, 400, 'USER_FIELD_INVALID');
    expect(badSecret.body).toMatchObject({
      error: 'totp_secret_base64 must be the base64 of a 16 to 64 byte secret.',
      details: { field: 'totp_secret_base64' },
    });
    const passkeyOn = await call('/users', { method: 'POST', payload: { passkey_auth_enabled: true } });
    expectError(passkeyOn, 400, 'USER_FIELD_INVALID');
    expect(passkeyOn.body).toMatchObject({
      error: 'passkey_auth_enabled can only be turned off; register a passkey to turn it on.',
      details: { field: 'passkey_auth_enabled' },
    });
  });
});
