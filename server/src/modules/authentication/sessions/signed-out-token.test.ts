import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { hostname, passkeyClient, passkeyProjectConfig } from '@gatehouse/testing/passkey-test-client';
import { SoftwareAuthenticator } from '@gatehouse/testing/software-authenticator';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * Issue #12: an access token outlives its session by its remaining minutes. Signed out, it must not
 * mint lasting credentials or change how the user signs in: each such operation answers
 * REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED and changes nothing, while the same call with a live session works.
 */
const env = withTestContext({
  projectConfig: { ...passkeyProjectConfig, 'apiKeys.enabled.user': true, 'auth.password.allowSignIn': true },
});
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const password = 'correct horse battery';

/** A user with a password and a verified email, and two sessions: client headers of each one's access token. */
async function userWithTwoSessions() {
  const { users, signIn } = env.context.services;
  const email = `signed-out-${randomUUID().slice(0, 8)}@example.com`;
  const user = await users.create(
    env.project.project,
    { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password },
    'server',
  );
  const headers = async () => ({
    ...env.project.headers.client,
    'x-stack-access-token': (await signIn.signIn(env.project.project, user)).access_token,
  });
  const live = await headers();
  const signedOut = await headers();
  const out = await env.context.request({ method: 'DELETE', url: '/api/v1/auth/sessions/current', headers: signedOut, payload: {} });
  expect(out.status).toBe(200);
  return { user, live, signedOut };
}
const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const expectSignedOut = (response: Awaited<ReturnType<typeof call>>) => expectError(response, 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');

describe('a signed-out session’s access token', () => {
  it('still reads (GET /users/me) but creates no user API key', async () => {
    const { user, live, signedOut } = await userWithTwoSessions();
    expect((await call('GET', '/users/me', signedOut)).status).toBe(200);
    expectSignedOut(await call('POST', '/user-api-keys', signedOut, { user_id: 'me', description: 'stolen' }));
    const keys = async () => (await call('GET', `/user-api-keys?user_id=${user.id}`, env.project.headers.server)).body.items;
    expect(await keys()).toEqual([]);
    expect((await call('POST', '/user-api-keys', live, { user_id: 'me', description: 'mine' })).status).toBe(200);
    expect(await keys()).toHaveLength(1);
  });

  it('adds no auth contact channel and turns none into one', async () => {
    const { user, live, signedOut } = await userWithTwoSessions();
    const channel = (value: string, used_for_auth: boolean) => ({ user_id: 'me', type: 'email', value, used_for_auth });
    expectSignedOut(await call('POST', '/contact-channels', signedOut, channel(`attacker-${randomUUID()}@example.com`, true)));
    // A channel that does not sign in is not a credential: allowed, but turning it into one is not.
    const plain = await call('POST', '/contact-channels', signedOut, channel(`notes-${randomUUID()}@example.com`, false));
    expect(plain.status).toBe(201);
    expectSignedOut(await call('PATCH', `/contact-channels/me/${plain.body.id}`, signedOut, { used_for_auth: true }));
    const channels = (await call('GET', `/contact-channels?user_id=${user.id}`, env.project.headers.server)).body.items;
    expect(channels.filter((item: { used_for_auth: boolean }) => item.used_for_auth)).toHaveLength(1); // the primary email
    expect((await call('PATCH', `/contact-channels/me/${plain.body.id}`, live, { used_for_auth: true })).status).toBe(200);
  });

  it('sets or changes no password', async () => {
    const { user, live, signedOut } = await userWithTwoSessions();
    expectSignedOut(await call('POST', '/auth/password/update', signedOut, { old_password: password, new_password: 'attacker password' }));
    expectSignedOut(await call('POST', '/auth/password/set', signedOut, { password: 'attacker password' }));
    const signIn = (attempt: string) =>
      call('POST', '/auth/password/sign-in', env.project.headers.client, { email: user.primary_email, password: attempt });
    expect((await signIn(password)).status).toBe(200);
    expect((await signIn('attacker password')).status).toBe(400);
    expect((await call('POST', '/auth/password/update', live, { old_password: password, new_password: 'new own password' })).status).toBe(
      200,
    );
  });

  it('changes no sign-in method of the user (PATCH /users/me), but still edits the profile', async () => {
    const { user, live, signedOut } = await userWithTwoSessions();
    const totp = Buffer.alloc(20, 7).toString('base64');
    expectSignedOut(await call('PATCH', '/users/me', signedOut, { totp_secret_base64: totp }));
    expectSignedOut(await call('PATCH', '/users/me', signedOut, { primary_email: `attacker-${randomUUID()}@example.com` }));
    expectSignedOut(await call('PATCH', '/users/me', signedOut, { otp_auth_enabled: true }));
    expect((await call('PATCH', '/users/me', signedOut, { display_name: 'Still me' })).status).toBe(200);
    const me = await call('GET', '/users/me', live);
    expect(me.body).toMatchObject({ primary_email: user.primary_email, display_name: 'Still me', has_password: true });
    expect((await call('PATCH', '/users/me', live, { otp_auth_enabled: true })).status).toBe(200);
  });

  it('registers no passkey', async () => {
    const { live, signedOut } = await userWithTwoSessions();
    const client = passkeyClient(env);
    const authenticator = new SoftwareAuthenticator();
    // The challenge is asked for while signed in; the registration arrives after the sign-out.
    const { options_json, code } = await client.initiateRegistration(live);
    const { response: credential } = authenticator.register(
      { ...options_json, rp: { ...options_json.rp, id: hostname } },
      { origin: `https://${hostname}` },
    );
    expectSignedOut(await client.post('register', signedOut, { credential, code }));
    const again = await client.register(new SoftwareAuthenticator(), live);
    expect(again.response.status, again.response.text).toBe(200);
  });
});
