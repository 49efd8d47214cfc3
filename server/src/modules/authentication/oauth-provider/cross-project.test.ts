import { createLocalJWKSet, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from '@gatehouse/testing/test-context';
import { withTestContext } from '@gatehouse/testing/test-context';
import { basicAuth, createApplication, oauthPath, pkcePair, publicHost, signedInUser } from '@gatehouse/testing/oauth-provider-testing';

/**
 * Cross-project isolation of the provider: project A's client gets nothing from project B's provider (B's users
 * among it), and B's provider and B's resource servers reject A's tokens.
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';
const api = 'https://api.example.com/';
let projectA: TestProject;
let projectB: TestProject;

beforeAll(async () => {
  projectA = env.project;
  projectB = await env.context.createProject();
});

const form = (project: TestProject, path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(project.project.id, path),
    headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(body).toString(),
  });

describe('provider isolation between projects', () => {
  it("refuses project A's client at project B's endpoints, and B's user on A's consent", async () => {
    const appA = await createApplication(env.context, projectA, { name: 'A app', type: 'confidential', redirect_uris: [redirectUri] });
    const authA = { authorization: basicAuth(appA.client_id, appA.client_secret as string) };
    const pkce = pkcePair();
    const atB = await env.context.request({
      method: 'GET',
      url: `${oauthPath(projectB.project.id, '/auth')}?${new URLSearchParams({
        client_id: appA.client_id,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      })}`,
      headers: publicHost,
    });
    expect(atB.status).toBe(400);
    expect(atB.body.error).toBe('invalid_client');
    const tokenAtB = await form(projectB, '/token', { grant_type: 'client_credentials' }, authA);
    expect(tokenAtB.status).toBe(401);
    expect(tokenAtB.body.error).toBe('invalid_client');

    // A request of A's client waits for consent at A; a user of B answers it, with B's credentials or A's.
    const start = await env.context.request({
      method: 'GET',
      url: `${oauthPath(projectA.project.id, '/auth')}?${new URLSearchParams({
        client_id: appA.client_id,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      })}`,
      headers: publicHost,
    });
    const interaction = new URL(start.headers.location as string).searchParams.get('interaction') as string;
    const userB = await signedInUser(env.context, projectB);
    const underB = await env.context.request({
      method: 'POST',
      url: `/api/v1/oauth-provider/interactions/${interaction}`,
      headers: userB.headers,
      payload: { allow: true },
    });
    expect(underB.status).toBe(404);
    expect(underB.body.code).toBe('OAUTH_INTERACTION_NOT_FOUND');
    const underA = await env.context.request({
      method: 'POST',
      url: `/api/v1/oauth-provider/interactions/${interaction}`,
      headers: { ...projectA.headers.client, 'x-stack-access-token': userB.headers['x-stack-access-token'] },
      payload: { allow: true },
    });
    expect(underA.status).toBe(401);
  });

  it("rejects project A's tokens at project B: userinfo, introspection and B's JWKS", async () => {
    const machineA = await createApplication(env.context, projectA, {
      name: 'A machine',
      type: 'confidential',
      grant_types: ['client_credentials'],
      scopes: ['read'],
    });
    const machineB = await createApplication(env.context, projectB, {
      name: 'B machine',
      type: 'confidential',
      grant_types: ['client_credentials'],
      scopes: ['read'],
    });
    const authB = { authorization: basicAuth(machineB.client_id, machineB.client_secret as string) };
    const jwtA = await form(
      projectA,
      '/token',
      { grant_type: 'client_credentials', scope: 'read', resource: api },
      {
        authorization: basicAuth(machineA.client_id, machineA.client_secret as string),
      },
    );
    expect(jwtA.status).toBe(200);
    const opaqueA = await form(
      projectA,
      '/token',
      { grant_type: 'client_credentials', scope: 'read' },
      {
        authorization: basicAuth(machineA.client_id, machineA.client_secret as string),
      },
    );
    expect(opaqueA.status).toBe(200);

    const introspected = await form(projectB, '/token/introspection', { token: opaqueA.body.access_token }, authB);
    expect(introspected.status).toBe(200);
    expect(introspected.body.active).toBe(false);
    const userinfo = await env.context.request({
      method: 'GET',
      url: oauthPath(projectB.project.id, '/me'),
      headers: { ...publicHost, authorization: `Bearer ${opaqueA.body.access_token}` },
    });
    expect(userinfo.status).toBe(401);

    // B's API verifies with B's keys and issuer: A's JWT fails both.
    const jwksB = JSON.parse(
      (await env.context.request({ method: 'GET', url: oauthPath(projectB.project.id, '/jwks'), headers: publicHost })).text,
    );
    const issuerB = `http://${publicHost.host}${oauthPath(projectB.project.id, '')}`;
    await expect(jwtVerify(jwtA.body.access_token, createLocalJWKSet(jwksB), { issuer: issuerB, audience: api })).rejects.toThrow();
    // The same JWT does verify at A (the test would pass vacuously otherwise).
    const jwksA = JSON.parse(
      (await env.context.request({ method: 'GET', url: oauthPath(projectA.project.id, '/jwks'), headers: publicHost })).text,
    );
    const issuerA = `http://${publicHost.host}${oauthPath(projectA.project.id, '')}`;
    const { payload } = await jwtVerify(jwtA.body.access_token, createLocalJWKSet(jwksA), { issuer: issuerA, audience: api });
    expect(payload.client_id).toBe(machineA.client_id);
  });
});
