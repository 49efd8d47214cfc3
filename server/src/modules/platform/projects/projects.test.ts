import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestProject, tokenSubject } from '@gatehouse/testing/test-context';

let context: TestContext;
let project: TestProject;

beforeAll(async () => {
  context = await createTestContext();
  project = await context.createProject({
    'auth.password.allowSignIn': true,
    'domains.allowLocalhost': true,
    'apiKeys.enabled.user': true,
    'auth.oauth.providers': {
      github: { type: 'github', isShared: true, allowSignIn: true },
      google: { type: 'google', isShared: true, allowSignIn: false },
    },
    'domains.trustedDomains': { main: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
  });
});
afterAll(() => context.close());

describe('GET /projects/current', () => {
  it('returns the client view of the project with its rendered config and defaults', async () => {
    const response = await context.request({ url: '/api/v1/projects/current', headers: project.headers.client });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: project.project.id,
      display_name: 'Test project',
      config: {
        sign_up_enabled: true,
        credential_enabled: true,
        magic_link_enabled: false,
        passkey_enabled: false,
        client_team_creation_enabled: false,
        client_user_deletion_enabled: false,
        allow_localhost: true,
        allow_user_api_keys: true,
        allow_team_api_keys: false,
        enabled_oauth_providers: [{ id: 'github' }],
        domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }],
      },
    });
  });

  it('sees a config change at once on this instance', async () => {
    const changing = await context.createProject();
    const before = await context.request({ url: '/api/v1/projects/current', headers: changing.headers.client });
    expect(before.body.config.sign_up_enabled).toBe(true);
    await context.services.projects.replaceConfigOverride(changing.project.id, { 'auth.allowSignUp': false });
    const after = await context.request({ url: '/api/v1/projects/current', headers: changing.headers.client });
    expect(after.body.config.sign_up_enabled).toBe(false);
  });

  it('rejects unknown query fields with SCHEMA_ERROR', async () => {
    const response = await context.request({ url: '/api/v1/projects/current?expand=everything', headers: project.headers.client });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('SCHEMA_ERROR');
    expect(response.body.details.message).toContain('unknown field "expand"');
  });
});

describe('GET /projects/{project_id}/.well-known/jwks.json', () => {
  const jwksUrl = (id: string, query = '') => `/api/v1/projects/${id}/.well-known/jwks.json${query}`;

  it('lists the normal key by default, publicly cacheable for an hour', async () => {
    const response = await context.request({ url: jwksUrl(project.project.id) });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.body.keys).toHaveLength(1);
    expect(response.body.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256', crv: 'P-256' });
  });

  it('adds restricted keys, and anonymous keys (which imply restricted)', async () => {
    const restricted = await context.request({ url: jwksUrl(project.project.id, '?include_restricted=true') });
    expect(restricted.body.keys).toHaveLength(2);
    const anonymous = await context.request({ url: jwksUrl(project.project.id, '?include_anonymous=true&include_restricted=false') });
    expect(anonymous.body.keys).toHaveLength(3);
    expect(new Set(anonymous.body.keys.map((key: { kid: string }) => key.kid)).size).toBe(3);
  });

  it('verifies the tokens the server signs, for each audience, and no other project’s', async () => {
    const { body } = await context.request({ url: jwksUrl(project.project.id, '?include_anonymous=true') });
    const jwks = createLocalJWKSet(body);
    const normal = await context.services.accessTokens.sign(tokenSubject(project.project.id));
    const { payload, protectedHeader } = await jwtVerify(normal, jwks, {
      audience: project.project.id,
      issuer: `http://localhost:8102/api/v1/projects/${project.project.id}`,
    });
    expect(protectedHeader.alg).toBe('ES256');
    for (const claim of [
      'sub',
      'iat',
      'exp',
      'iss',
      'aud',
      'project_id',
      'branch_id',
      'refresh_token_id',
      'role',
      'name',
      'email',
      'email_verified',
      'selected_team_id',
      'signed_up_at',
      'is_anonymous',
      'is_restricted',
      'restricted_reason',
      'requires_totp_mfa',
    ]) {
      expect(payload, claim).toHaveProperty(claim);
    }
    expect((payload.exp as number) - (payload.iat as number)).toBe(600);
    const anonymous = await context.services.accessTokens.sign(
      tokenSubject(project.project.id, { is_anonymous: true, is_restricted: true, restricted_reason: { type: 'anonymous' } }),
    );
    const anonymousResult = await jwtVerify(anonymous, jwks, { audience: `${project.project.id}:anon` });
    expect(anonymousResult.payload.iss).toBe(`http://localhost:8102/api/v1/projects-anonymous-users/${project.project.id}`);

    const other = await context.createProject();
    const foreign = await context.services.accessTokens.sign(tokenSubject(other.project.id));
    await expect(jwtVerify(foreign, jwks)).rejects.toThrow();
  });

  it('answers PROJECT_NOT_FOUND for an unknown or malformed project', async () => {
    const unknown = await context.request({ url: jwksUrl(randomUUID()) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PROJECT_NOT_FOUND');
    expect((await context.request({ url: jwksUrl('nope') })).body.code).toBe('PROJECT_NOT_FOUND');
  });

  it('rejects a bad flag value, an unknown query field and an over-long project id with SCHEMA_ERROR', async () => {
    for (const url of [
      jwksUrl(project.project.id, '?include_anonymous=yes'),
      jwksUrl(project.project.id, '?kid=1'),
      jwksUrl('a'.repeat(65)),
    ]) {
      const response = await context.request({ url });
      expect(response.status, url).toBe(400);
      expect(response.body.code).toBe('SCHEMA_ERROR');
    }
  });

  it('redirects the legacy anonymous-users location', async () => {
    const response = await context.request({ url: `/api/v1/projects-anonymous-users/${project.project.id}/.well-known/jwks.json` });
    expect(response.status).toBe(307);
    expect(response.headers.location).toBe(`/api/v1/projects/${project.project.id}/.well-known/jwks.json?include_anonymous=true`);
    const bad = await context.request({ url: `/api/v1/projects-anonymous-users/${'b'.repeat(65)}/.well-known/jwks.json` });
    expect(bad.body.code).toBe('SCHEMA_ERROR');
  });
});
