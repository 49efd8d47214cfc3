import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testPublicUrl, withTestContext } from '@gatehouse/testing/test-context';
import {
  authorize,
  basicAuth,
  cookieJar,
  createApplication,
  oauthPath,
  pkcePair,
  publicHost,
  signedInUser,
} from '@gatehouse/testing/oauth-provider-testing';

/**
 * The owner's operations (applications, settings, key rotation), the consent operations, and every protocol
 * endpoint's refusals: unknown project, unknown or answered request, a browser without the provider's cookie.
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';
const admin = () => env.project.headers.admin;

describe('OAuth applications', () => {
  it('lists, changes and removes applications; an unknown client id is OAUTH_APPLICATION_NOT_FOUND', async () => {
    const created = await createApplication(env.context, env.project, { name: 'Notes', type: 'public', redirect_uris: [redirectUri] });
    expect(created.client_secret).toBeNull();
    const listed = await env.context.request({ method: 'GET', url: '/api/v1/internal/oauth-applications', headers: admin() });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: { client_id: string }) => item.client_id)).toContain(created.client_id);
    expect(JSON.stringify(listed.body)).not.toContain('secret');

    const updated = await env.context.request({
      method: 'PATCH',
      url: `/api/v1/internal/oauth-applications/${created.client_id}`,
      headers: admin(),
      payload: { name: 'Notes 2', logo_url: 'https://rp.example.com/logo.png' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Notes 2', logo_url: 'https://rp.example.com/logo.png', redirect_uris: [redirectUri] });

    // An empty change answers the application as it is.
    const unchanged = await env.context.request({
      method: 'PATCH',
      url: `/api/v1/internal/oauth-applications/${created.client_id}`,
      headers: admin(),
      payload: {},
    });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.name).toBe('Notes 2');

    for (const method of ['PATCH', 'DELETE'] as const) {
      const missing = await env.context.request({
        method,
        url: '/api/v1/internal/oauth-applications/oac_nobody',
        headers: admin(),
        ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}),
      });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('OAUTH_APPLICATION_NOT_FOUND');
    }
  });

  it('refuses a redirect URI with a fragment and a code flow without redirect URI', async () => {
    for (const body of [
      { name: 'Fragment', type: 'public', redirect_uris: ['https://rp.example.com/cb#x'] },
      { name: 'Nowhere', type: 'confidential' },
    ]) {
      const response = await env.context.request({
        method: 'POST',
        url: '/api/v1/internal/oauth-applications',
        headers: admin(),
        payload: body,
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_OAUTH_APPLICATION');
    }
  });

  it('sets the consent page and rotates the signing key; the old key stays published', async () => {
    const jwks = async () =>
      JSON.parse(
        (await env.context.request({ method: 'GET', url: oauthPath(env.project.project.id, '/jwks'), headers: publicHost })).text,
      ) as {
        keys: { kid: string }[];
      };
    const before = await jwks();
    const settings = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/oauth-provider/settings',
      headers: admin(),
      payload: { consent_page_url: 'https://app.example.com/handler/oauth-consent', rotate_signing_key: true },
    });
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({
      issuer: `${testPublicUrl}/api/v1/projects/${env.project.project.id}/oauth`,
      consent_page_url: 'https://app.example.com/handler/oauth-consent',
      allow_dynamic_registration: false,
    });
    const after = await jwks();
    expect(after.keys).toHaveLength(before.keys.length + 1);
    expect(after.keys.slice(1).map((key) => key.kid)).toEqual(before.keys.map((key) => key.kid));

    const app = await createApplication(env.context, env.project, { name: 'Consent URL', type: 'public', redirect_uris: [redirectUri] });
    const pkce = pkcePair();
    const start = await env.context.request({
      method: 'GET',
      url: `${oauthPath(env.project.project.id, '/auth')}?${new URLSearchParams({
        client_id: app.client_id,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      })}`,
      headers: publicHost,
    });
    expect(start.status).toBe(303);
    expect(start.headers.location).toMatch(/^https:\/\/app\.example\.com\/handler\/oauth-consent\?interaction=/);
    await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/oauth-provider/settings',
      headers: admin(),
      payload: { consent_page_url: null },
    });
  });
});

describe('consent operations', () => {
  it('describes a pending request in plain words, remembers an allowed one, and answers it only once', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Journal', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await signedInUser(env.context, env.project);
    const pkce = pkcePair();
    const params = {
      client_id: app.client_id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid email',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    };
    const jar = cookieJar();
    const start = await env.context.request({
      method: 'GET',
      url: `${oauthPath(env.project.project.id, '/auth')}?${new URLSearchParams(params)}`,
      headers: publicHost,
    });
    jar.storeSetCookie(start.headers['set-cookie']);
    const interaction = new URL(start.headers.location as string).searchParams.get('interaction') as string;
    const described = await env.context.request({ method: 'GET', url: `/api/v1/oauth-provider/interactions/${interaction}`, headers });
    expect(described.status).toBe(200);
    expect(described.body).toEqual({
      client_id: app.client_id,
      application_name: 'Journal',
      logo_url: null,
      scopes: [
        { name: 'openid', description: 'Know who you are (your user id)' },
        { name: 'email', description: 'See your email address' },
      ],
      remembered: false,
    });
    // The browser comes back before the user answered: the provider refuses to go on.
    const early = await env.context.request({
      method: 'GET',
      url: oauthPath(env.project.project.id, `/auth/${interaction}`),
      headers: publicHost,
    });
    expect(early.status).toBe(400);
    const answered = await env.context.request({
      method: 'POST',
      url: `/api/v1/oauth-provider/interactions/${interaction}`,
      headers,
      payload: { allow: true },
    });
    expect(answered.status).toBe(200);
    const again = await env.context.request({
      method: 'POST',
      url: `/api/v1/oauth-provider/interactions/${interaction}`,
      headers,
      payload: { allow: false },
    });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('OAUTH_INTERACTION_NOT_FOUND');
    // The answer takes effect when the browser that started the request brings it back (consent-binding.test.ts).
    const back = new URL(answered.body.redirect_to);
    const returned = await env.context.request({
      method: 'GET',
      url: back.pathname + back.search,
      headers: { ...publicHost, cookie: jar.header() },
    });
    expect(returned.status, returned.text).toBe(303);

    // Remembered for the next request of that application.
    const next = await env.context.request({
      method: 'GET',
      url: `${oauthPath(env.project.project.id, '/auth')}?${new URLSearchParams(params)}`,
      headers: publicHost,
    });
    const nextInteraction = new URL(next.headers.location as string).searchParams.get('interaction') as string;
    const remembered = await env.context.request({ method: 'GET', url: `/api/v1/oauth-provider/interactions/${nextInteraction}`, headers });
    expect(remembered.body.remembered).toBe(true);
    const unknown = await env.context.request({ method: 'GET', url: `/api/v1/oauth-provider/interactions/${randomUUID()}`, headers });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('OAUTH_INTERACTION_NOT_FOUND');
  });
});

describe('protocol endpoints', () => {
  it('revokes and introspects tokens of the calling client', async () => {
    const app = await createApplication(env.context, env.project, {
      name: 'Server app',
      type: 'confidential',
      redirect_uris: [redirectUri],
    });
    const auth = { authorization: basicAuth(app.client_id, app.client_secret as string) };
    const { headers } = await signedInUser(env.context, env.project);
    const pkce = pkcePair();
    const location = await authorize(
      env.context,
      env.project,
      {
        client_id: app.client_id,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      },
      headers,
    );
    const form = (url: string, body: Record<string, string>) =>
      env.context.request({
        method: 'POST',
        url: oauthPath(env.project.project.id, url),
        headers: { ...publicHost, ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(body).toString(),
      });
    const tokens = await form('/token', {
      grant_type: 'authorization_code',
      code: location.searchParams.get('code') as string,
      code_verifier: pkce.verifier,
      redirect_uri: redirectUri,
    });
    expect(tokens.status).toBe(200);
    const active = await form('/token/introspection', { token: tokens.body.access_token });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ active: true, client_id: app.client_id });
    const revoked = await form('/token/revocation', { token: tokens.body.access_token });
    expect(revoked.status).toBe(200);
    expect((await form('/token/introspection', { token: tokens.body.access_token })).body.active).toBe(false);
  });

  it('answers PROJECT_NOT_FOUND on every protocol endpoint of an unknown project', async () => {
    const nobody = randomUUID();
    const endpoints: [string, string][] = [
      ['GET', '/.well-known/openid-configuration'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/jwks'],
      ['GET', '/auth'],
      ['GET', '/auth/abc'],
      ['GET', '/me'],
      ['POST', '/token'],
      ['POST', '/token/revocation'],
      ['POST', '/token/introspection'],
    ];
    for (const [method, path] of endpoints) {
      const response = await env.context.request({
        method: method as 'GET',
        url: oauthPath(nobody, path),
        headers: { ...publicHost, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(method === 'POST' ? { payload: 'grant_type=client_credentials' } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.code).toBe('PROJECT_NOT_FOUND');
    }
  });
});
