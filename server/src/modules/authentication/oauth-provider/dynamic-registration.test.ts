import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '@gatehouse/testing/test-context';
import { withTestContext } from '@gatehouse/testing/test-context';
import { authorize, oauthPath, pkcePair, publicHost, signedInUser } from '@gatehouse/testing/oauth-provider-testing';

/**
 * Dynamic client registration (RFC 7591) at `/projects/<id>/oauth/reg`: refused with a catalogued error until the
 * owner turns it on, then a registered client is an application of that project only, with the OpenID scopes by default.
 */
const env = withTestContext();
const redirectUri = 'http://127.0.0.1:33418/callback';
let other: TestProject;

beforeAll(async () => {
  other = await env.context.createProject();
});

const register = (project: TestProject, body: unknown) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(project.project.id, '/reg'),
    headers: { ...publicHost, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const setRegistration = async (project: TestProject, allow: boolean) => {
  const response = await env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/oauth-provider/settings',
    headers: project.headers.admin,
    payload: { allow_dynamic_registration: allow },
  });
  expect(response.status, response.text).toBe(200);
};

const discovery = async (project: TestProject) =>
  (
    await env.context.request({
      method: 'GET',
      url: oauthPath(project.project.id, '/.well-known/oauth-authorization-server'),
      headers: publicHost,
    })
  ).body as { registration_endpoint?: string };

const applications = async (project: TestProject) =>
  (await env.context.request({ method: 'GET', url: '/api/v1/internal/oauth-applications', headers: project.headers.admin })).body.items as {
    client_id: string;
    scopes: string[];
    registered_dynamically: boolean;
    type: string;
  }[];

const mcpClient = {
  client_name: 'An MCP client',
  redirect_uris: [redirectUri],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
};

describe('dynamic client registration', () => {
  it('is refused with OAUTH_DYNAMIC_REGISTRATION_DISABLED until the owner turns it on, and again once turned off', async () => {
    const refused = await register(env.project, mcpClient);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('OAUTH_DYNAMIC_REGISTRATION_DISABLED');
    expect((await discovery(env.project)).registration_endpoint).toBeUndefined();
    expect((await applications(env.project)).some((app) => app.registered_dynamically)).toBe(false);

    await setRegistration(env.project, true);
    expect((await discovery(env.project)).registration_endpoint).toBe(
      `${new URL(`http://${publicHost.host}`).origin}${oauthPath(env.project.project.id, '/reg')}`,
    );
    const accepted = await register(env.project, mcpClient);
    expect(accepted.status, accepted.text).toBe(201);
    await setRegistration(env.project, false);
    const again = await register(env.project, mcpClient);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('OAUTH_DYNAMIC_REGISTRATION_DISABLED');
  });

  it('registers a public client with the OpenID scopes, which then signs a user in with code + PKCE', async () => {
    await setRegistration(env.project, true);
    const registered = await register(env.project, mcpClient);
    expect(registered.status, registered.text).toBe(201);
    const client = registered.body as { client_id: string; client_secret?: string; scope: string; token_endpoint_auth_method: string };
    expect(client.client_secret).toBeUndefined();
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client.scope.split(' ').sort()).toEqual(['email', 'offline_access', 'openid', 'profile']);
    const listed = (await applications(env.project)).find((app) => app.client_id === client.client_id);
    expect(listed).toMatchObject({ registered_dynamically: true, type: 'public' });
    expect(listed?.scopes.sort()).toEqual(['email', 'offline_access', 'openid', 'profile']);

    const { headers } = await signedInUser(env.context, env.project);
    const pkce = pkcePair();
    const back = await authorize(
      env.context,
      env.project,
      {
        client_id: client.client_id,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid email',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      },
      headers,
    );
    const tokens = await env.context.request({
      method: 'POST',
      url: oauthPath(env.project.project.id, '/token'),
      headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code') as string,
        code_verifier: pkce.verifier,
        redirect_uri: redirectUri,
        client_id: client.client_id,
      }).toString(),
    });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.id_token).toEqual(expect.any(String));
  });

  it('refuses malformed metadata with a 400, never a 500, and registers nothing', async () => {
    await setRegistration(env.project, true);
    const before = (await applications(env.project)).length;
    const cases: [unknown, string][] = [
      [{ ...mcpClient, redirect_uris: 'https://not-an-array.example.com' }, 'SCHEMA_ERROR'],
      [{ ...mcpClient, redirect_uris: ['not a url'] }, 'invalid_redirect_uri'],
      [{ ...mcpClient, redirect_uris: ['https://rp.example.com/cb#fragment'] }, 'invalid_redirect_uri'],
      [{ ...mcpClient, grant_types: ['password'] }, 'invalid_client_metadata'],
      [{ ...mcpClient, token_endpoint_auth_method: 'magic' }, 'invalid_client_metadata'],
      [{ ...mcpClient, scope: 'openid admin:everything' }, 'invalid_client_metadata'],
      [{ ...mcpClient, client_name: 'x'.repeat(5000) }, 'SCHEMA_ERROR'],
      ['{"redirect_uris": [', ''],
      [[1, 2, 3], ''],
    ];
    for (const [body, code] of cases) {
      const response = await register(env.project, body);
      expect(response.status, `${JSON.stringify(body).slice(0, 80)} → ${response.text}`).toBe(400);
      if (code) expect(response.body.code ?? response.body.error).toBe(code);
    }
    expect(await applications(env.project)).toHaveLength(before);
  });

  it('keeps a client registered in one project out of another', async () => {
    await setRegistration(env.project, true);
    await setRegistration(other, true);
    const registered = await register(env.project, mcpClient);
    expect(registered.status, registered.text).toBe(201);
    const clientId = registered.body.client_id as string;
    expect((await applications(other)).some((app) => app.client_id === clientId)).toBe(false);
    const pkce = pkcePair();
    const atOther = await env.context.request({
      method: 'GET',
      url: `${oauthPath(other.project.id, '/auth')}?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      })}`,
      headers: publicHost,
    });
    expect(atOther.status).toBe(400);
    expect(atOther.body.error).toBe('invalid_client');
  });

  it('answers PROJECT_NOT_FOUND for a project that does not exist', async () => {
    const response = await env.context.request({
      method: 'POST',
      url: oauthPath(randomUUID(), '/reg'),
      headers: { ...publicHost, 'content-type': 'application/json' },
      payload: JSON.stringify(mcpClient),
    });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('PROJECT_NOT_FOUND');
  });
});
