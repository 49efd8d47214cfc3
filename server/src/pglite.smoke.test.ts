import { describe, expect, it } from 'vitest';
import { handleOf } from './db/handle.ts';
import { readSearchStatisticsAcrossProjects } from './modules/identity/users/user.repository.ts';
import type { UserWrite } from './modules/identity/users/user-writes.ts';
import { withTestContext } from '@gatehouse/testing/test-context';

/** The smoke subset on the embedded database: same migrations, same SQL, same answers. */
const env = withTestContext({ database: 'pglite', projectConfig: { 'auth.password.allowSignIn': true } });

describe('on PGlite', () => {
  it('migrates, stores a project and its hashed keys, and authenticates with them', async () => {
    expect(env.context.database.kind).toBe('pglite');
    const response = await env.context.request({ url: '/api/v1/projects/current', headers: env.project.headers.server });
    expect(response.status).toBe(200);
    expect(response.body.config.credential_enabled).toBe(true);
    const row = await env.context.database.db
      .selectFrom('api_key_set')
      .selectAll()
      .where('id', '=', env.project.keySet.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_server_key_hash).not.toContain(env.project.keys.secret_server_key);
    expect(row.secret_server_key_last_four).toBe(env.project.keys.secret_server_key.slice(-4));
  });

  it('refuses a revoked key and an unknown project', async () => {
    await env.context.services.apiKeys.revokeKeySet(env.project.project.id, env.project.keySet.id);
    expect((await env.context.request({ url: '/api/v1/projects/current', headers: env.project.headers.server })).body.code).toBe(
      'INVALID_SECRET_SERVER_KEY',
    );
    const unknown = { ...env.project.headers.client, 'x-stack-project-id': '00000000-0000-4000-8000-000000000000' };
    expect((await env.context.request({ url: '/api/v1/projects/current', headers: unknown })).body.code).toBe('CURRENT_PROJECT_NOT_FOUND');
  });

  it('serves the JWKS', async () => {
    const response = await env.context.request({ url: `/api/v1/projects/${env.project.project.id}/.well-known/jwks.json` });
    expect(response.body.keys).toHaveLength(1);
  });

  it('searches users by a substring of an email or display name with a scan (no pg_trgm, so no trigram probes)', async () => {
    const owner = await env.context.createProject();
    const create = (write: UserWrite) => env.context.services.users.create(owner.project, write, 'server');
    const wanted = [await create({ primary_email: 'srch-1234@example.com' }), await create({ display_name: 'Srch-1234 Named' })];
    await create({ primary_email: 'srch-123@example.com' });
    await create({ display_name: 'srch_1234' });
    expect(await readSearchStatisticsAcrossProjects(handleOf(env.context.database.db))).toEqual({
      email: undefined,
      displayName: undefined,
    });
    const response = await env.context.request({ url: '/api/v1/users?query=SRCH-1234', headers: owner.headers.server });
    expect(response.status, response.text).toBe(200);
    expect(response.body.items.map((item: { id: string }) => item.id).sort()).toEqual(wanted.map((user) => user.id).sort());
  });
});
