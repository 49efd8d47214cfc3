import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { testPublicUrl } from '@gatehouse/testing/test-context';
import { passwordAuthFixture } from '@gatehouse/testing/password-auth-fixture';

/**
 * Anonymous sign-up (docs/protocol/endpoints.md §6): the anonymous user, its tokens and what it may do.
 */
const { env, projects, password, newEmail, client, asUser, post, signIn, me, refreshStatus, passwordUser } = passwordAuthFixture();

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
    expectError(await post('/anonymous/sign-up', {}, client(projects.anonymousOff)), 400, 'ANONYMOUS_ACCOUNTS_NOT_ENABLED');
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
