import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestProject, tokenSubject } from '../../testing/test-context.ts';

let context: TestContext;
let project: TestProject;
let other: TestProject;
let keyless: TestProject;

beforeAll(async () => {
  context = await createTestContext();
  project = await context.createProject();
  other = await context.createProject();
  keyless = await context.createProject({ 'project.requirePublishableClientKey': true });
});
afterAll(() => context.close());

const endpoints = [
  { name: 'GET /projects/current', url: '/api/v1/projects/current' },
  { name: 'GET / (optional auth)', url: '/api/v1/' },
];

const expectError = async (url: string, headers: Record<string, string>, status: number, code: string) => {
  const response = await context.request({ url, headers });
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
  return response;
};

describe.each(endpoints)('header checks on $name, in the order of protocol README §2', ({ url }) => {
  it('1. a key or admin token without an access type is PROJECT_KEY_WITHOUT_ACCESS_TYPE', async () => {
    await expectError(
      url,
      { 'x-stack-project-id': project.project.id, 'x-stack-secret-server-key': project.keys.secret_server_key },
      400,
      'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
    );
    await expectError(url, { 'x-stack-admin-access-token': 'whatever' }, 400, 'PROJECT_KEY_WITHOUT_ACCESS_TYPE');
  });

  it('3. an access type other than client/server/admin is INVALID_ACCESS_TYPE, before the missing project id', async () => {
    await expectError(url, { 'x-stack-access-type': 'superuser' }, 400, 'INVALID_ACCESS_TYPE');
  });

  it('4. an access type without a project id is ACCESS_TYPE_WITHOUT_PROJECT_ID with the request type', async () => {
    const response = await expectError(url, { 'x-stack-access-type': 'server' }, 400, 'ACCESS_TYPE_WITHOUT_PROJECT_ID');
    expect(response.body.details).toEqual({ request_type: 'server' });
  });

  it('5. user access token problems come before the project lookup', async () => {
    const unknownProject = randomUUID();
    await expectError(url, { ...project.headers.client, 'x-stack-access-token': 'not-a-jwt' }, 401, 'UNPARSABLE_ACCESS_TOKEN');
    const foreign = await context.services.accessTokens.sign(tokenSubject(other.project.id));
    const response = await expectError(
      url,
      { 'x-stack-access-type': 'client', 'x-stack-project-id': unknownProject, 'x-stack-access-token': foreign },
      401,
      'INVALID_PROJECT_FOR_ACCESS_TOKEN',
    );
    expect(response.body.details).toEqual({ expected_project_id: unknownProject, actual_project_id: other.project.id });
  });

  it('5. an expired access token is ACCESS_TOKEN_EXPIRED with the token facts', async () => {
    const subject = tokenSubject(project.project.id);
    const token = await context.services.accessTokens.sign(subject, { now: Date.now() - 3_600_000 });
    const response = await expectError(url, { ...project.headers.client, 'x-stack-access-token': token }, 401, 'ACCESS_TOKEN_EXPIRED');
    expect(response.body.details).toMatchObject({
      project_id: project.project.id,
      user_id: subject.sub,
      refresh_token_id: subject.refresh_token_id,
    });
    expect(response.body.details.expired_at_millis).toBeLessThan(Date.now());
  });

  it('5. a token signed with another key, or unsigned, is UNPARSABLE_ACCESS_TOKEN', async () => {
    const { generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ ...tokenSubject(project.project.id), role: 'authenticated', branch_id: 'main' })
      .setProtectedHeader({ alg: 'ES256', kid: 'forged' })
      .setAudience(project.project.id)
      .setExpirationTime('5m')
      .sign(privateKey);
    await expectError(url, { ...project.headers.client, 'x-stack-access-token': forged }, 401, 'UNPARSABLE_ACCESS_TOKEN');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ aud: project.project.id, sub: 'x' })).toString('base64url')}.`;
    await expectError(url, { ...project.headers.client, 'x-stack-access-token': unsigned }, 401, 'UNPARSABLE_ACCESS_TOKEN');
  });

  it('5. anonymous and restricted users need the allow headers', async () => {
    const anonymous = await context.services.accessTokens.sign(
      tokenSubject(project.project.id, { is_anonymous: true, is_restricted: true, restricted_reason: { type: 'anonymous' }, email: null }),
    );
    await expectError(url, { ...project.headers.client, 'x-stack-access-token': anonymous }, 401, 'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED');
    const allowed = await context.request({
      url,
      headers: { ...project.headers.client, 'x-stack-access-token': anonymous, 'x-stack-allow-anonymous-user': 'true' },
    });
    expect(allowed.status).toBe(200);

    const restricted = await context.services.accessTokens.sign(
      tokenSubject(project.project.id, { is_restricted: true, restricted_reason: { type: 'email_not_verified' }, email_verified: false }),
    );
    const refused = await expectError(
      url,
      { ...project.headers.client, 'x-stack-access-token': restricted },
      403,
      'RESTRICTED_USER_NOT_ALLOWED',
    );
    expect(refused.body.details).toEqual({ restricted_reason: { type: 'email_not_verified' } });
    const restrictedAllowed = await context.request({
      url,
      headers: { ...project.headers.client, 'x-stack-access-token': restricted, 'x-stack-allow-restricted-user': 'true' },
    });
    expect(restrictedAllowed.status).toBe(200);
  });

  it('6. an unknown or malformed project id is CURRENT_PROJECT_NOT_FOUND, before the key checks', async () => {
    const unknown = randomUUID();
    const response = await expectError(url, { ...project.headers.server, 'x-stack-project-id': unknown }, 400, 'CURRENT_PROJECT_NOT_FOUND');
    expect(response.body.details).toEqual({ project_id: unknown });
    await expectError(
      url,
      { ...project.headers.client, 'x-stack-project-id': 'not-a-project; drop table project' },
      400,
      'CURRENT_PROJECT_NOT_FOUND',
    );
    await expectError(url, { ...project.headers.client, 'x-stack-project-id': 'x'.repeat(4000) }, 400, 'CURRENT_PROJECT_NOT_FOUND');
  });

  it('7. client keys: wrong, of another project, or missing where required', async () => {
    const wrong = await expectError(
      url,
      { ...project.headers.client, 'x-stack-publishable-client-key': 'pck_wrong' },
      401,
      'INVALID_PUBLISHABLE_CLIENT_KEY',
    );
    expect(wrong.body.details).toEqual({ project_id: project.project.id });
    await expectError(
      url,
      { ...project.headers.client, 'x-stack-publishable-client-key': other.keys.publishable_client_key },
      401,
      'INVALID_PUBLISHABLE_CLIENT_KEY',
    );
    await expectError(
      url,
      { ...project.headers.client, 'x-stack-publishable-client-key': project.keys.secret_server_key },
      401,
      'INVALID_PUBLISHABLE_CLIENT_KEY',
    );
    const required = await expectError(
      url,
      { 'x-stack-access-type': 'client', 'x-stack-project-id': keyless.project.id },
      401,
      'PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT',
    );
    expect(required.body.details).toEqual({ project_id: keyless.project.id });
  });

  it('7. server keys: missing, wrong, or of another project', async () => {
    await expectError(
      url,
      { 'x-stack-access-type': 'server', 'x-stack-project-id': project.project.id },
      401,
      'SERVER_AUTHENTICATION_REQUIRED',
    );
    await expectError(url, { ...project.headers.server, 'x-stack-secret-server-key': 'ssk_wrong' }, 401, 'INVALID_SECRET_SERVER_KEY');
    await expectError(
      url,
      { ...project.headers.server, 'x-stack-secret-server-key': other.keys.secret_server_key },
      401,
      'INVALID_SECRET_SERVER_KEY',
    );
  });

  it('7. admin keys: missing, wrong, or of another project', async () => {
    await expectError(
      url,
      { 'x-stack-access-type': 'admin', 'x-stack-project-id': project.project.id },
      401,
      'ADMIN_AUTHENTICATION_REQUIRED',
    );
    await expectError(
      url,
      { ...project.headers.admin, 'x-stack-super-secret-admin-key': 'sak_wrong' },
      401,
      'INVALID_SUPER_SECRET_ADMIN_KEY',
    );
    await expectError(
      url,
      { ...project.headers.admin, 'x-stack-super-secret-admin-key': other.keys.super_secret_admin_key },
      401,
      'INVALID_SUPER_SECRET_ADMIN_KEY',
    );
  });

  it('7. an admin access token replaces the keys and is checked like a token of the internal project', async () => {
    const adminHeaders = { 'x-stack-access-type': 'admin', 'x-stack-project-id': project.project.id };
    await expectError(url, { ...adminHeaders, 'x-stack-admin-access-token': 'garbage' }, 401, 'UNPARSABLE_ADMIN_ACCESS_TOKEN');
    const expired = await context.services.accessTokens.sign(tokenSubject('internal'), { now: Date.now() - 3_600_000 });
    const expiredResponse = await expectError(
      url,
      { ...adminHeaders, 'x-stack-admin-access-token': expired },
      401,
      'ADMIN_ACCESS_TOKEN_EXPIRED',
    );
    expect(expiredResponse.body.details.expired_at_millis).toBeLessThan(Date.now());
    const notInternal = await context.services.accessTokens.sign(tokenSubject(project.project.id));
    await expectError(url, { ...adminHeaders, 'x-stack-admin-access-token': notInternal }, 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    // An internal user who does not manage the project (no owner team yet) is refused too.
    const internalUser = await context.services.accessTokens.sign(tokenSubject('internal'));
    await expectError(url, { ...adminHeaders, 'x-stack-admin-access-token': internalUser }, 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
  });

  it('7. a revoked or expired key set is refused for every key it holds', async () => {
    const victim = await context.createProject();
    await context.services.apiKeys.revokeKeySet(victim.project.id, victim.keySet.id);
    await expectError(url, victim.headers.client, 401, 'INVALID_PUBLISHABLE_CLIENT_KEY');
    await expectError(url, victim.headers.server, 401, 'INVALID_SECRET_SERVER_KEY');
    await expectError(url, victim.headers.admin, 401, 'INVALID_SUPER_SECRET_ADMIN_KEY');

    const { keys } = await context.services.apiKeys.createKeySet({
      projectId: victim.project.id,
      description: 'already expired',
      expiresAt: new Date(Date.now() - 1000),
      keys: { secret_server_key: true },
    });
    await expectError(
      url,
      { ...victim.headers.server, 'x-stack-secret-server-key': keys.secret_server_key as string },
      401,
      'INVALID_SECRET_SERVER_KEY',
    );
  });

  it('8. a branch other than main is BRANCH_DOES_NOT_EXIST, after the key checks', async () => {
    const response = await expectError(url, { ...project.headers.server, 'x-stack-branch-id': 'dev' }, 400, 'BRANCH_DOES_NOT_EXIST');
    expect(response.body.details).toEqual({ branch_id: 'dev' });
    await expectError(
      url,
      { ...project.headers.server, 'x-stack-branch-id': 'dev', 'x-stack-secret-server-key': 'ssk_wrong' },
      401,
      'INVALID_SECRET_SERVER_KEY',
    );
    const main = await context.request({ url, headers: { ...project.headers.server, 'x-stack-branch-id': 'main' } });
    expect(main.status).toBe(200);
  });

  it('accepts the x-hexclave-* spelling, and prefers it when both spellings differ', async () => {
    const hexclave = Object.fromEntries(
      Object.entries(project.headers.server).map(([name, value]) => [name.replace('x-stack-', 'x-hexclave-'), value]),
    );
    expect((await context.request({ url, headers: hexclave })).status).toBe(200);
    const both = { ...project.headers.server, 'x-hexclave-secret-server-key': 'ssk_wrong' };
    await expectError(url, both, 401, 'INVALID_SECRET_SERVER_KEY');
  });
});

describe('access type requirements', () => {
  it('GET /projects/current needs an access type; GET / does not', async () => {
    await expectError('/api/v1/projects/current', {}, 400, 'ACCESS_TYPE_REQUIRED');
    const root = await context.request({ url: '/api/v1/' });
    expect(root.status).toBe(200);
    expect(root.body).toContain('Authentication: none');
  });

  it('every access type with valid credentials reaches GET /projects/current', async () => {
    for (const headers of [project.headers.client, project.headers.server, project.headers.admin]) {
      const response = await context.request({ url: '/api/v1/projects/current', headers });
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(project.project.id);
    }
    const noKey = await context.request({
      url: '/api/v1/projects/current',
      headers: { 'x-stack-access-type': 'client', 'x-stack-project-id': project.project.id },
    });
    expect(noKey.status).toBe(200);
  });

  it('GET / describes the authentication it saw', async () => {
    const token = await context.services.accessTokens.sign(
      tokenSubject(project.project.id, { sub: '11111111-2222-4333-8444-555555555555' }),
    );
    const root = await context.request({ url: '/api/v1/', headers: { ...project.headers.client, 'x-stack-access-token': token } });
    expect(root.body).toContain(`client access to project ${project.project.id}, user 11111111-2222-4333-8444-555555555555`);
  });
});
