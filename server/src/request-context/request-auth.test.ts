import { randomUUID } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../generated/route-table.ts';
import type { RouteDefinition } from '../routing/route-definition.ts';
import { expectPlain } from '@gatehouse/testing/expect-response';
import { ensureInternalProject } from '@gatehouse/testing/internal-project';
import { withTestContext, type TestProject } from '@gatehouse/testing/test-context';
import { accessTokenSubject } from '../modules/authentication/access-tokens/access-token-subject.ts';

/**
 * The header checks of docs/protocol/overview.md §2, in their order, on every operation that reads project
 * authentication: each answers exactly the catalogued error of the first failing check.
 */
const env = withTestContext();
let other: TestProject;
let keyless: TestProject;
const tokens = {} as Record<
  | 'normal'
  | 'anonymous'
  | 'restricted'
  | 'expired'
  | 'deleted'
  | 'foreign'
  | 'internalExpired'
  | 'internal'
  | 'internalGone'
  | 'notInternal',
  string
>;

beforeAll(async () => {
  const { context, project } = env;
  other = await context.createProject();
  keyless = await context.createProject({ 'project.requirePublishableClientKey': true });
  const users = context.services.users;
  const signIn = (user: Awaited<ReturnType<typeof users.create>>, projectRef = project.project) =>
    context.services.signIn.signIn(projectRef, user);
  const normal = await users.create(project.project, { primary_email: 'normal@example.com' }, 'server');
  tokens.normal = (await signIn(normal)).access_token;
  tokens.anonymous = (await signIn(await users.create(project.project, { is_anonymous: true }, 'anonymous'))).access_token;
  tokens.restricted = (
    await signIn(await users.create(project.project, { restricted_by_admin: true, restricted_by_admin_reason: 'test' }, 'server'))
  ).access_token;
  tokens.expired = await context.services.accessTokens.sign(accessTokenSubject(project.project, normal, randomUUID()), {
    now: Date.now() - 3_600_000,
  });
  const doomed = await users.create(project.project, {}, 'server');
  tokens.deleted = (await signIn(doomed)).access_token;
  await users.delete(project.project, doomed.id);
  const foreignUser = await users.create(other.project, {}, 'server');
  tokens.foreign = (await signIn(foreignUser, other.project)).access_token;
  const { project: internal } = await ensureInternalProject(context, {});
  const internalUser = await users.create(internal, { display_name: 'Dashboard user' }, 'server');
  tokens.internal = (await signIn(internalUser, internal)).access_token;
  // A valid token of the internal project whose user does not exist (deleted since).
  const goneSubject = { ...accessTokenSubject(project.project, normal, randomUUID()), project_id: 'internal' };
  tokens.internalGone = await context.services.accessTokens.sign(goneSubject);
  tokens.internalExpired = await context.services.accessTokens.sign(goneSubject, { now: Date.now() - 3_600_000 });
  tokens.notInternal = tokens.normal;
});

const authenticated = (routeTable as readonly RouteDefinition[]).filter((route) => route.auth !== 'none');

describe.each(authenticated.map((route) => ({ route, name: `${route.method} ${route.url}` })))('$name', ({ route }) => {
  const params = (route.schema.params as { properties?: Record<string, { pattern?: string }> } | undefined)?.properties ?? {};
  const url = () =>
    route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => (params[name]?.pattern?.includes('me|') ? 'me' : randomUUID()));
  const expectError = async (headers: Record<string, string>, status: number, code: string) => {
    const response = await env.context.request({ method: route.method, url: url(), headers });
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.code).toBe(code);
    return response;
  };
  const project = () => env.project;
  const allowedType = () => (route.accessTypes.includes('client') ? 'client' : route.accessTypes.includes('server') ? 'server' : 'admin');
  const valid = () => project().headers[route.auth === 'optional' ? 'server' : allowedType()];

  it('1-4. malformed headers: key without access type, unknown access type, no project id', async () => {
    await expectError(
      { 'x-stack-project-id': project().project.id, 'x-stack-secret-server-key': project().keys.secret_server_key },
      400,
      'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
    );
    await expectError({ 'x-stack-admin-access-token': 'whatever' }, 400, 'PROJECT_KEY_WITHOUT_ACCESS_TYPE');
    await expectError({ 'x-stack-access-type': 'superuser' }, 400, 'INVALID_ACCESS_TYPE');
    const response = await expectError({ 'x-stack-access-type': 'server' }, 400, 'ACCESS_TYPE_WITHOUT_PROJECT_ID');
    expect(response.body.details).toEqual({ request_type: 'server' });
    if (route.auth === 'required') await expectError({}, 400, 'ACCESS_TYPE_REQUIRED');
  });

  it('5. access-token problems, before the project lookup', async () => {
    await expectError({ ...valid(), 'x-stack-access-token': 'not-a-jwt' }, 401, 'UNPARSABLE_ACCESS_TOKEN');
    const foreign = await expectError(
      { ...valid(), 'x-stack-project-id': randomUUID(), 'x-stack-access-token': tokens.foreign },
      401,
      'INVALID_PROJECT_FOR_ACCESS_TOKEN',
    );
    expect(foreign.body.details.actual_project_id).toBe(other.project.id);
    const expired = await expectError({ ...valid(), 'x-stack-access-token': tokens.expired }, 401, 'ACCESS_TOKEN_EXPIRED');
    expect(expired.body.details.project_id).toBe(project().project.id);
    await expectError({ ...valid(), 'x-stack-access-token': tokens.anonymous }, 401, 'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED');
    const restricted = await expectError({ ...valid(), 'x-stack-access-token': tokens.restricted }, 403, 'RESTRICTED_USER_NOT_ALLOWED');
    expect(restricted.body.details).toEqual({ restricted_reason: { type: 'restricted_by_administrator' } });
    // A deleted user's token stops working at once.
    await expectError({ ...valid(), 'x-stack-access-token': tokens.deleted }, 401, 'UNPARSABLE_ACCESS_TOKEN');
  });

  it('5. a forged or unsigned token is UNPARSABLE_ACCESS_TOKEN', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: randomUUID(), project_id: project().project.id })
      .setProtectedHeader({ alg: 'ES256', kid: 'forged' })
      .setAudience(project().project.id)
      .setExpirationTime('5m')
      .sign(privateKey);
    await expectError({ ...valid(), 'x-stack-access-token': forged }, 401, 'UNPARSABLE_ACCESS_TOKEN');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ aud: project().project.id })).toString('base64url')}.`;
    await expectError({ ...valid(), 'x-stack-access-token': unsigned }, 401, 'UNPARSABLE_ACCESS_TOKEN');
  });

  it('6. an unknown or malformed project id is CURRENT_PROJECT_NOT_FOUND, before the keys', async () => {
    const unknown = randomUUID();
    const response = await expectError({ ...project().headers.server, 'x-stack-project-id': unknown }, 400, 'CURRENT_PROJECT_NOT_FOUND');
    expect(response.body.details).toEqual({ project_id: unknown });
    await expectError(
      { ...project().headers.server, 'x-stack-project-id': 'not-a-project; drop table project' },
      400,
      'CURRENT_PROJECT_NOT_FOUND',
    );
  });

  it('7. keys: missing, wrong, of another project, revoked', async () => {
    const { headers, project: current } = project();
    const client = await expectError(
      { ...headers.client, 'x-stack-publishable-client-key': 'pck_wrong' },
      401,
      'INVALID_PUBLISHABLE_CLIENT_KEY',
    );
    expect(client.body.details).toEqual({ project_id: current.id });
    await expectError(
      { ...headers.client, 'x-stack-publishable-client-key': other.keys.publishable_client_key },
      401,
      'INVALID_PUBLISHABLE_CLIENT_KEY',
    );
    await expectError(
      { 'x-stack-access-type': 'client', 'x-stack-project-id': keyless.project.id },
      401,
      'PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT',
    );
    await expectError({ 'x-stack-access-type': 'server', 'x-stack-project-id': current.id }, 401, 'SERVER_AUTHENTICATION_REQUIRED');
    await expectError({ ...headers.server, 'x-stack-secret-server-key': other.keys.secret_server_key }, 401, 'INVALID_SECRET_SERVER_KEY');
    await expectError({ 'x-stack-access-type': 'admin', 'x-stack-project-id': current.id }, 401, 'ADMIN_AUTHENTICATION_REQUIRED');
    await expectError({ ...headers.admin, 'x-stack-super-secret-admin-key': 'sak_wrong' }, 401, 'INVALID_SUPER_SECRET_ADMIN_KEY');
  });

  it('7. an admin access token replaces the keys and must be a current token of the internal project', async () => {
    const admin = { 'x-stack-access-type': 'admin', 'x-stack-project-id': project().project.id };
    await expectError({ ...admin, 'x-stack-admin-access-token': 'garbage' }, 401, 'UNPARSABLE_ADMIN_ACCESS_TOKEN');
    await expectError({ ...admin, 'x-stack-admin-access-token': tokens.internalExpired }, 401, 'ADMIN_ACCESS_TOKEN_EXPIRED');
    await expectError({ ...admin, 'x-stack-admin-access-token': tokens.notInternal }, 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    // An internal user who does not manage the project (no owner team yet) is refused too.
    await expectError({ ...admin, 'x-stack-admin-access-token': tokens.internal }, 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    // A deleted internal user's token: the plain-text 401 of docs/protocol/overview.md §4.
    const gone = await env.context.request({
      method: route.method,
      url: url(),
      headers: { ...admin, 'x-stack-admin-access-token': tokens.internalGone },
    });
    expectPlain(gone, 401);
  });

  it('8. a branch other than main is BRANCH_DOES_NOT_EXIST, after the keys', async () => {
    const response = await expectError({ ...valid(), 'x-stack-branch-id': 'dev' }, 400, 'BRANCH_DOES_NOT_EXIST');
    expect(response.body.details).toEqual({ branch_id: 'dev' });
  });

  it.runIf(route.auth === 'required' && route.accessTypes.length < 3)('a disallowed access type is INSUFFICIENT_ACCESS_TYPE', async () => {
    const disallowed = (['client', 'server', 'admin'] as const).find((type) => !route.accessTypes.includes(type)) as
      | 'client'
      | 'server'
      | 'admin';
    const response = await expectError(project().headers[disallowed], 401, 'INSUFFICIENT_ACCESS_TYPE');
    expect(response.body.details).toEqual({ actual_access_type: disallowed, allowed_access_types: route.accessTypes });
  });

  it.runIf(route.user !== 'optional')('no signed-in user is the catalogued user error', async () => {
    await expectError(
      valid(),
      route.user === 'me' ? 400 : 401,
      route.user === 'me' ? 'CANNOT_GET_OWN_USER_WITHOUT_USER' : 'USER_AUTHENTICATION_REQUIRED',
    );
  });
});

describe('authentication that succeeds', () => {
  const current = (headers: Record<string, string>) => env.context.request({ url: '/api/v1/projects/current', headers });

  it('every access type with valid credentials, and a client without a key where none is required', async () => {
    for (const type of ['client', 'server', 'admin'] as const) expect((await current(env.project.headers[type])).status).toBe(200);
    expect((await current({ 'x-stack-access-type': 'client', 'x-stack-project-id': env.project.project.id })).status).toBe(200);
  });

  it('anonymous and restricted users with the allow headers', async () => {
    const anonymous = await current({
      ...env.project.headers.client,
      'x-stack-access-token': tokens.anonymous,
      'x-stack-allow-anonymous-user': 'true',
    });
    expect(anonymous.status).toBe(200);
    const restricted = await current({
      ...env.project.headers.client,
      'x-stack-access-token': tokens.restricted,
      'x-stack-allow-restricted-user': 'true',
    });
    expect(restricted.status).toBe(200);
  });

  it('the x-hexclave-* spelling, preferred when both spellings differ', async () => {
    const hexclave = Object.fromEntries(
      Object.entries(env.project.headers.server).map(([name, value]) => [name.replace('x-stack-', 'x-hexclave-'), value]),
    );
    expect((await current(hexclave)).status).toBe(200);
    expect((await current({ ...env.project.headers.server, 'x-hexclave-secret-server-key': 'ssk_wrong' })).body.code).toBe(
      'INVALID_SECRET_SERVER_KEY',
    );
  });

  it('a revoked or expired key set is refused for every key it holds', async () => {
    const victim = await env.context.createProject();
    await env.context.services.apiKeys.revokeKeySet(victim.project.id, victim.keySet.id);
    expect((await current(victim.headers.client)).body.code).toBe('INVALID_PUBLISHABLE_CLIENT_KEY');
    expect((await current(victim.headers.server)).body.code).toBe('INVALID_SECRET_SERVER_KEY');
    expect((await current(victim.headers.admin)).body.code).toBe('INVALID_SUPER_SECRET_ADMIN_KEY');
    const { keys } = await env.context.services.apiKeys.createKeySet({
      projectId: victim.project.id,
      description: 'already expired',
      expiresAt: new Date(Date.now() - 1000),
      keys: { secret_server_key: true },
    });
    expect((await current({ ...victim.headers.server, 'x-stack-secret-server-key': keys.secret_server_key as string })).body.code).toBe(
      'INVALID_SECRET_SERVER_KEY',
    );
  });

  it('GET / describes the authentication it saw', async () => {
    expect((await env.context.request({ url: '/api/v1/' })).body).toContain('Authentication: none');
    const root = await env.context.request({
      url: '/api/v1/',
      headers: { ...env.project.headers.client, 'x-stack-access-token': tokens.normal },
    });
    expect(root.body).toMatch(new RegExp(`client access to project ${env.project.project.id}, user [0-9a-f-]{36}`));
  });
});
