import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { maxFailedAttempts } from './mfa.service.ts';

/**
 * TOTP MFA (docs/protocol/endpoints.md §5) and recovery codes (Gatehouse extension): turning it on and off on the
 * user, the MULTI_FACTOR_AUTHENTICATION_REQUIRED answer of the first factors, the second factor at
 * /auth/mfa/sign-in, replays, single-use recovery codes and the per-user limit of wrong codes.
 */
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({
  projectConfig: { 'auth.password.allowSignIn': true, 'auth.otp.allowSignIn': true, 'domains.trustedDomains': trustedDomains },
});
const password = 'correct horse battery';

const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const client = () => env.project.headers.client;
const asUser = (accessToken: string) => ({ ...client(), 'x-stack-access-token': accessToken });
const post = (url: string, payload: object, headers: Record<string, string> = client()) =>
  env.context.request({ method: 'POST', url: `/api/v1${url}`, headers, payload });
const passwordSignIn = (email: string) => post('/auth/password/sign-in', { email, password });
const mfaSignIn = (totp: string, code: string) => post('/auth/mfa/sign-in', { type: 'totp', totp, code });
const recoveryCodes = (accessToken: string) => post('/users/me/mfa/recovery-codes', {}, asUser(accessToken));

/**
 * The TOTP an authenticator app shows for `secret`, `stepsFromNow` time steps away. Taken in a step's last
 * seconds, the server would check it in the next step (a code one step back would then be two steps back, and
 * refused): it waits for the next step first.
 */
async function totpOf(secret: Buffer, stepsFromNow = 0): Promise<string> {
  const secondsLeftInStep = 30 - ((Date.now() / 1000) % 30);
  if (secondsLeftInStep < 5) await new Promise((resolve) => setTimeout(resolve, secondsLeftInStep * 1000 + 100));
  return generate({ secret: new Uint8Array(secret), epoch: Math.floor(Date.now() / 1000) + stepsFromNow * 30 });
}

/** A 6-digit code that matches none of the steps the server accepts now. */
async function wrongTotp(secret: Buffer): Promise<string> {
  const near = new Set(await Promise.all([-2, -1, 0, 1, 2].map((steps) => totpOf(secret, steps))));
  for (let candidate = 0; ; candidate++) {
    const code = String(candidate).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

function expectError(response: { status: number; body: { code?: string } }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
}

/** A password user with a session; `totp` turns TOTP on through the server PATCH /users/{id}. */
async function createUser(label: string, totp = true) {
  const email = newEmail(label);
  const user = await env.context.services.users.create(
    env.project.project,
    { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password },
    'server',
  );
  const secret = randomBytes(20);
  if (totp) {
    const patched = await env.context.request({
      method: 'PATCH',
      url: `/api/v1/users/${user.id}`,
      headers: env.project.headers.server,
      payload: { totp_secret_base64: secret.toString('base64') },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.requires_totp_mfa).toBe(true);
  }
  const { access_token } = await env.context.services.signIn.signIn(
    env.project.project,
    await env.context.services.users.get(env.project.project.id, user.id),
  );
  return { id: user.id, email, secret, accessToken: access_token };
}

/** The first factor of a TOTP user: MULTI_FACTOR_AUTHENTICATION_REQUIRED with a fresh attempt code. */
async function attemptCodeOf(email: string): Promise<string> {
  const response = await passwordSignIn(email);
  expectError(response, 400, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
  const attemptCode = response.body.details.attempt_code as string;
  expect(attemptCode).toMatch(/^[a-z2-7]{45}$/);
  return attemptCode;
}

describe('turning TOTP on and off', () => {
  it('a client turns it on for itself (PATCH /users/me) and the tokens then say requires_totp_mfa', async () => {
    const user = await createUser('self', false);
    const patched = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: asUser(user.accessToken),
      payload: { totp_secret_base64: user.secret.toString('base64') },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.requires_totp_mfa).toBe(true);
    const signedIn = await mfaSignIn(await totpOf(user.secret), await attemptCodeOf(user.email));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user_id).toBe(user.id);
    expect(decodeJwt(signedIn.body.access_token).requires_totp_mfa).toBe(true);
  });

  it('null turns it off: password sign-in answers tokens again and the recovery codes are gone', async () => {
    const user = await createUser('off');
    expect((await recoveryCodes(user.accessToken)).status).toBe(200);
    const patched = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: asUser(user.accessToken),
      payload: { totp_secret_base64: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.requires_totp_mfa).toBe(false);
    const signedIn = await passwordSignIn(user.email);
    expect(signedIn.status).toBe(200);
    expect(decodeJwt(signedIn.body.access_token).requires_totp_mfa).toBe(false);
    const left = await env.context.database.db.selectFrom('mfa_recovery_code').select('id').where('user_id', '=', user.id).execute();
    expect(left).toHaveLength(0);
  });

  it('refuses a secret that is not the base64 of 16 to 64 bytes (USER_FIELD_INVALID)', async () => {
    const user = await createUser('bad-secret', false);
    for (const secret of [randomBytes(8).toString('base64'), randomBytes(65).toString('base64'), 'not base64!']) {
      const response = await env.context.request({
        method: 'PATCH',
        url: '/api/v1/users/me',
        headers: asUser(user.accessToken),
        payload: { totp_secret_base64: secret },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'USER_FIELD_INVALID', details: { field: 'totp_secret_base64' } });
    }
  });
});

describe('first factors of a TOTP user', () => {
  it('password sign-in answers MULTI_FACTOR_AUTHENTICATION_REQUIRED instead of tokens', async () => {
    const user = await createUser('password');
    const before = await env.context.services.sessions.listActive(env.project.project.id, user.id);
    await attemptCodeOf(user.email);
    expect(await env.context.services.sessions.listActive(env.project.project.id, user.id)).toHaveLength(before.length);
  });

  it('OTP / magic-link sign-in answers MULTI_FACTOR_AUTHENTICATION_REQUIRED, then the TOTP finishes it', async () => {
    const user = await createUser('otp');
    const sent = await post('/auth/otp/send-sign-in-code', {
      email: user.email,
      callback_url: 'https://app.example.com/handler/magic-link-callback',
    });
    expect(sent.status).toBe(200);
    const response = await post('/auth/otp/sign-in', { code: env.context.codeSentTo(user.email) });
    expectError(response, 400, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    const signedIn = await mfaSignIn(await totpOf(user.secret), response.body.details.attempt_code);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user_id).toBe(user.id);
  });

  it('server-created and impersonation sessions need no second factor', async () => {
    const user = await createUser('server-session');
    for (const is_impersonation of [false, true]) {
      const response = await post('/auth/sessions', { user_id: user.id, is_impersonation }, env.project.headers.server);
      expect(response.status).toBe(200);
      expect(response.body.refresh_token).toEqual(expect.any(String));
    }
  });
});

describe('POST /auth/mfa/sign-in', () => {
  it('signs in with the current TOTP and uses the attempt code up', async () => {
    const user = await createUser('totp');
    const attemptCode = await attemptCodeOf(user.email);
    const signedIn = await mfaSignIn(await totpOf(user.secret), attemptCode);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), user_id: user.id });
    expect(decodeJwt(signedIn.body.access_token).sub).toBe(user.id);
    expectError(await mfaSignIn(await totpOf(user.secret, 1), attemptCode), 409, 'VERIFICATION_CODE_ALREADY_USED');
  });

  it('accepts one step of clock drift', async () => {
    const user = await createUser('drift');
    // The attempt code first (a password sign-in), then the TOTP: the code is checked in the step it was taken in.
    const firstAttempt = await attemptCodeOf(user.email);
    expect((await mfaSignIn(await totpOf(user.secret, -1), firstAttempt)).status).toBe(200);
    const secondAttempt = await attemptCodeOf(user.email);
    expect((await mfaSignIn(await totpOf(user.secret, 1), secondAttempt)).status).toBe(200);
  });

  it('refuses a TOTP used before, and one of an earlier step, with INVALID_TOTP_CODE', async () => {
    const user = await createUser('replay');
    const code = await totpOf(user.secret);
    expect((await mfaSignIn(code, await attemptCodeOf(user.email))).status).toBe(200);
    const attemptCode = await attemptCodeOf(user.email);
    expectError(await mfaSignIn(code, attemptCode), 400, 'INVALID_TOTP_CODE');
    expectError(await mfaSignIn(await totpOf(user.secret, -1), attemptCode), 400, 'INVALID_TOTP_CODE');
    // The attempt code was not used up by the refusals.
    expect((await mfaSignIn(await totpOf(user.secret, 1), attemptCode)).status).toBe(200);
  });

  it('refuses a wrong TOTP', async () => {
    const user = await createUser('wrong');
    const wrong = await mfaSignIn(await wrongTotp(user.secret), await attemptCodeOf(user.email));
    expectError(wrong, 400, 'INVALID_TOTP_CODE');
    expect(wrong.body.error).toBe('Invalid TOTP code. Please try signing in again.');
  });

  it('answers the verification errors of the attempt code', async () => {
    const user = await createUser('attempt-code');
    expectError(await mfaSignIn('123456', 'a'.repeat(45)), 404, 'VERIFICATION_CODE_NOT_FOUND');
    const expired = await attemptCodeOf(user.email);
    await env.context.expireCode(expired);
    expectError(await mfaSignIn(await totpOf(user.secret), expired), 400, 'VERIFICATION_CODE_EXPIRED');
    // A code of the right nonce but a wrong head counts as an attempt; the 20th kills the code.
    const attempted = await attemptCodeOf(user.email);
    const tampered = `${attempted.startsWith('aaaaaa') ? 'bbbbbb' : 'aaaaaa'}${attempted.slice(6)}`;
    for (let attempt = 1; attempt < 20; attempt++) expectError(await mfaSignIn('123456', tampered), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expectError(await mfaSignIn('123456', tampered), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expectError(await mfaSignIn(await totpOf(user.secret), attempted), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
  });

  it(`after ${maxFailedAttempts} wrong codes refuses every attempt of that user with 429 and Retry-After`, async () => {
    const user = await createUser('lockout');
    const other = await createUser('not-locked');
    const wrong = await wrongTotp(user.secret);
    for (let attempt = 0; attempt < maxFailedAttempts; attempt++) {
      expectError(await mfaSignIn(wrong, await attemptCodeOf(user.email)), 400, 'INVALID_TOTP_CODE');
    }
    const locked = await mfaSignIn(await totpOf(user.secret), await attemptCodeOf(user.email));
    expect(locked.status).toBe(429);
    expectError(locked, 429, 'RATE_LIMITED');
    expect(locked.body.details).toEqual({ retry_after_seconds: Number(locked.headers['retry-after']) });
    expect(locked.headers['x-stack-known-error']).toBeUndefined();
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Recovery codes are refused too while locked; other users are not affected.
    expect((await mfaSignIn('abcd-efgh-ijkl-mnop', await attemptCodeOf(user.email))).status).toBe(429);
    expect((await mfaSignIn(await totpOf(other.secret), await attemptCodeOf(other.email))).status).toBe(200);
    // Once the window has passed, the right code works again.
    await env.context.database.db
      .updateTable('user_mfa_state')
      .set({ failures_since: new Date(Date.now() - 16 * 60 * 1000) })
      .where('user_id', '=', user.id)
      .execute();
    expect((await mfaSignIn(await totpOf(user.secret), await attemptCodeOf(user.email))).status).toBe(200);
  });
});

describe('recovery codes', () => {
  it('answers ten codes once; each signs in once in place of a TOTP, in any case and without dashes', async () => {
    const user = await createUser('recovery');
    const response = await recoveryCodes(user.accessToken);
    expect(response.status).toBe(200);
    const codes = response.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await env.context.database.db
      .selectFrom('mfa_recovery_code')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored.map((row) => row.code_hash)).not.toContain(codes[0]);

    const [first, second] = codes as [string, string];
    const signedIn = await mfaSignIn(first, await attemptCodeOf(user.email));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user_id).toBe(user.id);
    expectError(await mfaSignIn(first, await attemptCodeOf(user.email)), 400, 'INVALID_TOTP_CODE');
    expect((await mfaSignIn(second.replaceAll('-', '').toUpperCase(), await attemptCodeOf(user.email))).status).toBe(200);
  });

  it("are the user's own: another user's code is refused", async () => {
    const owner = await createUser('owner');
    const other = await createUser('other');
    const [code] = (await recoveryCodes(owner.accessToken)).body.recovery_codes as string[];
    expectError(await mfaSignIn(code as string, await attemptCodeOf(other.email)), 400, 'INVALID_TOTP_CODE');
  });

  it('new codes replace the earlier ones, and so does a new TOTP secret', async () => {
    const user = await createUser('replace');
    const [old] = (await recoveryCodes(user.accessToken)).body.recovery_codes as string[];
    const [current] = (await recoveryCodes(user.accessToken)).body.recovery_codes as string[];
    expectError(await mfaSignIn(old as string, await attemptCodeOf(user.email)), 400, 'INVALID_TOTP_CODE');
    const newSecret = randomBytes(20);
    const patched = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: asUser(user.accessToken),
      payload: { totp_secret_base64: newSecret.toString('base64') },
    });
    expect(patched.status).toBe(200);
    expectError(await mfaSignIn(current as string, await attemptCodeOf(user.email)), 400, 'INVALID_TOTP_CODE');
    expect((await mfaSignIn(await totpOf(newSecret), await attemptCodeOf(user.email))).status).toBe(200);
  });

  it('need TOTP on (TOTP_NOT_ENABLED) and a signed-in user', async () => {
    const user = await createUser('no-totp', false);
    expectError(await recoveryCodes(user.accessToken), 400, 'TOTP_NOT_ENABLED');
    expectError(await post('/users/me/mfa/recovery-codes', {}), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});
