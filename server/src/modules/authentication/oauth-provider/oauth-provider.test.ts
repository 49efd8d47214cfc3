import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { testPublicUrl, withTestContext } from '@gatehouse/testing/test-context';
import {
  authorize,
  basicAuth,
  createApplication,
  oauthPath,
  pkcePair,
  publicHost,
  signedInUser,
} from '@gatehouse/testing/oauth-provider-testing';

/**
 * The project as an OpenID provider, through its protocol endpoints (app.inject, checked against the spec): the
 * authorization code flow with PKCE answered on the consent API, refresh rotation, userinfo, revocation,
 * introspection, and the refusals (wrong redirect URI, reused code, missing verifier, revoked client).
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';

const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(env.project.project.id, '/token'),
    headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });

async function codeFor(clientId: string, userHeaders: Record<string, string>, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  const location = await authorize(
    env.context,
    env.project,
    {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid email profile offline_access',
      state: 'state-1',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      prompt: 'consent',
      ...extra,
    },
    userHeaders,
  );
  expect(location.origin + location.pathname).toBe(redirectUri);
  expect(location.searchParams.get('state')).toBe('state-1');
  return { code: location.searchParams.get('code') as string, verifier: pkce.verifier };
}

describe('OpenID provider: code + PKCE', () => {
  it('discovers, signs in through consent, exchanges, refreshes with rotation and reads userinfo', async () => {
    const projectId = env.project.project.id;
    const issuer = `${testPublicUrl}/api/v1/projects/${projectId}/oauth`;
    const discovery = await env.context.request({
      method: 'GET',
      url: oauthPath(projectId, '/.well-known/openid-configuration'),
      headers: publicHost,
    });
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(issuer);
    expect(discovery.body.code_challenge_methods_supported).toEqual(['S256']);
    const metadata = await env.context.request({
      method: 'GET',
      url: oauthPath(projectId, '/.well-known/oauth-authorization-server'),
      headers: publicHost,
    });
    expect(metadata.body.token_endpoint).toBe(discovery.body.token_endpoint);

    const app = await createApplication(env.context, env.project, { name: 'Public SPA', type: 'public', redirect_uris: [redirectUri] });
    const { user, headers } = await signedInUser(env.context, env.project);
    const { code, verifier } = await codeFor(app.client_id, headers);
    const tokens = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: app.client_id,
    });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.refresh_token).toBeTruthy();

    const jwks = await env.context.request({ method: 'GET', url: oauthPath(projectId, '/jwks'), headers: publicHost });
    expect(jwks.status).toBe(200);
    expect(jwks.headers['content-type']).toContain('application/jwk-set+json');
    const keySet = JSON.parse(jwks.text);
    expect(keySet.keys.every((key: { kty: string; d?: string }) => key.kty === 'EC' && key.d === undefined)).toBe(true);
    const { payload, protectedHeader } = await jwtVerify(tokens.body.id_token, createLocalJWKSet(keySet), {
      issuer,
      audience: app.client_id,
    });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.sub).toBe(user.id);

    const userinfo = await env.context.request({
      method: 'GET',
      url: oauthPath(projectId, '/me'),
      headers: { ...publicHost, authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(userinfo.status, userinfo.text).toBe(200);
    expect(userinfo.body).toMatchObject({ sub: user.id, email: user.primary_email, email_verified: true, name: 'Ada' });

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: app.client_id });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
    // Rotation: the old refresh token is spent.
    const replayed = await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: app.client_id });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe('invalid_grant');
  });

  it('refuses a reused code, a missing verifier and a wrong redirect URI', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Refusals', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await signedInUser(env.context, env.project);
    const first = await codeFor(app.client_id, headers);
    const exchange = { grant_type: 'authorization_code', code: first.code, redirect_uri: redirectUri, client_id: app.client_id };
    expect((await token({ ...exchange, code_verifier: first.verifier })).status).toBe(200);
    const reused = await token({ ...exchange, code_verifier: first.verifier });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');

    const second = await codeFor(app.client_id, headers);
    const noVerifier = await token({ ...exchange, code: second.code });
    expect(noVerifier.status).toBe(400);
    expect(noVerifier.body.error).toBe('invalid_grant');

    const pkce = pkcePair();
    const wrongRedirect = await env.context.request({
      method: 'GET',
      url: `${oauthPath(env.project.project.id, '/auth')}?${new URLSearchParams({
        client_id: app.client_id,
        response_type: 'code',
        redirect_uri: 'https://rp.example.com/callback/other',
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      })}`,
      headers: publicHost,
    });
    expect(wrongRedirect.status).toBe(400);
    expect(wrongRedirect.body.error).toBe('invalid_redirect_uri');
  });

  it('refuses every token of a revoked (deleted) client', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Doomed', type: 'confidential', redirect_uris: [redirectUri] });
    const auth = { authorization: basicAuth(app.client_id, app.client_secret as string) };
    const { headers } = await signedInUser(env.context, env.project);
    const { code, verifier } = await codeFor(app.client_id, headers);
    const tokens = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri }, auth);
    expect(tokens.status, tokens.text).toBe(200);
    const removed = await env.context.request({
      method: 'DELETE',
      url: `/api/v1/internal/oauth-applications/${app.client_id}`,
      headers: env.project.headers.admin,
    });
    expect(removed.status).toBe(200);
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, auth);
    expect(refresh.status).toBe(401);
    expect(refresh.body.error).toBe('invalid_client');
    const userinfo = await env.context.request({
      method: 'GET',
      url: oauthPath(env.project.project.id, '/me'),
      headers: { ...publicHost, authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(userinfo.status).toBe(401);
  });
});
