import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestProject } from './testing/test-context.ts';

/** The smoke subset on the embedded database: same migrations, same SQL, same answers. */
let context: TestContext;
let project: TestProject;
beforeAll(async () => {
  context = await createTestContext({ database: 'pglite' });
  project = await context.createProject({ 'auth.password.allowSignIn': true });
});
afterAll(() => context.close());

describe('on PGlite', () => {
  it('migrates, stores a project and its hashed keys, and authenticates with them', async () => {
    expect(context.database.kind).toBe('pglite');
    const response = await context.request({ url: '/api/v1/projects/current', headers: project.headers.server });
    expect(response.status).toBe(200);
    expect(response.body.config.credential_enabled).toBe(true);
    const row = await context.database.db
      .selectFrom('api_key_set')
      .selectAll()
      .where('id', '=', project.keySet.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_server_key_hash).not.toContain(project.keys.secret_server_key);
    expect(row.secret_server_key_last_four).toBe(project.keys.secret_server_key.slice(-4));
  });

  it('refuses a revoked key and an unknown project', async () => {
    await context.services.apiKeys.revokeKeySet(project.project.id, project.keySet.id);
    expect((await context.request({ url: '/api/v1/projects/current', headers: project.headers.server })).body.code).toBe(
      'INVALID_SECRET_SERVER_KEY',
    );
    const unknown = { ...project.headers.client, 'x-stack-project-id': '00000000-0000-4000-8000-000000000000' };
    expect((await context.request({ url: '/api/v1/projects/current', headers: unknown })).body.code).toBe('CURRENT_PROJECT_NOT_FOUND');
  });

  it('serves the JWKS', async () => {
    const response = await context.request({ url: `/api/v1/projects/${project.project.id}/.well-known/jwks.json` });
    expect(response.body.keys).toHaveLength(1);
  });
});
