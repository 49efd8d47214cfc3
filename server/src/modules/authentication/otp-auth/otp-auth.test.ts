import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * Magic link and OTP sign-in (docs/protocol/endpoints.md §3): one emailed code works as a link and as OTP + nonce,
 * signs users in or up, and is checked, used up, expired and killed like every verification code.
 */
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({
  projectConfig: { 'auth.otp.allowSignIn': true, 'auth.allowAnonymousSignUp': true, 'domains.trustedDomains': trustedDomains },
});
const callback = 'https://app.example.com/handler/magic-link-callback';
let otpOff: TestProject;
let signUpOff: TestProject;

beforeAll(async () => {
  otpOff = await env.context.createProject({ 'auth.otp.allowSignIn': false, 'domains.trustedDomains': trustedDomains });
  signUpOff = await env.context.createProject({
    'auth.otp.allowSignIn': true,
    'auth.allowSignUp': false,
    'domains.trustedDomains': trustedDomains,
  });
});

const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const post = (url: string, payload: object, project: TestProject = env.project) =>
  env.context.request({ method: 'POST', url: `/api/v1/auth/otp${url}`, headers: project.headers.client, payload });
const send = (email: string, project: TestProject = env.project, url = callback) =>
  post('/send-sign-in-code', { email, callback_url: url }, project);
const signIn = (code: string, project: TestProject = env.project) => post('/sign-in', { code }, project);
const check = (code: string, project: TestProject = env.project) => post('/sign-in/check-code', { code }, project);
const emailsTo = (address: string) => env.context.sentEmails.filter((email) => email.to === address);
const expire = (code: string) => env.context.expireCode(code);

function expectError(response: { status: number; body: { code?: string } }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
}

/** Sends a code and reads it back from the email: the link's code, the typed OTP and the nonce. */
async function sendCode(email: string, project: TestProject = env.project) {
  const response = await send(email, project);
  expect(response.status).toBe(200);
  const code = env.context.codeSentTo(email);
  const otp = emailsTo(email)
    .at(-1)
    ?.text.match(/\b[A-Z2-7]{6}\b/)?.[0] as string;
  return { code, otp, nonce: response.body.nonce as string };
}

const createUser = (email: string, authEnabled = true, project: TestProject = env.project, verified = true) =>
  env.context.services.users.create(
    project.project,
    { primary_email: email, primary_email_auth_enabled: authEnabled, primary_email_verified: verified },
    'server',
  );

describe('POST /auth/otp/send-sign-in-code', () => {
  it('answers the nonce and emails the link and the OTP', async () => {
    const email = newEmail('send');
    const { code, otp, nonce } = await sendCode(email);
    expect(nonce).toHaveLength(39);
    expect(code).toBe(`${otp.toLowerCase()}${nonce}`);
    const sent = emailsTo(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toContain(`${callback}?code=${code}`);
    expect(sent[0]?.subject).toContain(otp);
  });

  it('is refused in plain text while OTP sign-in is off, and for an untrusted callback', async () => {
    const email = newEmail('refused');
    const off = await send(email, otpOff);
    expect(off.status).toBe(403);
    expect(off.headers['content-type']).toMatch(/^text\/plain/);
    expectError(
      await send(email, env.project, 'https://evil.example.org/handler/magic-link-callback'),
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
    expect(emailsTo(email)).toHaveLength(0);
  });
});

describe('POST /auth/otp/sign-in', () => {
  it('signs a new email up with the link code: a verified, OTP-enabled user', async () => {
    const email = newEmail('new');
    const { code } = await sendCode(email);
    const response = await signIn(code);
    expect(response.status).toBe(200);
    expect(response.body.is_new_user).toBe(true);
    expect(decodeJwt(response.body.access_token)).toMatchObject({ sub: response.body.user_id, email, email_verified: true });
    const me = await env.context.request({
      url: '/api/v1/users/me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': response.body.access_token },
    });
    expect(me.body).toMatchObject({
      id: response.body.user_id,
      primary_email: email,
      primary_email_verified: true,
      otp_auth_enabled: true,
      has_password: false,
      auth_with_email: true,
    });
  });

  it('signs an existing user in with OTP + nonce, the OTP as typed in upper case', async () => {
    const email = newEmail('existing');
    const user = await createUser(email);
    const { otp, nonce } = await sendCode(email.toUpperCase());
    const response = await signIn(`${otp}${nonce}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user_id: user.id, is_new_user: false });
    const again = await sendCode(email);
    const whole = await signIn(`${again.otp}${again.nonce}`.toUpperCase());
    expect(whole.body).toMatchObject({ user_id: user.id, is_new_user: false });
  });

  it('does not enter an account whose email was never verified, and keeps the code', async () => {
    const email = newEmail('preclaimed');
    await createUser(email, true, env.project, false);
    const { code } = await sendCode(email);
    const refused = await signIn(code);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'USER_EMAIL_ALREADY_EXISTS', details: { email, would_work_if_email_was_verified: true } });
    const check = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/otp/sign-in/check-code',
      headers: env.project.headers.client,
      payload: { code },
    });
    expect(check.body).toEqual({ is_code_valid: true });
  });

  it('refuses codes once magic-link sign-in is turned off', async () => {
    const email = newEmail('switched-off');
    const { code } = await sendCode(email);
    await env.context.services.projects.replaceConfigOverride(env.project.project.id, {
      'auth.otp.allowSignIn': false,
      'domains.trustedDomains': trustedDomains,
    });
    const refused = await signIn(code);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('not enabled');
    await env.context.services.projects.replaceConfigOverride(env.project.project.id, {
      'auth.otp.allowSignIn': true,
      'auth.allowAnonymousSignUp': true,
      'domains.trustedDomains': trustedDomains,
    });
  });

  it('signs into the user who took the email after the code was sent', async () => {
    const email = newEmail('late');
    const { code } = await sendCode(email);
    const user = await createUser(email);
    const response = await signIn(code);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user_id: user.id, is_new_user: false });
  });

  it('answers USER_EMAIL_ALREADY_EXISTS when another account takes the email during the sign-up', async () => {
    const email = newEmail('race');
    const { code } = await sendCode(email);
    const { db } = env.context.database;
    let settled = false;
    let pending: ReturnType<typeof signIn> | undefined;
    // The rival account is written but not committed: the sign-in sees no user, then its insert waits on the rival's lock.
    await db.transaction().execute(async (trx) => {
      await createRivalUser(trx, email);
      const { rows } = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(trx);
      pending = signIn(code).finally(() => {
        settled = true;
      });
      for (let wait = 0; !settled; wait++) {
        const { rows: blocked } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_locks
          where locktype = 'transactionid' and transactionid::text = ${rows[0]?.xid} and not granted`.execute(db);
        if ((blocked[0]?.waiting ?? 0) > 0) break;
        if (wait > 500) throw new Error('the sign-in never waited for the rival account');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    const response = await (pending as ReturnType<typeof signIn>);
    expectError(response, 409, 'USER_EMAIL_ALREADY_EXISTS');
    expect(response.body.details).toEqual({ email, would_work_if_email_was_verified: false });
  });

  it('keeps an anonymous user who signs up with a code while sending its token', async () => {
    const anonymous = (
      await env.context.request({ method: 'POST', url: '/api/v1/auth/anonymous/sign-up', headers: env.project.headers.client, payload: {} })
    ).body;
    const headers = {
      ...env.project.headers.client,
      'x-stack-access-token': anonymous.access_token,
      'x-stack-allow-anonymous-user': 'true',
    };
    const email = newEmail('upgrade');
    const { code } = await sendCode(email);
    const response = await env.context.request({ method: 'POST', url: '/api/v1/auth/otp/sign-in', headers, payload: { code } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user_id: anonymous.user_id, is_new_user: true });
    const me = await env.context.request({
      url: '/api/v1/users/me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': response.body.access_token },
    });
    expect(me.body).toMatchObject({ id: anonymous.user_id, is_anonymous: false, primary_email: email, primary_email_verified: true });
  });

  it('does not sign a new email up while sign-up is off, and leaves the code usable', async () => {
    const email = newEmail('nosignup');
    const { code } = await sendCode(email, signUpOff);
    expectError(await signIn(code, signUpOff), 400, 'SIGN_UP_NOT_ENABLED');
    expect((await check(code, signUpOff)).body).toEqual({ is_code_valid: true });
    const existing = newEmail('member');
    const user = await createUser(existing, true, signUpOff);
    const member = await sendCode(existing, signUpOff);
    expect((await signIn(member.code, signUpOff)).body).toMatchObject({ user_id: user.id, is_new_user: false });
  });
});

describe('sign-in codes: checking, using up, expiry, wrong guesses', () => {
  it('checks a code without using it up, in either form', async () => {
    const email = newEmail('check');
    const { code, otp, nonce } = await sendCode(email);
    for (const candidate of [code, `${otp}${nonce}`, code.toUpperCase()]) {
      const response = await check(candidate);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ is_code_valid: true });
    }
    expect((await signIn(code)).status).toBe(200);
  });

  it('signs in only once when the same code is sent twice at the same time', async () => {
    const { code } = await sendCode(newEmail('twice'));
    const responses = await Promise.all([signIn(code), signIn(code)]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.status === 409)?.body.code).toBe('VERIFICATION_CODE_ALREADY_USED');
  });

  it('refuses a used code in either form', async () => {
    const { code, otp, nonce } = await sendCode(newEmail('used'));
    expect((await signIn(`${otp}${nonce}`)).status).toBe(200);
    for (const candidate of [code, `${otp}${nonce}`]) {
      expectError(await signIn(candidate), 409, 'VERIFICATION_CODE_ALREADY_USED');
      expectError(await check(candidate), 409, 'VERIFICATION_CODE_ALREADY_USED');
    }
  });

  it('refuses an expired code without creating the user', async () => {
    const email = newEmail('expired');
    const { code } = await sendCode(email);
    await expire(code);
    expectError(await signIn(code), 400, 'VERIFICATION_CODE_EXPIRED');
    expectError(await check(code), 400, 'VERIFICATION_CODE_EXPIRED');
    expect(await env.context.services.users.findByAuthEmail(env.project.project.id, email)).toBeUndefined();
  });

  it('does not know random codes, a bare OTP, codes of another kind or of another project', async () => {
    const email = newEmail('unknown');
    const { code, otp } = await sendCode(email);
    const codes = env.context.services.verificationCodes;
    const reset = (await codes.issue(env.project.project.id, 'password_reset', { user_id: randomUUID() })).code;
    const foreign = (await sendCode(newEmail('foreign'), signUpOff)).code;
    for (const candidate of ['a'.repeat(45), otp, reset, foreign]) {
      expectError(await signIn(candidate), 404, 'VERIFICATION_CODE_NOT_FOUND');
      expectError(await check(candidate), 404, 'VERIFICATION_CODE_NOT_FOUND');
    }
    expect((await signIn(code)).status).toBe(200);
  });

  it('kills a code after 20 wrong OTPs for its nonce; then even the right one is refused', async () => {
    const email = newEmail('guess');
    const { otp, nonce } = await sendCode(email);
    for (let attempt = 1; attempt <= 20; attempt++) {
      // '0' and '1' are not base32: the guess never equals the real OTP.
      const response = await (attempt % 2 ? signIn : check)(`${String(attempt).padStart(6, '0')}${nonce}`);
      if (attempt < 20) expectError(response, 404, 'VERIFICATION_CODE_NOT_FOUND');
      else expectError(response, 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    }
    expectError(await check(`${otp}${nonce}`), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expectError(await signIn(`${otp}${nonce}`), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expect(await env.context.services.users.findByAuthEmail(env.project.project.id, email)).toBeUndefined();
  });
});

/** A user with `email` as auth email, inserted in `trx` (left uncommitted while the sign-in runs). */
async function createRivalUser(trx: typeof env.context.database.db, email: string): Promise<void> {
  const id = randomUUID();
  const projectId = env.project.project.id;
  await trx.insertInto('project_user').values({ id, project_id: projectId, sign_up_method: 'server' }).execute();
  await trx
    .insertInto('contact_channel')
    .values({ id: randomUUID(), project_id: projectId, user_id: id, value: email, is_primary: true, used_for_auth: true })
    .execute();
}
