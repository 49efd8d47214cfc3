import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestProject, testPublicUrl, withTestContext } from '../../../testing/test-context.ts';

/**
 * Password sign-up, sign-in, change, set and reset, and anonymous sign-up (docs/protocol/endpoints.md §2, §6):
 * through the contract checker, with the emails, tokens and sessions they leave behind.
 */
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({
  projectConfig: { 'auth.password.allowSignIn': true, 'auth.allowAnonymousSignUp': true, 'domains.trustedDomains': trustedDomains },
});
const callback = 'https://app.example.com/handler/callback';
const untrusted = 'https://evil.example.org/handler/callback';
const password = 'correct horse battery';
let passwordOff: TestProject;
let signUpOff: TestProject;
let anonymousOff: TestProject;

beforeAll(async () => {
  const { context } = env;
  passwordOff = await context.createProject({ 'auth.password.allowSignIn': false, 'domains.trustedDomains': trustedDomains });
  signUpOff = await context.createProject({ 'auth.password.allowSignIn': true, 'auth.allowSignUp': false });
  anonymousOff = await context.createProject({ 'auth.allowAnonymousSignUp': false });
});

const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const client = (project: TestProject = env.project) => project.headers.client;
const asUser = (accessToken: string, extra: Record<string, string> = {}) => ({
  ...client(),
  'x-stack-access-token': accessToken,
  ...extra,
});
const post = (url: string, payload: object, headers: Record<string, string> = client()) =>
  env.context.request({ method: 'POST', url: `/api/v1/auth${url}`, headers, payload });
const signUp = (email: string, pass = password, extra: object = {}) => post('/password/sign-up', { email, password: pass, ...extra });
const signIn = (email: string, pass = password) => post('/password/sign-in', { email, password: pass });
const me = (accessToken: string, extra: Record<string, string> = {}) =>
  env.context.request({ url: '/api/v1/users/me', headers: asUser(accessToken, extra) });
/** The status of refreshing a session: 200 while it lives, 401 once it has ended. */
const refreshStatus = async (refreshToken: string) =>
  (await post('/sessions/current/refresh', {}, { ...client(), 'x-stack-refresh-token': refreshToken })).status;
const emailsTo = (address: string) => env.context.sentEmails.filter((email) => email.to === address);

function expectError(
  response: { status: number; body: { code?: string; details?: unknown } },
  status: number,
  code: string,
  details?: object,
) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
  if (details) expect(response.body.details).toEqual(details);
}

/** A user with a password, made through the service (one hash), and a session of it. */
async function passwordUser(project: TestProject = env.project, pass: string | null = password) {
  const email = newEmail('user');
  const user = await env.context.services.users.create(
    project.project,
    { primary_email: email, primary_email_auth_enabled: true, ...(pass ? { password: pass } : {}) },
    'server',
  );
  return { email, user, tokens: await env.context.services.signIn.signIn(project.project, user) };
}

describe('POST /auth/password/sign-up', () => {
  it('creates the user and signs it in: working tokens with every claim, a live session', async () => {
    const email = newEmail('signup');
    const response = await signUp(email);
    expect(response.status).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken, user_id: userId } = response.body;
    expect(refreshToken).toMatch(/^[a-z2-7]{45}$/);

    const user = await me(accessToken);
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({
      id: userId,
      primary_email: email,
      primary_email_verified: false,
      has_password: true,
      auth_with_email: true,
      is_anonymous: false,
      restricted_reason: null,
    });

    const projectId = env.project.project.id;
    const jwks = await env.context.request({ url: `/api/v1/projects/${projectId}/.well-known/jwks.json` });
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet(jwks.body), {
      audience: projectId,
      issuer: `${testPublicUrl}/api/v1/projects/${projectId}`,
    });
    const session = await env.context.database.db
      .selectFrom('refresh_session')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    expect(payload).toMatchObject({
      sub: userId,
      project_id: projectId,
      branch_id: 'main',
      refresh_token_id: session?.id,
      role: 'authenticated',
      name: null,
      email,
      email_verified: false,
      selected_team_id: null,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
    });
    expect(typeof payload.signed_up_at).toBe('number');
    expect((payload.exp as number) - (payload.iat as number)).toBe(600);
    expect(await refreshStatus(refreshToken)).toBe(200);
  });

  it('refuses an email that already signs in, in any case, without creating anyone', async () => {
    const email = newEmail('taken');
    expect((await signUp(email)).status).toBe(200);
    expectError(await signUp(email, 'another password'), 409, 'USER_EMAIL_ALREADY_EXISTS', {
      email,
      would_work_if_email_was_verified: false,
    });
    expectError(await signUp(email.toUpperCase()), 409, 'USER_EMAIL_ALREADY_EXISTS');
    const channels = await env.context.database.db
      .selectFrom('contact_channel')
      .select('id')
      .where('project_id', '=', env.project.project.id)
      .where('value', 'ilike', email)
      .execute();
    expect(channels).toHaveLength(1);
  });

  it('lets only one of two concurrent sign-ups with the same email through', async () => {
    const email = newEmail('race');
    const responses = await Promise.all([signUp(email), signUp(email.toUpperCase())]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.status === 409)?.body.code).toBe('USER_EMAIL_ALREADY_EXISTS');
  });

  it('answers the project settings: password sign-in off, sign-up off', async () => {
    expectError(
      await post('/password/sign-up', { email: newEmail('off'), password }, client(passwordOff)),
      400,
      'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    );
    expectError(await post('/password/sign-up', { email: newEmail('off'), password }, client(signUpOff)), 400, 'SIGN_UP_NOT_ENABLED');
  });

  it("enforces 8 to 70 characters, in the protocol's words", async () => {
    const short = await signUp(newEmail('short'), 'x'.repeat(7));
    expectError(short, 400, 'PASSWORD_TOO_SHORT', { min_length: 8 });
    expect(short.body.error).toBe('Password too short. Minimum length is 8.');
    const long = await signUp(newEmail('long'), 'x'.repeat(71));
    expectError(long, 400, 'PASSWORD_TOO_LONG', { maxLength: 70 });
    expect(long.body.error).toBe('Password too long. Maximum length is 70.');
    expect((await signUp(newEmail('eight'), 'x'.repeat(8))).status).toBe(200);
    expect((await signUp(newEmail('seventy'), 'x'.repeat(70))).status).toBe(200);
  });

  it('refuses an untrusted verification callback before creating the user', async () => {
    const email = newEmail('untrusted');
    expectError(await signUp(email, password, { verification_callback_url: untrusted }), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    expect(emailsTo(email)).toHaveLength(0);
    expectError(await signIn(email), 400, 'EMAIL_PASSWORD_MISMATCH');
  });

  it('emails a verification link to a trusted callback; its code verifies the email', async () => {
    const email = newEmail('verify');
    const response = await signUp(email, password, { verification_callback_url: `${callback}?after=%2Fhome` });
    expect(response.status).toBe(200);
    const sent = emailsTo(email);
    expect(sent).toHaveLength(1);
    const code = env.context.codeSentTo(email);
    expect(sent[0]?.text).toContain(`${callback}?after=%2Fhome&code=${code}`);
    expect((await me(response.body.access_token)).body.primary_email_verified).toBe(false);

    const verified = await env.context.request({
      method: 'POST',
      url: '/api/v1/contact-channels/verify',
      headers: client(),
      payload: { code },
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    expect((await me(response.body.access_token)).body.primary_email_verified).toBe(true);
  });
});

describe('POST /auth/password/sign-in', () => {
  it('signs in with the right password, the email in any case, into a new session', async () => {
    const email = newEmail('MixedCase');
    const { body: created } = await signUp(email);
    for (const candidate of [email, email.toUpperCase()]) {
      const response = await signIn(candidate);
      expect(response.status).toBe(200);
      expect(response.body.user_id).toBe(created.user_id);
      expect(response.body.refresh_token).not.toBe(created.refresh_token);
      expect((await me(response.body.access_token)).body.id).toBe(created.user_id);
    }
  });

  it('answers a wrong password and an unknown email with the same error', async () => {
    const { email } = await passwordUser();
    const wrong = await signIn(email, 'not the password');
    const unknown = await signIn(newEmail('nobody'));
    expectError(wrong, 400, 'EMAIL_PASSWORD_MISMATCH');
    expectError(unknown, 400, 'EMAIL_PASSWORD_MISMATCH');
    // The protocol's words, the same for a wrong password and an unknown email.
    expect(wrong.body.error).toBe('Wrong e-mail or password.');
    expect(unknown.body.error).toBe('Wrong e-mail or password.');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses an email that is not used for auth, and a project without password sign-in', async () => {
    const email = newEmail('notauth');
    await env.context.services.users.create(
      env.project.project,
      { primary_email: email, primary_email_auth_enabled: false, password },
      'server',
    );
    expectError(await signIn(email), 400, 'EMAIL_PASSWORD_MISMATCH');
    const disabled = await post('/password/sign-in', { email, password }, client(passwordOff));
    expectError(disabled, 400, 'PASSWORD_AUTHENTICATION_NOT_ENABLED');
    expect(disabled.body.error).toBe('Password sign-in is disabled for the project.');
  });
});

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
    const { tokens } = await passwordUser(passwordOff);
    const headers = { ...client(passwordOff), 'x-stack-access-token': tokens.access_token };
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
    const { tokens } = await passwordUser(passwordOff, null);
    const headers = { ...client(passwordOff), 'x-stack-access-token': tokens.access_token };
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
    expectError(await sendReset(email, passwordOff), 400, 'PASSWORD_AUTHENTICATION_NOT_ENABLED');
    const code = (await env.context.services.verificationCodes.issue(passwordOff.project.id, 'password_reset', { user_id: randomUUID() }))
      .code;
    expectError(await reset(code, 'new password 1', passwordOff), 400, 'PASSWORD_AUTHENTICATION_NOT_ENABLED');
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
    const otherProject = (await codes.issue(passwordOff.project.id, 'password_reset', { user_id: user.id })).code;
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

describe('POST /auth/anonymous/sign-up', () => {
  const allowAnonymous = { 'x-stack-allow-anonymous-user': 'true' };

  it('creates an anonymous, restricted user with tokens of the :anon audience', async () => {
    const response = await post('/anonymous/sign-up', {});
    expect(response.status).toBe(200);
    const claims = decodeJwt(response.body.access_token);
    const projectId = env.project.project.id;
    expect(claims).toMatchObject({
      sub: response.body.user_id,
      aud: `${projectId}:anon`,
      iss: `${testPublicUrl}/api/v1/projects-anonymous-users/${projectId}`,
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: 'anonymous' },
      email: null,
    });
    const user = await me(response.body.access_token, allowAnonymous);
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({
      id: response.body.user_id,
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: 'anonymous' },
      primary_email: null,
      has_password: false,
    });
    expect(await refreshStatus(response.body.refresh_token)).toBe(200);
  });

  it('is refused when the project turns anonymous users off', async () => {
    expectError(await post('/anonymous/sign-up', {}, client(anonymousOff)), 400, 'ANONYMOUS_ACCOUNTS_NOT_ENABLED');
  });

  it('becomes a normal user, keeping its id and data, by signing up with a password', async () => {
    const anonymous = (await post('/anonymous/sign-up', {})).body;
    const patched = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: asUser(anonymous.access_token, allowAnonymous),
      payload: { client_metadata: { cart: ['book'] } },
    });
    expect(patched.status).toBe(200);
    const email = newEmail('upgraded');
    const response = await post('/password/sign-up', { email, password }, asUser(anonymous.access_token, allowAnonymous));
    expect(response.status).toBe(200);
    expect(response.body.user_id).toBe(anonymous.user_id);
    expect(decodeJwt(response.body.access_token)).toMatchObject({ aud: env.project.project.id, is_anonymous: false, email });
    const user = await me(response.body.access_token);
    expect(user.body).toMatchObject({
      id: anonymous.user_id,
      is_anonymous: false,
      restricted_reason: null,
      primary_email: email,
      has_password: true,
      client_metadata: { cart: ['book'] },
    });
    expect((await signIn(email)).body.user_id).toBe(anonymous.user_id);
  });

  it('stays anonymous when its sign-up is refused', async () => {
    const anonymous = (await post('/anonymous/sign-up', {})).body;
    const { email } = await passwordUser();
    const response = await post('/password/sign-up', { email, password }, asUser(anonymous.access_token, allowAnonymous));
    expectError(response, 409, 'USER_EMAIL_ALREADY_EXISTS', { email, would_work_if_email_was_verified: false });
    const user = await me(anonymous.access_token, allowAnonymous);
    expect(user.body).toMatchObject({ id: anonymous.user_id, is_anonymous: true, primary_email: null, has_password: false });
    expect(await refreshStatus(anonymous.refresh_token)).toBe(200);
  });
});
