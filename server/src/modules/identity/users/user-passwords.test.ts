import { hash as bcryptHash } from '@node-rs/bcrypt';
import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { usersFixture } from '@gatehouse/testing/users-fixture';

/**
 * Passwords through server create and update (length, imported bcrypt hashes, the sessions a change ends),
 * and DELETE /users/me.
 */
const { env, call, unique, signedInUser, refresh } = usersFixture();

describe('passwords through server create and update', () => {
  it('enforces 8 to 70 characters with the catalogued details', async () => {
    const { user } = await signedInUser();
    for (const [url, method] of [
      ['/users', 'POST'],
      [`/users/${user.id}`, 'PATCH'],
    ] as const) {
      const short = await call(url, { method, payload: { password: 'seven77' } });
      expectError(short, 400, 'PASSWORD_TOO_SHORT');
      expect(short.body.details).toEqual({ min_length: 8 });
      const long = await call(url, { method, payload: { password: 'x'.repeat(71) } });
      expectError(long, 400, 'PASSWORD_TOO_LONG');
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
      expectPlain(await call(url, { method, payload: { password: 'longenough', password_hash: bcrypt } }), 400);
      for (const hash of ['plaintext-password', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA']) {
        const refused = await call(url, { method, payload: { password_hash: hash } });
        expectError(refused, 400, 'USER_FIELD_INVALID');
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
        expectError(await refresh(token), 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
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
    expectError(await signIn('wrong horse'), 400, 'EMAIL_PASSWORD_MISMATCH');
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
    expectPlain(await call('/users/me', { method: 'DELETE', headers: client }), 400);
    expect((await call(`/users/${user.id}`)).status).toBe(200);
  });

  it('with client deletion allowed, the user is gone and its access and refresh tokens stop working', async () => {
    const project = await env.context.createProject({ 'users.allowClientUserDeletion': true });
    const { user, client, refresh_token } = await signedInUser({}, project);
    const response = await call('/users/me', { method: 'DELETE', headers: client });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expectError(await call('/users/me', { headers: client }), 401, 'UNPARSABLE_ACCESS_TOKEN');
    expectError(await refresh(refresh_token, project), 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    expectError(await call(`/users/${user.id}`, { headers: project.headers.server }), 404, 'USER_NOT_FOUND');
  });

  it('server access deletes the user of the token whatever the setting', async () => {
    const { user, access_token } = await signedInUser();
    const headers = { ...env.project.headers.server, 'x-stack-access-token': access_token };
    expect((await call('/users/me', { method: 'DELETE', headers })).body).toEqual({ success: true });
    expectError(await call(`/users/${user.id}`), 404, 'USER_NOT_FOUND');
  });
});
