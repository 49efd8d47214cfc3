import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { expectError } from '@gatehouse/testing/expect-response';

/**
 * Project key sets (docs/protocol/endpoints.md §25, docs/protocol/overview.md §3): listed by their last four characters, created with
 * full keys once, described and revoked; a revoked or expired set no longer authenticates.
 */
const env = withTestContext();

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

const inAnHour = () => Date.now() + 3_600_000;

/** One call authenticated by each key of a set: client, server and admin reads. */
const useKey = {
  publishable_client_key: (projectId: string, key: string) =>
    call('GET', '/projects/current', {
      'x-stack-access-type': 'client',
      'x-stack-project-id': projectId,
      'x-stack-publishable-client-key': key,
    }),
  secret_server_key: (projectId: string, key: string) =>
    call('GET', '/users', { 'x-stack-access-type': 'server', 'x-stack-project-id': projectId, 'x-stack-secret-server-key': key }),
  super_secret_admin_key: (projectId: string, key: string) =>
    call('GET', '/internal/api-keys', {
      'x-stack-access-type': 'admin',
      'x-stack-project-id': projectId,
      'x-stack-super-secret-admin-key': key,
    }),
};
const invalidCode = {
  publishable_client_key: 'INVALID_PUBLISHABLE_CLIENT_KEY',
  secret_server_key: 'INVALID_SECRET_SERVER_KEY',
  super_secret_admin_key: 'INVALID_SUPER_SECRET_ADMIN_KEY',
} as const;
type Kind = keyof typeof useKey;
const kinds = Object.keys(useKey) as Kind[];

const create = (project: TestProject, body: object) =>
  call('POST', '/internal/api-keys', project.headers.admin, { description: 'made', expires_at_millis: inAnHour(), ...body });

describe('POST /internal/api-keys', () => {
  it('returns full keys of the requested kinds only, each usable at once', async () => {
    const project = await env.context.createProject();
    const expiresAt = inAnHour();
    const created = await create(project, {
      description: 'CI keys',
      expires_at_millis: expiresAt,
      has_publishable_client_key: true,
      has_super_secret_admin_key: true,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      description: 'CI keys',
      expires_at_millis: expiresAt,
      created_at_millis: expect.any(Number),
      publishable_client_key: expect.stringMatching(/^pck_[a-z2-7]{45}$/),
      super_secret_admin_key: expect.stringMatching(/^sak_[a-z2-7]{45}$/),
    });
    expect(Math.abs(created.body.created_at_millis - Date.now())).toBeLessThan(60_000);
    expect((await useKey.publishable_client_key(project.project.id, created.body.publishable_client_key)).status).toBe(200);
    expect((await useKey.super_secret_admin_key(project.project.id, created.body.super_secret_admin_key)).status).toBe(200);

    const serverOnly = await create(project, { has_secret_server_key: true });
    expect(serverOnly.status, serverOnly.text).toBe(200);
    expect(Object.keys(serverOnly.body).sort()).toEqual([
      'created_at_millis',
      'description',
      'expires_at_millis',
      'id',
      'secret_server_key',
    ]);
    expect(serverOnly.body.secret_server_key).toMatch(/^ssk_/);
    const users = await useKey.secret_server_key(project.project.id, serverOnly.body.secret_server_key);
    expect(users.status, users.text).toBe(200);

    const none = await create(project, {});
    expect(Object.keys(none.body).sort()).toEqual(['created_at_millis', 'description', 'expires_at_millis', 'id']);
  });

  it('creates an already expired set whose keys do not authenticate', async () => {
    const project = await env.context.createProject();
    const expired = await create(project, {
      expires_at_millis: Date.now() - 1000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: true,
    });
    expect(expired.status, expired.text).toBe(200);
    for (const kind of kinds) {
      expectError(await useKey[kind](project.project.id, expired.body[kind]), 401, invalidCode[kind]);
    }
  });
});

describe('GET /internal/api-keys', () => {
  it('lists the sets newest first, each key only by its last four characters', async () => {
    const project = await env.context.createProject();
    const created = await create(project, { description: 'second', has_secret_server_key: true });
    const listed = await call('GET', '/internal/api-keys', project.headers.admin);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({
      items: [
        {
          id: created.body.id,
          description: 'second',
          expires_at_millis: created.body.expires_at_millis,
          created_at_millis: created.body.created_at_millis,
          secret_server_key: { last_four: created.body.secret_server_key.slice(-4) },
        },
        {
          id: project.keySet.id,
          description: 'test keys',
          expires_at_millis: project.keySet.expires_at.getTime(),
          created_at_millis: project.keySet.created_at.getTime(),
          publishable_client_key: { last_four: project.keys.publishable_client_key.slice(-4) },
          secret_server_key: { last_four: project.keys.secret_server_key.slice(-4) },
          super_secret_admin_key: { last_four: project.keys.super_secret_admin_key.slice(-4) },
        },
      ],
      is_paginated: false,
    });
    for (const key of [...Object.values(project.keys), created.body.secret_server_key]) {
      expect(listed.text).not.toContain(key);
      expect(listed.text).not.toContain(key.slice(4));
    }
  });

  it("shows only the calling project's sets", async () => {
    const one = await env.context.createProject();
    const other = await env.context.createProject();
    await create(other, { has_publishable_client_key: true });
    const listed = await call('GET', '/internal/api-keys', one.headers.admin);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([one.keySet.id]);
  });
});

describe('GET /internal/api-keys/{api_key_id}', () => {
  it("reads a set of the project, and answers API_KEY_NOT_FOUND for an unknown or another project's set", async () => {
    const project = await env.context.createProject();
    const other = await env.context.createProject();
    const read = await call('GET', `/internal/api-keys/${project.keySet.id}`, project.headers.admin);
    expect(read.status, read.text).toBe(200);
    const listed = await call('GET', '/internal/api-keys', project.headers.admin);
    expect(read.body).toEqual(listed.body.items[0]);
    expectError(await call('GET', `/internal/api-keys/${randomUUID()}`, project.headers.admin), 404, 'API_KEY_NOT_FOUND');
    expectError(await call('GET', `/internal/api-keys/${other.keySet.id}`, project.headers.admin), 404, 'API_KEY_NOT_FOUND');
  });
});

describe('PATCH /internal/api-keys/{api_key_id}', () => {
  it('changes the description and keeps the keys working', async () => {
    const project = await env.context.createProject();
    const patched = await call('PATCH', `/internal/api-keys/${project.keySet.id}`, project.headers.admin, { description: 'renamed' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id: project.keySet.id, description: 'renamed' });
    expect(patched.body.manually_revoked_at_millis).toBeUndefined();
    expect((await call('GET', `/internal/api-keys/${project.keySet.id}`, project.headers.admin)).body).toEqual(patched.body);
    for (const kind of kinds) expect((await useKey[kind](project.project.id, project.keys[kind])).status).toBe(200);
  });

  it('revokes a set: each of its keys is refused at once, the other sets keep working', async () => {
    const project = await env.context.createProject();
    const spare = await create(project, { has_super_secret_admin_key: true });
    const spareAdmin = {
      'x-stack-access-type': 'admin',
      'x-stack-project-id': project.project.id,
      'x-stack-super-secret-admin-key': spare.body.super_secret_admin_key,
    };
    for (const kind of kinds) expect((await useKey[kind](project.project.id, project.keys[kind])).status).toBe(200);
    const revoked = await call('PATCH', `/internal/api-keys/${project.keySet.id}`, project.headers.admin, { revoked: true });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ id: project.keySet.id, description: 'test keys', manually_revoked_at_millis: expect.any(Number) });
    expect(Math.abs(revoked.body.manually_revoked_at_millis - Date.now())).toBeLessThan(60_000);
    for (const kind of kinds) {
      expectError(await useKey[kind](project.project.id, project.keys[kind]), 401, invalidCode[kind]);
    }
    const read = await call('GET', `/internal/api-keys/${project.keySet.id}`, spareAdmin);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(revoked.body);
  });

  it("answers API_KEY_NOT_FOUND for an unknown or another project's set, and leaves that set alone", async () => {
    const project = await env.context.createProject();
    const other = await env.context.createProject();
    expectError(
      await call('PATCH', `/internal/api-keys/${randomUUID()}`, project.headers.admin, { description: 'x' }),
      404,
      'API_KEY_NOT_FOUND',
    );
    expectError(
      await call('PATCH', `/internal/api-keys/${other.keySet.id}`, project.headers.admin, { revoked: true }),
      404,
      'API_KEY_NOT_FOUND',
    );
    for (const kind of kinds) expect((await useKey[kind](other.project.id, other.keys[kind])).status).toBe(200);
  });
});
