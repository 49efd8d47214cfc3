import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import type { TestProject } from '@gatehouse/testing/test-context';
import { passwordAuthFixture } from '@gatehouse/testing/password-auth-fixture';

/**
 * Changing, setting and resetting a password (docs/protocol/endpoints.md §2): through the contract checker,
 * with the emails and sessions they leave behind.
 */
const { env, projects, password, callback, untrusted, newEmail, client, asUser, post, signIn, me, refreshStatus, emailsTo, passwordUser } =
  passwordAuthFixture();

describe('POST /auth/password/update', () => {
  const update = (accessToken: string, body: object, extra: Record<string, string> = {}) =>
    post('/password/update', body, asUser(accessToken, extra));

  it('refuses a wrong old password, a user without password, and a weak new password', async () => {
    const { tokens } = await passwordUser();
    const mismatch = await update(tokens.access_token, { old_password: 'wrong password', new_password: 'new password 1' });
    expectError(mismatch, 400, 'PASSWORD_CONFIRMATION_MISMATCH');
    expect(mismatch.body.error).toBe('Passwords do not match.');
    expectError(await update(tokens.access_token, { old_password: password, new_password: 'x'.repeat(7) }), 400, 'PASSWORD_TOO_SHORT', {
      min_length: 8,
    });
    expectError(await update(tokens.access_token, { old_password: password, new_password: 'x'.repeat(71) }), 400, 'PASSWORD_TOO_LONG', {
      maxLength: 70,
    });
    expect(await refreshStatus(tokens.refresh_token)).toBe(200);
    const passwordless = await passwordUser(env.project, null);
    const noPassword = await update(passwordless.tokens.access_token, { old_password: password, new_password: 'new password 1' });
    expectError(noPassword, 400, 'USER_DOES_NOT_HAVE_PASSWORD');
    expect(noPassword.body.error).toBe('Password update requested for a user that has no password set.');
  });

  it('changes the password and ends every other session; the refresh-token header keeps its own', async () => {
    const { email, tokens: first } = await passwordUser();
    const second = (await signIn(email)).body;
    const third = (await signIn(email)).body;
    const response = await update(
      second.access_token,
      { old_password: password, new_password: 'brand new password' },
      { 'x-stack-refresh-token': second.refresh_token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect(await refreshStatus(second.refresh_token)).toBe(200);
    expect(await refreshStatus(first.refresh_token)).toBe(401);
    expect(await refreshStatus(third.refresh_token)).toBe(401);
    expectError(await signIn(email), 400, 'EMAIL_PASSWORD_MISMATCH');
    expect((await signIn(email, 'brand new password')).status).toBe(200);
  });

  it('is refused while password sign-in is off', async () => {
    const { tokens } = await passwordUser(projects.passwordOff);
    const headers = { ...client(projects.passwordOff), 'x-stack-access-token': tokens.access_token };
    expectError(
      await post('/password/update', { old_password: password, new_password: 'new password 1' }, headers),
      400,
      'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    );
  });
});

describe('POST /auth/password/set', () => {
  it('refuses a user who already has a password, in plain text', async () => {
    const { tokens } = await passwordUser();
    const response = await post('/password/set', { password: 'another password' }, asUser(tokens.access_token));
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.headers['x-stack-known-error']).toBeUndefined();
    expect(await refreshStatus(tokens.refresh_token)).toBe(200);
  });

  it('gives a passwordless user a password that then signs in; weak ones are refused', async () => {
    const { email, tokens } = await passwordUser(env.project, null);
    const set = (pass: string) => post('/password/set', { password: pass }, asUser(tokens.access_token));
    expectError(await set('x'.repeat(7)), 400, 'PASSWORD_TOO_SHORT', { min_length: 8 });
    expectError(await set('x'.repeat(71)), 400, 'PASSWORD_TOO_LONG', { maxLength: 70 });
    expectError(await signIn(email), 400, 'EMAIL_PASSWORD_MISMATCH');
    const response = await set(password);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect((await me(tokens.access_token)).body.has_password).toBe(true);
    expect((await signIn(email)).body.user_id).toBe(tokens.user_id);
  });

  it('is refused while password sign-in is off', async () => {
    const { tokens } = await passwordUser(projects.passwordOff, null);
    const headers = { ...client(projects.passwordOff), 'x-stack-access-token': tokens.access_token };
    expectError(await post('/password/set', { password }, headers), 400, 'PASSWORD_AUTHENTICATION_NOT_ENABLED');
  });
});

describe('password reset', () => {
  const maybe = { success: 'maybe, only if user with e-mail exists' };
  const sendReset = (email: string, project: TestProject = env.project, url = callback) =>
    post('/password/send-reset-code', { email, callback_url: url }, client(project));
  const check = (code: string) => post('/password/reset/check-code', { code });
  const reset = (code: string, pass: string, project: TestProject = env.project) =>
    post('/password/reset', { code, password: pass }, client(project));
  const resetCode = async (email: string) => {
    expect((await sendReset(email)).body).toEqual(maybe);
    return env.context.codeSentTo(email);
  };
  const expire = (code: string) => env.context.expireCode(code);

  it('answers the same for known and unknown emails; only the known one gets a link', async () => {
    const { email } = await passwordUser();
    const unknown = newEmail('unknown');
    const known = await sendReset(email);
    const nobody = await sendReset(unknown);
    expect(known.status).toBe(200);
    expect(nobody.status).toBe(200);
    expect(known.body).toEqual(maybe);
    expect(nobody.body).toEqual(maybe);
    expect(emailsTo(unknown)).toHaveLength(0);
    expect(emailsTo(email)).toHaveLength(1);
    expect(emailsTo(email)[0]?.text).toContain(`${callback}?code=${env.context.codeSentTo(email)}`);
  });

  it('refuses an untrusted callback and a project without password sign-in', async () => {
    const { email } = await passwordUser();
    expectError(await sendReset(email, env.project, untrusted), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    expect(emailsTo(email)).toHaveLength(0);
    expectError(await sendReset(email, projects.passwordOff), 400, 'PASSWORD_AUTHENTICATION_NOT_ENABLED');
    const code = (
      await env.context.services.verificationCodes.issue(projects.passwordOff.project.id, 'password_reset', { user_id: randomUUID() })
    ).code;
    expectError(await reset(code, 'new password 1', projects.passwordOff), 400, 'PASSWORD_AUTHENTICATION_NOT_ENABLED');
  });

  it('checks a code without using it up, in any case; a weak password leaves it usable', async () => {
    const { email } = await passwordUser();
    const code = await resetCode(email);
    for (const candidate of [code, code.toUpperCase()]) {
      const response = await check(candidate);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ is_code_valid: true });
    }
    expectError(await reset(code, 'x'.repeat(7)), 400, 'PASSWORD_TOO_SHORT', { min_length: 8 });
    expectError(await reset(code, 'x'.repeat(71)), 400, 'PASSWORD_TOO_LONG', { maxLength: 70 });
    expect((await check(code)).status).toBe(200);
    expect((await reset(code, 'reset password 1')).status).toBe(200);
  });

  it('sets the new password and ends every session of the user', async () => {
    const { email, tokens: first } = await passwordUser();
    const second = (await signIn(email)).body;
    const response = await reset(await resetCode(email), 'reset password 1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect(await refreshStatus(first.refresh_token)).toBe(401);
    expect(await refreshStatus(second.refresh_token)).toBe(401);
    expectError(await signIn(email), 400, 'EMAIL_PASSWORD_MISMATCH');
    expect((await signIn(email, 'reset password 1')).body.user_id).toBe(first.user_id);
  });

  it('resets only once when the same code is sent twice at the same time', async () => {
    const { email } = await passwordUser();
    const code = await resetCode(email);
    const responses = await Promise.all([reset(code, 'first new password'), reset(code, 'second new password')]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const winner = responses[0]?.status === 200 ? 'first new password' : 'second new password';
    expect((await signIn(email, winner)).status).toBe(200);
  });

  it('refuses used, expired and unknown codes, and codes of another kind or project', async () => {
    const { email, user } = await passwordUser();
    const used = await resetCode(email);
    expect((await reset(used, 'reset password 1')).status).toBe(200);
    expectError(await check(used), 409, 'VERIFICATION_CODE_ALREADY_USED');
    expectError(await reset(used, 'reset password 2'), 409, 'VERIFICATION_CODE_ALREADY_USED');

    const expired = await resetCode(email);
    await expire(expired);
    expectError(await check(expired), 400, 'VERIFICATION_CODE_EXPIRED');
    expectError(await reset(expired, 'reset password 2'), 400, 'VERIFICATION_CODE_EXPIRED');

    const codes = env.context.services.verificationCodes;
    const otherKind = (await codes.issue(env.project.project.id, 'contact_channel_verification', { user_id: user.id })).code;
    const otherProject = (await codes.issue(projects.passwordOff.project.id, 'password_reset', { user_id: user.id })).code;
    for (const code of ['a'.repeat(45), otherKind, otherProject, 'short']) {
      expectError(await check(code), 404, 'VERIFICATION_CODE_NOT_FOUND');
      expectError(await reset(code, 'reset password 2'), 404, 'VERIFICATION_CODE_NOT_FOUND');
    }
    expect((await signIn(email, 'reset password 1')).status).toBe(200);
  });

  it('kills a code after 20 wrong guesses at its nonce; then even the right code is refused', async () => {
    const { email } = await passwordUser();
    const code = await resetCode(email);
    for (let attempt = 1; attempt <= 20; attempt++) {
      // '0' and '1' are not base32: the guessed first characters never equal the real ones.
      const response = await check(`${String(attempt).padStart(6, '0')}${code.slice(6)}`);
      expectError(
        response,
        attempt < 20 ? 404 : 400,
        attempt < 20 ? 'VERIFICATION_CODE_NOT_FOUND' : 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
      );
    }
    expectError(await check(code), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expectError(await reset(code, 'reset password 1'), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expect((await signIn(email)).status).toBe(200);
  });
});
