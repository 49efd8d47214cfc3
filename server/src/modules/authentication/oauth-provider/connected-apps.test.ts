import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { authorize, createApplication, oauthPath, pkcePair, publicHost, signedInUser } from '@gatehouse/testing/oauth-provider-testing';

/**
 * "Connected apps": the signed-in user lists the applications they allowed and revokes one; the revoked grant's
 * refresh and access tokens stop working, the next request asks for consent again, and nobody else's consent
 * (another user of the project) can be listed or revoked.
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';

const token = (form: Record<string, string>) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(env.project.project.id, '/token'),
    headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

const authorizationParams = (clientId: string, challenge: string) => ({
  client_id: clientId,
  response_type: 'code',
  redirect_uri: redirectUri,
  scope: 'openid email offline_access',
  prompt: 'consent',
  code_challenge: challenge,
  code_challenge_method: 'S256',
});

async function connect(clientId: string, userHeaders: Record<string, string>) {
  const pkce = pkcePair();
  const location = await authorize(env.context, env.project, authorizationParams(clientId, pkce.challenge), userHeaders);
  const tokens = await token({
    grant_type: 'authorization_code',
    code: location.searchParams.get('code') as string,
    code_verifier: pkce.verifier,
    redirect_uri: redirectUri,
    client_id: clientId,
  });
  expect(tokens.status, tokens.text).toBe(200);
  return tokens.body as { access_token: string; refresh_token: string };
}

const connections = (headers: Record<string, string>) =>
  env.context.request({ method: 'GET', url: '/api/v1/users/me/oauth-connections', headers });
const revoke = (headers: Record<string, string>, clientId: string) =>
  env.context.request({ method: 'DELETE', url: `/api/v1/users/me/oauth-connections/${clientId}`, headers });

describe('connected apps', () => {
  it('lists the apps a user allowed, and revoking one ends its tokens and asks for consent again', async () => {
    const app = await createApplication(env.context, env.project, {
      name: 'Diary',
      type: 'public',
      redirect_uris: [redirectUri],
      logo_url: 'https://rp.example.com/logo.png',
    });
    const other = await createApplication(env.context, env.project, { name: 'Planner', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await signedInUser(env.context, env.project);
    const before = Date.now();
    const tokens = await connect(app.client_id, headers);
    await connect(other.client_id, headers);

    const listed = await connections(headers);
    expect(listed.status).toBe(200);
    const diary = listed.body.items.find((item: { client_id: string }) => item.client_id === app.client_id);
    expect(diary).toMatchObject({
      application_name: 'Diary',
      logo_url: 'https://rp.example.com/logo.png',
      scopes: [
        { name: 'openid', description: 'Know who you are (your user id)' },
        { name: 'email', description: 'See your email address' },
        { name: 'offline_access', description: 'Stay connected when you are not using it' },
      ],
    });
    expect(diary.granted_at_millis).toBeGreaterThanOrEqual(before - 1000);
    expect(listed.body.items).toHaveLength(2);

    const revoked = await revoke(headers, app.client_id);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect((await connections(headers)).body.items.map((item: { client_id: string }) => item.client_id)).toEqual([other.client_id]);

    // The grant is gone: its refresh token is refused and its access token no longer reads userinfo.
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    const userinfo = await env.context.request({
      method: 'GET',
      url: oauthPath(env.project.project.id, '/me'),
      headers: { ...publicHost, authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(401);

    // The consent is forgotten: the next request is not remembered.
    const start = await env.context.request({
      method: 'GET',
      url: `${oauthPath(env.project.project.id, '/auth')}?${new URLSearchParams(authorizationParams(app.client_id, pkcePair().challenge))}`,
      headers: publicHost,
    });
    const interaction = new URL(start.headers.location as string).searchParams.get('interaction') as string;
    const described = await env.context.request({ method: 'GET', url: `/api/v1/oauth-provider/interactions/${interaction}`, headers });
    expect(described.status).toBe(200);
    expect(described.body.remembered).toBe(false);

    // Revoking twice, or an application never connected, is OAUTH_APPLICATION_NOT_FOUND.
    for (const clientId of [app.client_id, 'oac_nobody']) {
      const again = await revoke(headers, clientId);
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ code: 'OAUTH_APPLICATION_NOT_FOUND', details: { client_id: clientId } });
    }
  });

  it("another user of the project neither sees nor revokes the user's connection", async () => {
    const app = await createApplication(env.context, env.project, { name: 'Shared', type: 'public', redirect_uris: [redirectUri] });
    const owner = await signedInUser(env.context, env.project);
    const stranger = await signedInUser(env.context, env.project);
    const tokens = await connect(app.client_id, owner.headers);

    expect((await connections(stranger.headers)).body.items).toEqual([]);
    const attempt = await revoke(stranger.headers, app.client_id);
    expect(attempt.status).toBe(404);
    expect(attempt.body.code).toBe('OAUTH_APPLICATION_NOT_FOUND');

    expect((await connections(owner.headers)).body.items.map((item: { client_id: string }) => item.client_id)).toEqual([app.client_id]);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id });
    expect(refreshed.status, refreshed.text).toBe(200);
  });

  it('needs a signed-in user and client access', async () => {
    const anonymous = await connections(env.project.headers.client);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('USER_AUTHENTICATION_REQUIRED');
    const { headers } = await signedInUser(env.context, env.project);
    const asServer = await connections({
      ...env.project.headers.server,
      'x-stack-access-token': headers['x-stack-access-token'] as string,
    });
    expect(asServer.status).toBe(401);
    expect(asServer.body.code).toBe('INSUFFICIENT_ACCESS_TYPE');
  });
});

describe('OAuth provider settings', () => {
  it('reads the settings the owner set', async () => {
    const admin = env.project.headers.admin;
    await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/oauth-provider/settings',
      headers: admin,
      payload: { allow_dynamic_registration: true },
    });
    const read = await env.context.request({ method: 'GET', url: '/api/v1/internal/oauth-provider/settings', headers: admin });
    expect(read.status).toBe(200);
    expect(read.body.allow_dynamic_registration).toBe(true);
    expect(read.body.issuer).toContain(`/api/v1/projects/${env.project.project.id}/oauth`);
  });
});
