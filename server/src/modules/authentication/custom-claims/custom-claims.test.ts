import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * The project's custom claims (`auth.customClaims`, Gatehouse's own) in its own access tokens: refused at save time
 * when invalid (nothing saved), templated at sign-up and at every refresh, never failing a sign-in, never leaking into
 * another project.
 */
const env = withTestContext();
const password = 'correct horse battery staple';
const standardClaimNames = [
  'aud',
  'branch_id',
  'email',
  'email_verified',
  'exp',
  'iat',
  'is_anonymous',
  'is_restricted',
  'iss',
  'name',
  'project_id',
  'refresh_token_id',
  'requires_totp_mfa',
  'restricted_reason',
  'role',
  'selected_team_id',
  'signed_up_at',
  'sub',
].sort();

const newProject = () => env.context.createProject({ 'auth.password.allowSignIn': true });
const saveConfig = (project: TestProject, entries: Record<string, unknown>) =>
  env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/config/override/project',
    headers: project.headers.admin,
    payload: { config_override_string: JSON.stringify(entries) },
  });
const server = (project: TestProject, method: 'POST' | 'PATCH', url: string, payload: object = {}) =>
  env.context.request({ method, url: `/api/v1${url}`, headers: project.headers.server, payload });

async function signUp(project: TestProject) {
  const email = `claims-${randomUUID().slice(0, 8)}@example.com`;
  const answer = await env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-up',
    headers: project.headers.client,
    payload: { email, password },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { user_id: string; access_token: string; refresh_token: string };
}

async function refresh(project: TestProject, refreshToken: string): Promise<Record<string, unknown>> {
  const answer = await env.context.request({
    method: 'POST',
    url: '/api/v1/auth/sessions/current/refresh',
    headers: { ...project.headers.client, 'x-stack-refresh-token': refreshToken },
  });
  expect(answer.status, answer.text).toBe(200);
  return decodeJwt(answer.body.access_token as string);
}

describe('auth.customClaims in Gatehouse access tokens', () => {
  it('puts the templated claims in the token at sign-up and at refresh, from metadata, the selected team and permissions', async () => {
    const project = await newProject();
    const template = {
      plan: 'user.client_read_only_metadata.plan',
      tier: 'has(user.server_metadata.tier) ? user.server_metadata.tier : "free"',
      org: 'team == null ? null : dyn({"id": team.id, "name": team.display_name, "region": team.server_metadata.region})',
      'https:/acme/roles': 'permissions.filter(p, p.startsWith("reports_"))',
      can_export: '"reports_export" in permissions',
    };
    expect((await saveConfig(project, { 'auth.customClaims': template })).status).toBe(200);

    const session = await signUp(project);
    // Nothing in the user's metadata yet: `plan` fails and is left out, `org` is null and left out; the sign-up works.
    const atSignUp = decodeJwt(session.access_token);
    expect(atSignUp).toMatchObject({ sub: session.user_id, project_id: project.project.id, tier: 'free', can_export: false });
    expect(atSignUp['https:/acme/roles']).toEqual([]);
    expect(atSignUp).not.toHaveProperty('plan');
    expect(atSignUp).not.toHaveProperty('org');

    const userId = session.user_id;
    const team = await server(project, 'POST', '/teams', {
      display_name: 'Core',
      creator_user_id: userId,
      server_metadata: { region: 'eu' },
    });
    expect(team.status, team.text).toBe(201);
    for (const id of ['reports_read', 'reports_export', 'billing']) {
      const definition = await env.context.request({
        method: 'POST',
        url: '/api/v1/project-permission-definitions',
        headers: project.headers.admin,
        payload: { id, ...(id === 'reports_export' ? { contained_permission_ids: ['reports_read'] } : {}) },
      });
      expect(definition.status, definition.text).toBe(201);
    }
    for (const id of ['reports_export', 'billing'])
      expect((await server(project, 'POST', `/project-permissions/${userId}/${id}`)).status).toBe(201);
    const updated = await server(project, 'PATCH', `/users/${userId}`, {
      client_read_only_metadata: { plan: 'pro' },
      server_metadata: { tier: 3 },
      selected_team_id: team.body.id,
    });
    expect(updated.status, updated.text).toBe(200);

    const claims = await refresh(project, session.refresh_token);
    expect(claims).toMatchObject({
      sub: userId,
      plan: 'pro',
      tier: 3,
      org: { id: team.body.id, name: 'Core', region: 'eu' },
      // Inherited permissions count (reports_export contains reports_read).
      'https:/acme/roles': ['reports_export', 'reports_read'],
      can_export: true,
      selected_team_id: team.body.id,
      role: 'authenticated',
    });
    // The token still works as one of the project's access tokens.
    const me = await env.context.request({
      url: '/api/v1/users/me',
      headers: { ...project.headers.client, 'x-stack-access-token': (await signIn(project, updated.body.primary_email)).access_token },
    });
    expect(me.status, me.text).toBe(200);
  });

  it('leaves the claims out, and still issues the token, when together they exceed 4 KB', async () => {
    const project = await newProject();
    expect((await saveConfig(project, { 'auth.customClaims': { id_copy: 'user.id', notes: 'user.server_metadata.notes' } })).status).toBe(
      200,
    );
    const session = await signUp(project);
    expect(decodeJwt(session.access_token)).toMatchObject({ id_copy: session.user_id });
    await server(project, 'PATCH', `/users/${session.user_id}`, { server_metadata: { notes: 'n'.repeat(5000) } });
    const claims = await refresh(project, session.refresh_token);
    expect(Object.keys(claims).sort()).toEqual(standardClaimNames);
  });

  it("adds nothing, and asks for nothing, in a project without a template; another project's template never applies", async () => {
    const withTemplate = await newProject();
    expect((await saveConfig(withTemplate, { 'auth.customClaims': { marker: '"project-a"' } })).status).toBe(200);
    const other = await newProject();
    const evaluations = vi.spyOn(env.context.services.customClaims, 'claimsFor');
    try {
      const session = await signUp(other);
      expect(Object.keys(decodeJwt(session.access_token)).sort()).toEqual(standardClaimNames);
      expect(Object.keys(await refresh(other, session.refresh_token)).sort()).toEqual(standardClaimNames);
      expect(evaluations).not.toHaveBeenCalled();
      const inA = await signUp(withTemplate);
      expect(decodeJwt(inA.access_token).marker).toBe('project-a');
      expect(evaluations).toHaveBeenCalledTimes(1);
    } finally {
      evaluations.mockRestore();
    }
  });
});

async function signIn(project: TestProject, email: string) {
  const answer = await env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-in',
    headers: project.headers.client,
    payload: { email, password },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { access_token: string };
}

describe('saving auth.customClaims', () => {
  it('refuses an expression that does not parse, with the claim and position; nothing is saved', async () => {
    const project = await newProject();
    const answer = await saveConfig(project, { 'auth.customClaims': { plan: 'user.client_metadata.plan', bad: 'user.id ==\n  ' } });
    expectError(answer, 400, 'CUSTOM_CLAIMS_TEMPLATE_INVALID');
    expect(answer.body.details).toEqual({ claim: 'bad', message: expect.any(String), position: { offset: 13, line: 2, column: 3 } });
    expect(answer.body.error).toContain('line 2, column 3');
    expect((await env.context.services.projects.find(project.project.id))?.config.auth.customClaims).toBeUndefined();
  });

  it('refuses a reserved claim and a template over the size limit, through PUT as through PATCH', async () => {
    const project = await newProject();
    const replaced = await env.context.request({
      method: 'PUT',
      url: '/api/v1/internal/config/override/project',
      headers: project.headers.admin,
      payload: { config_string: JSON.stringify({ 'auth.password.allowSignIn': true, 'auth.customClaims': { sub: '"admin"' } }) },
    });
    expectError(replaced, 400, 'CUSTOM_CLAIMS_TEMPLATE_INVALID');
    expect(replaced.body.details).toMatchObject({ claim: 'sub', position: null });
    const tooBig = await saveConfig(project, { 'auth.customClaims': { big: `"${'x'.repeat(5000)}"` } });
    expectError(tooBig, 400, 'CUSTOM_CLAIMS_TEMPLATE_INVALID');
    expect(tooBig.body.details).toMatchObject({ claim: null, position: null });
    expect(tooBig.body.details.message).toContain('4096 bytes');
    const notAnObject = await saveConfig(project, { 'auth.customClaims': 'user.id' });
    expectError(notAnObject, 400, 'CUSTOM_CLAIMS_TEMPLATE_INVALID');
    expect((await env.context.services.projects.find(project.project.id))?.config.auth.customClaims).toBeUndefined();
  });
});
