import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import type { TestProject } from '@gatehouse/testing/test-context';
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
 * An OAuth application's custom claims (Gatehouse's own): templated into its ID tokens, userinfo answers and JWT access
 * tokens through the code + PKCE flow and refresh; an invalid template refused when the application is saved; never
 * in another application's or another project's tokens, nor in client-credentials tokens (no user).
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';
const resource = 'https://api.example.com/';
const template = {
  plan: 'user.client_read_only_metadata.plan',
  tenant: '"acme"',
  seats: 'has(user.server_metadata.seats) ? user.server_metadata.seats : 1',
};

const token = (project: TestProject, form: Record<string, string>, headers: Record<string, string> = {}) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(project.project.id, '/token'),
    headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });

async function userWithPlan(project: TestProject, plan: string) {
  const { user, headers } = await signedInUser(env.context, project);
  const updated = await env.context.request({
    method: 'PATCH',
    url: `/api/v1/users/${user.id}`,
    headers: project.headers.server,
    payload: { client_read_only_metadata: { plan }, server_metadata: { seats: 12 } },
  });
  expect(updated.status, updated.text).toBe(200);
  return { user, headers };
}

/** Code + PKCE through the consent API, then the code exchanged (for `resource` when given). */
async function tokensFor(project: TestProject, clientId: string, userHeaders: Record<string, string>, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  const back = await authorize(
    env.context,
    project,
    {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid offline_access',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      prompt: 'consent',
      ...extra,
    },
    userHeaders,
  );
  const exchanged = await token(project, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code') as string,
    code_verifier: pkce.verifier,
    redirect_uri: redirectUri,
    client_id: clientId,
    ...extra,
  });
  expect(exchanged.status, exchanged.text).toBe(200);
  return exchanged.body as { access_token: string; id_token: string; refresh_token: string };
}

async function verifiedIdToken(project: TestProject, idToken: string, clientId: string) {
  const jwks = JSON.parse(
    (await env.context.request({ method: 'GET', url: oauthPath(project.project.id, '/jwks'), headers: publicHost })).text,
  );
  const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
    issuer: `${testPublicUrl}/api/v1/projects/${project.project.id}/oauth`,
    audience: clientId,
  });
  return payload;
}

const userinfo = async (project: TestProject, accessToken: string) => {
  const answer = await env.context.request({
    method: 'GET',
    url: oauthPath(project.project.id, '/me'),
    headers: { ...publicHost, authorization: `Bearer ${accessToken}` },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Record<string, unknown>;
};

describe("an OAuth application's custom claims", () => {
  it('are in its ID tokens, userinfo and JWT access tokens, refreshed ones included', async () => {
    const app = await createApplication(env.context, env.project, {
      name: 'Claims RP',
      type: 'public',
      redirect_uris: [redirectUri],
      scopes: ['openid', 'offline_access', 'reports:read'],
      custom_claims: template,
    });
    const { user, headers } = await userWithPlan(env.project, 'pro');
    const expected = { plan: 'pro', tenant: 'acme', seats: 12 };

    const tokens = await tokensFor(env.project, app.client_id, headers);
    expect(await verifiedIdToken(env.project, tokens.id_token, app.client_id)).toMatchObject({ sub: user.id, ...expected });
    expect(await userinfo(env.project, tokens.access_token)).toEqual({ sub: user.id, ...expected });

    const refreshed = await token(env.project, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.client_id,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(await verifiedIdToken(env.project, refreshed.body.id_token, app.client_id)).toMatchObject(expected);

    const forApi = await tokensFor(env.project, app.client_id, headers, { resource });
    expect(decodeJwt(forApi.access_token)).toMatchObject({ sub: user.id, aud: resource, client_id: app.client_id, ...expected });
  });

  it('follow a change of the template, and stay out of other applications, other projects and client-credentials tokens', async () => {
    const app = await createApplication(env.context, env.project, {
      name: 'Changing RP',
      type: 'confidential',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      scopes: ['openid', 'offline_access', 'reports:read'],
      custom_claims: template,
    });
    const plain = await createApplication(env.context, env.project, { name: 'Plain RP', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await userWithPlan(env.project, 'team');

    const changed = await env.context.request({
      method: 'PATCH',
      url: `/api/v1/internal/oauth-applications/${app.client_id}`,
      headers: env.project.headers.admin,
      payload: { custom_claims: { plan_upper: 'user.client_read_only_metadata.plan.upperAscii()' } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.custom_claims).toEqual({ plan_upper: 'user.client_read_only_metadata.plan.upperAscii()' });
    const auth = { authorization: basicAuth(app.client_id, app.client_secret as string) };
    const pkce = pkcePair();
    const back = await authorize(
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
    const exchanged = await token(
      env.project,
      {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code') as string,
        code_verifier: pkce.verifier,
        redirect_uri: redirectUri,
      },
      auth,
    );
    expect(exchanged.status, exchanged.text).toBe(200);
    const idToken = decodeJwt(exchanged.body.id_token as string);
    expect(idToken.plan_upper).toBe('TEAM');
    expect(idToken).not.toHaveProperty('plan');

    const machine = await token(env.project, { grant_type: 'client_credentials', scope: 'reports:read', resource }, auth);
    expect(machine.status, machine.text).toBe(200);
    expect(decodeJwt(machine.body.access_token as string)).not.toHaveProperty('plan_upper');

    const fromPlain = await tokensFor(env.project, plain.client_id, headers);
    expect(decodeJwt(fromPlain.id_token)).not.toHaveProperty('plan_upper');
    expect(await userinfo(env.project, fromPlain.access_token)).not.toHaveProperty('plan_upper');

    // Another project, an application with the same name and no template; its user has the same metadata.
    const other = await env.context.createProject();
    const otherApp = await createApplication(env.context, other, { name: 'Changing RP', type: 'public', redirect_uris: [redirectUri] });
    const { headers: otherHeaders } = await userWithPlan(other, 'team');
    const fromOther = await tokensFor(other, otherApp.client_id, otherHeaders);
    expect(Object.keys(decodeJwt(fromOther.id_token))).not.toContain('plan_upper');
    expect(Object.keys(await userinfo(other, fromOther.access_token))).toEqual(['sub']);
  });

  it('are refused when invalid, at creation and at change, with the claim and position; nothing is saved', async () => {
    const created = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/oauth-applications',
      headers: env.project.headers.admin,
      payload: { name: 'Broken', type: 'public', redirect_uris: [redirectUri], custom_claims: { ok: 'user.id', bad: 'user.id +' } },
    });
    expectError(created, 400, 'CUSTOM_CLAIMS_TEMPLATE_INVALID');
    expect(created.body.details).toMatchObject({ claim: 'bad', position: { offset: 9, line: 1, column: 10 } });

    const app = await createApplication(env.context, env.project, { name: 'Kept', type: 'public', redirect_uris: [redirectUri] });
    for (const customClaims of [
      { aud: '"everyone"' },
      { role: 'user.id' },
      { 'a.b': 'user.id' },
      { big: `"${'x'.repeat(1990)}"`, big2: `"${'x'.repeat(1990)}"`, big3: `"${'x'.repeat(1990)}"` },
    ]) {
      const changed = await env.context.request({
        method: 'PATCH',
        url: `/api/v1/internal/oauth-applications/${app.client_id}`,
        headers: env.project.headers.admin,
        payload: { custom_claims: customClaims },
      });
      expectError(changed, 400, 'CUSTOM_CLAIMS_TEMPLATE_INVALID');
    }
    const listed = await env.context.request({
      method: 'GET',
      url: '/api/v1/internal/oauth-applications',
      headers: env.project.headers.admin,
    });
    const names = (listed.body.items as Array<{ name: string; custom_claims: object }>).map((item) => [item.name, item.custom_claims]);
    expect(names).toContainEqual(['Kept', {}]);
    expect(names.map(([name]) => name)).not.toContain('Broken');
  });
});
