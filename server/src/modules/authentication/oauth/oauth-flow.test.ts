import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { oauthFlowFixture } from '@gatehouse/testing/oauth-flow-fixture';
import { appCallback, authorizeQuery, pkce } from '@gatehouse/testing/oauth-test-flow';
import type { TestProject } from '@gatehouse/testing/test-context';

/**
 * OAuth sign-in against a real OpenID provider on 127.0.0.1 (docs/protocol/endpoints.md §7): authorize, the
 * provider's approval, the callback, the code exchange; linking and the merge strategies. The endpoints'
 * refusals: oauth-authorize.test.ts, oauth-callback.test.ts, oauth-callback-failures.test.ts.
 */
const { env, flows, mock, newEmail, googleProfile, subOf, me, projectWith } = oauthFlowFixture();

describe('the whole flow against an OpenID provider', () => {
  it('signs a new user up: authorize → provider → callback → code → tokens', async () => {
    const email = newEmail('new');
    googleProfile(email);
    const { redirect, code, verifier, location, cookie } = await flows.toCode({ afterCallbackRedirectUrl: '/welcome' });
    const providerUrl = new URL(location);
    expect(providerUrl.origin).toBe(mock.issuer);
    expect(providerUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(providerUrl.searchParams.get('redirect_uri')).toBe('http://localhost:8102/api/v1/auth/oauth/callback/google');
    expect(providerUrl.searchParams.get('scope')).toBe('openid email profile');
    expect(cookie).toMatch(/^stack-oauth-inner-[^=]+=.{43,}/);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(appCallback);
    expect(redirect.searchParams.get('state')).toBe('app-state');
    const tokens = await flows.exchange(env.project, code, verifier);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'legacy', is_new_user: true, newUser: true });
    expect(tokens.body).toMatchObject({ after_callback_redirect_url: '/welcome', afterCallbackRedirectUrl: '/welcome' });
    expect(decodeJwt(tokens.body.access_token)).toMatchObject({ email, email_verified: true, name: 'Ada Lovelace' });
    const user = await me(tokens.body.access_token);
    expect(user.body).toMatchObject({
      primary_email: email,
      primary_email_verified: true,
      profile_image_url: 'https://example.com/ada.png',
    });
    // The code is used once.
    expectError(await flows.exchange(env.project, code, verifier), 400, 'INVALID_AUTHORIZATION_CODE');
  });

  it('signs the same provider account in again, and answers JSON mode with the location and no cookie', async () => {
    const sub = googleProfile(newEmail('again'));
    const first = await flows.signIn();
    googleProfile(null, false, sub);
    const started = await flows.toProvider({ json: true });
    expect(started.cookie).toBeUndefined();
    const answer = await flows.callback(started.callback, undefined);
    expect(answer.status).toBe(303);
    const code = new URL(String(answer.headers.location)).searchParams.get('code') as string;
    const second = await flows.exchange(env.project, code, started.verifier);
    expect(second.body).toMatchObject({ is_new_user: false, after_callback_redirect_url: null });
    expect(decodeJwt(second.body.access_token).sub).toBe(decodeJwt(first.body.access_token).sub);
  });

  it('maps a non-OpenID provider (GitHub) profile, its verified primary email from the email list', async () => {
    const email = newEmail('octo');
    mock.state.profile = { id: 4242, login: 'octocat', name: null, email: null, avatar_url: 'https://example.com/octo.png' };
    mock.state.emails = [
      { email: 'old@example.com', primary: false, verified: true },
      { email, primary: true, verified: true },
    ];
    const tokens = await flows.signIn({ provider: 'github' });
    expect(tokens.status, tokens.text).toBe(200);
    const user = await me(tokens.body.access_token);
    expect(user.body).toMatchObject({ display_name: 'octocat', primary_email: email, primary_email_verified: true });
  });

  it('upgrades the anonymous user of the token in place', async () => {
    const anonymous = (
      await env.context.request({ method: 'POST', url: '/api/v1/auth/anonymous/sign-up', headers: env.project.headers.client, payload: {} })
    ).body;
    googleProfile(newEmail('upgrade'));
    const tokens = await flows.signIn({ token: anonymous.access_token });
    expect(tokens.body.is_new_user).toBe(true);
    expect(decodeJwt(tokens.body.access_token)).toMatchObject({ sub: anonymous.user_id, is_anonymous: false });
  });

  it('ends in the MFA check: a user with TOTP gets MULTI_FACTOR_AUTHENTICATION_REQUIRED from the token endpoint', async () => {
    const email = newEmail('mfa');
    googleProfile(email);
    const first = await flows.signIn();
    await env.context.services.users.update(env.project.project, subOf(first), {
      totp_secret_base64: Buffer.from('12345678901234567890').toString('base64'),
    });
    const again = await flows.signIn();
    expectError(again, 400, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    expect(again.body.details?.attempt_code).toMatch(/^[a-z2-7]{45}$/);
  });
});

describe('linking a provider account to a signed-in user', () => {
  it('links a second provider, which then signs the same user in', async () => {
    googleProfile(newEmail('linker'));
    const user = (await flows.signIn()).body;
    mock.state.profile = { id: 777001, login: 'linked-octo', email: null };
    mock.state.emails = [];
    const linked = await flows.signIn({ provider: 'github', type: 'link', token: user.access_token });
    expect(linked.body.is_new_user).toBe(false);
    expect(subOf(linked)).toBe(subOf({ body: user }));
    const providers = await env.context.request({
      url: '/api/v1/oauth-providers?user_id=me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': user.access_token },
    });
    expect(providers.body.items.map((item: { type: string }) => item.type).sort()).toEqual(['github', 'google']);
    expect(providers.body.items.every((item: { allow_sign_in: boolean }) => item.allow_sign_in)).toBe(true);
    const viaGithub = await flows.signIn({ provider: 'github' });
    expect(subOf(viaGithub)).toBe(subOf({ body: user }));
  });

  it('lists the linked accounts in every user view (me, server read, server list), and drops an unlinked one', async () => {
    const email = newEmail('views');
    const googleSub = googleProfile(email);
    const user = (await flows.signIn()).body;
    const userId = subOf({ body: user });
    const google = { id: 'google', account_id: googleSub, email };
    expect((await me(user.access_token)).body.oauth_providers).toEqual([google]);
    mock.state.profile = { id: 777002, login: 'viewed-octo', email: null };
    mock.state.emails = [];
    await flows.signIn({ provider: 'github', type: 'link', token: user.access_token });
    const github = { id: 'github', account_id: '777002', email: null };

    const asUser = { ...env.project.headers.client, 'x-stack-access-token': user.access_token };
    const server = env.project.headers.server;
    const views = async () => [
      (await me(user.access_token)).body.oauth_providers,
      (await env.context.request({ url: '/api/v1/users/me', headers: { ...server, 'x-stack-access-token': user.access_token } })).body
        .oauth_providers,
      (await env.context.request({ url: `/api/v1/users/${userId}`, headers: server })).body.oauth_providers,
      (await env.context.request({ url: `/api/v1/users?query=${encodeURIComponent(email)}&limit=5`, headers: server })).body.items.find(
        (item: { id: string }) => item.id === userId,
      ).oauth_providers,
    ];
    for (const view of await views()) expect(view).toEqual([google, github]);

    const links = await env.context.request({ url: '/api/v1/oauth-providers?user_id=me', headers: asUser });
    const githubLink = links.body.items.find((item: { type: string }) => item.type === 'github');
    const unlinked = await env.context.request({ method: 'DELETE', url: `/api/v1/oauth-providers/me/${githubLink.id}`, headers: asUser });
    expect(unlinked.body).toEqual({ success: true });
    for (const view of await views()) expect(view).toEqual([google]);
  });

  it('refuses a provider account that signs in another user, and link without a token (plain 400)', async () => {
    const sub = googleProfile(newEmail('owner'));
    await flows.signIn();
    googleProfile(newEmail('other'));
    const other = (await flows.signIn()).body;
    googleProfile(null, false, sub);
    const started = await flows.toProvider({ type: 'link', token: other.access_token });
    expectError(await flows.callback(started.callback, started.cookie), 409, 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
    const { challenge } = pkce();
    expectPlain(await flows.authorize('google', authorizeQuery(env.project, challenge, { type: 'link' })), 400);
  });
});

describe('account merge strategies (an email that already signs someone in)', () => {
  const existing = async (project: TestProject, verified: boolean) => {
    const email = newEmail('merge');
    const user = await env.context.services.users.create(
      project.project,
      { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: true },
      'password',
    );
    return { email, user };
  };

  it('link_method (default): links when both sides verified the email, else CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', async () => {
    const { email, user } = await existing(env.project, true);
    googleProfile(email, true);
    const linked = await flows.signIn();
    expect(linked.body.is_new_user).toBe(false);
    expect(subOf(linked)).toBe(user.id);
    const unverified = await existing(env.project, false);
    googleProfile(unverified.email, true);
    const started = await flows.toProvider();
    const refused = await flows.callback(started.callback, started.cookie);
    expectError(refused, 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', {
      type: 'email',
      contact_channel_value: unverified.email,
      would_work_if_email_was_verified: true,
    });
  });

  it('raise_error refuses; allow_duplicates signs up a second user whose email does not sign in', async () => {
    const strict = await projectWith({ 'auth.oauth.accountMergeStrategy': 'raise_error' });
    const { email } = await existing(strict, true);
    googleProfile(email, true);
    const started = await flows.toProvider({ project: strict });
    expectError(await flows.callback(started.callback, started.cookie), 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', {
      type: 'email',
      contact_channel_value: email,
      would_work_if_email_was_verified: false,
    });
    const lenient = await projectWith({ 'auth.oauth.accountMergeStrategy': 'allow_duplicates' });
    const duplicate = await existing(lenient, true);
    googleProfile(duplicate.email, true);
    const tokens = await flows.signIn({ project: lenient });
    expect(tokens.body.is_new_user).toBe(true);
    expect(subOf(tokens)).not.toBe(duplicate.user.id);
    const user = await me(tokens.body.access_token, lenient);
    expect(user.body).toMatchObject({ primary_email: duplicate.email, auth_with_email: false });
  });
});
