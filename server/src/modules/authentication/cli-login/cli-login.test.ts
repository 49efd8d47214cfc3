import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { digestSecret } from '../../../lib/digest.ts';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * CLI login (docs/protocol/endpoints.md §9): the CLI starts a login and polls; a browser user checks, claims the
 * CLI's anonymous session, or completes the login code; the CLI's next poll gets its own session.
 */
const env = withTestContext({ projectConfig: { 'auth.allowAnonymousSignUp': true } });

const client = () => env.project.headers.client;
const post = (url: string, payload: object, headers: Record<string, string> = client()) =>
  env.context.request({ method: 'POST', url: `/api/v1/auth/cli${url}`, headers, payload });
const start = (payload: object = {}) => post('', payload);
const poll = (polling_code: string) => post('/poll', { polling_code });
const complete = (payload: object, headers: Record<string, string> = client()) => post('/complete', payload, headers);

/** A signed-in browser user: its id and tokens. */
async function browserUser(overrides: { restricted_by_admin?: boolean } = {}) {
  const { services } = env.context;
  const user = await services.users.create(
    env.project.project,
    { primary_email: `cli-${randomUUID().slice(0, 8)}@example.com`, primary_email_verified: true, ...overrides },
    'server',
  );
  const tokens = await services.signIn.signIn(env.project.project, user);
  return { id: user.id, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

async function anonymousUser() {
  const response = await env.context.request({ method: 'POST', url: '/api/v1/auth/anonymous/sign-up', headers: client(), payload: {} });
  expect(response.status).toBe(200);
  return { id: response.body.user_id as string, refreshToken: response.body.refresh_token as string };
}

async function startLogin(payload: object = {}) {
  const response = await start(payload);
  expect(response.status).toBe(200);
  return response.body as { polling_code: string; login_code: string; expires_at: string };
}

function expectPlain400(response: { status: number; headers: Record<string, unknown>; text: string }, message: RegExp) {
  expect(response.status).toBe(400);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  expect(response.text).toMatch(message);
}

const expireLogin = (pollingCode: string) =>
  env.context.database.db
    .updateTable('cli_login_attempt')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('polling_code_hash', '=', digestSecret(pollingCode))
    .execute();

describe('POST /auth/cli', () => {
  it('answers a polling code and a login code that expire in 2 hours unless told otherwise', async () => {
    const login = await startLogin();
    expect(login.polling_code).toMatch(/^[a-z2-7]{45}$/);
    expect(login.login_code).toMatch(/^[a-z2-7]{45}$/);
    expect(login.polling_code).not.toBe(login.login_code);
    expect(Date.parse(login.expires_at) - Date.now()).toBeGreaterThan(2 * 60 * 60 * 1000 - 60_000);
    expect(Date.parse(login.expires_at) - Date.now()).toBeLessThanOrEqual(2 * 60 * 60 * 1000);
    const short = await startLogin({ expires_in_millis: 60_000 });
    expect(Date.parse(short.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it('refuses more than 24 hours, and an anon_refresh_token that is not a live anonymous session', async () => {
    const tooLong = await start({ expires_in_millis: 24 * 60 * 60 * 1000 + 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe('SCHEMA_ERROR');
    expectPlain400(await start({ anon_refresh_token: 'a'.repeat(45) }), /anon_refresh_token/);
    expectPlain400(await start({ anon_refresh_token: (await browserUser()).refreshToken }), /anon_refresh_token/);
  });
});

describe('POST /auth/cli/poll and /auth/cli/complete', () => {
  it('waits, answers 201 with a new session of the completing user once, then used', async () => {
    const login = await startLogin();
    const browser = await browserUser();
    expect((await poll(login.polling_code)).body).toEqual({ status: 'waiting' });
    expect((await complete({ login_code: login.login_code, mode: 'check' })).body).toEqual({ cli_session_state: 'none' });
    const completed = await complete(
      { login_code: login.login_code, refresh_token: browser.refreshToken },
      { ...client(), 'x-stack-access-token': browser.accessToken },
    );
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({ success: true });

    const success = await poll(login.polling_code);
    expect(success.status).toBe(201);
    expect(success.body).toEqual({ status: 'success', refresh_token: expect.stringMatching(/^[a-z2-7]{45}$/) });
    expect(success.body.refresh_token).not.toBe(browser.refreshToken);
    const refreshed = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/sessions/current/refresh',
      headers: { ...client(), 'x-stack-refresh-token': success.body.refresh_token },
      payload: {},
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token).sub).toBe(browser.id);

    expect((await poll(login.polling_code)).body).toEqual({ status: 'used' });
    expectPlain400(await complete({ login_code: login.login_code, refresh_token: browser.refreshToken }), /Invalid login code/);
  });

  it('answers expired for an expired login (even once completed), which can no longer be completed', async () => {
    const browser = await browserUser();
    const completedThenExpired = await startLogin();
    expect((await complete({ login_code: completedThenExpired.login_code, refresh_token: browser.refreshToken })).status).toBe(200);
    await expireLogin(completedThenExpired.polling_code);
    expect((await poll(completedThenExpired.polling_code)).body).toEqual({ status: 'expired' });

    const expired = await startLogin();
    await expireLogin(expired.polling_code);
    expect((await poll(expired.polling_code)).body).toEqual({ status: 'expired' });
    expectPlain400(await complete({ login_code: expired.login_code, refresh_token: browser.refreshToken }), /expired/);
    expectPlain400(await complete({ login_code: expired.login_code, mode: 'check' }), /expired/);
  });

  it('answers INVALID_POLLING_CODE for an unknown polling code, also of another project', async () => {
    const unknown = await poll('a'.repeat(45));
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('INVALID_POLLING_CODE');
    const other = await env.context.createProject();
    const login = await startLogin();
    const foreign = await post('/poll', { polling_code: login.polling_code }, other.headers.client);
    expect(foreign.body.code).toBe('INVALID_POLLING_CODE');
  });

  it('completing needs a live refresh token of an unrestricted user, the same as the access token', async () => {
    const login = await startLogin();
    const browser = await browserUser();
    expectPlain400(await complete({ login_code: 'b'.repeat(45), refresh_token: browser.refreshToken }), /Invalid login code/);
    expectPlain400(await complete({ login_code: login.login_code }), /refresh_token is required/);
    expectPlain400(await complete({ login_code: login.login_code, refresh_token: 'c'.repeat(45) }), /Invalid refresh token/);
    const someoneElse = await browserUser();
    expectPlain400(
      await complete(
        { login_code: login.login_code, refresh_token: browser.refreshToken },
        { ...client(), 'x-stack-access-token': someoneElse.accessToken },
      ),
      /different users/,
    );
    const restricted = await browserUser({ restricted_by_admin: true });
    const refused = await complete({ login_code: login.login_code, refresh_token: restricted.refreshToken });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('RESTRICTED_USER_NOT_ALLOWED');
    expect(refused.body.details).toEqual({ restricted_reason: { type: 'restricted_by_administrator' } });
    const anonymous = await anonymousUser();
    expect((await complete({ login_code: login.login_code, refresh_token: anonymous.refreshToken })).status).toBe(403);
    // None of the refusals touched the login.
    expect((await poll(login.polling_code)).body).toEqual({ status: 'waiting' });
  });
});

describe("the CLI's anonymous session", () => {
  it('is reported by check and handed to the browser once by claim-anon-session', async () => {
    const cli = await anonymousUser();
    const login = await startLogin({ anon_refresh_token: cli.refreshToken });
    expect((await complete({ login_code: login.login_code, mode: 'check' })).body).toEqual({ cli_session_state: 'anonymous' });

    const claimed = await complete({ login_code: login.login_code, mode: 'claim-anon-session' });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(decodeJwt(claimed.body.access_token).sub).toBe(cli.id);
    expect(decodeJwt(claimed.body.access_token).is_anonymous).toBe(true);

    expectPlain400(await complete({ login_code: login.login_code, mode: 'claim-anon-session' }), /No anonymous session/);
    expect((await complete({ login_code: login.login_code, mode: 'check' })).body).toEqual({ cli_session_state: 'none' });
    expect((await poll(login.polling_code)).body).toEqual({ status: 'waiting' });
  });

  it('is no longer offered once the anonymous session has ended', async () => {
    const cli = await anonymousUser();
    const login = await startLogin({ anon_refresh_token: cli.refreshToken });
    const session = await env.context.services.sessions.findByRefreshToken(env.project.project.id, cli.refreshToken);
    await env.context.services.sessions.endCurrent(env.project.project.id, session?.id as string);
    expect((await complete({ login_code: login.login_code, mode: 'check' })).body).toEqual({ cli_session_state: 'none' });
    expectPlain400(await complete({ login_code: login.login_code, mode: 'claim-anon-session' }), /No anonymous session/);
  });
});
