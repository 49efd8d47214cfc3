import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../db/create-database.ts';
import { type Migrations, migrateToLatest } from '../../../db/migrate.ts';
import { migrations } from '../../../services.ts';
import { withTestContext } from '@gatehouse/testing/test-context';

/** Anonymous accounts are off for a new project until its owner turns them on; older projects keep them. */
const env = withTestContext();

const anonymousSignUp = (headers: Record<string, string>) =>
  env.context.request({ method: 'POST', url: '/api/v1/auth/anonymous/sign-up', headers, payload: {} });

describe('anonymous accounts by default', () => {
  it('are off for a new project (ANONYMOUS_ACCOUNTS_NOT_ENABLED) until the owner turns them on', async () => {
    const project = await env.context.createProject();
    const refused = await anonymousSignUp(project.headers.client);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('ANONYMOUS_ACCOUNTS_NOT_ENABLED');
    const on = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/config/override/project',
      headers: project.headers.admin,
      payload: { config_override_string: JSON.stringify({ 'auth.allowAnonymousSignUp': true }) },
    });
    expect(on.status).toBe(200);
    const accepted = await anonymousSignUp(project.headers.client);
    expect(accepted.status).toBe(200);
    expect(accepted.body.refresh_token).toEqual(expect.any(String));
  });

  it('stay on for projects created before the default changed (migration 0065), unless their override says otherwise', {
    timeout: 120_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-anonymous-default-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = await createDatabase({ dataDir });
    try {
      const before: Migrations = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0065'));
      await migrateToLatest(database.db, before);
      const overrides: Record<string, object> = {
        plain: {},
        dotted_off: { 'auth.allowAnonymousSignUp': false },
        nested_off: { auth: { allowAnonymousSignUp: false } },
        other_auth: { auth: { allowSignUp: false } },
      };
      for (const [id, override] of Object.entries(overrides)) {
        await sql`insert into project (id, display_name, config_override) values (${id}, ${id}, ${JSON.stringify(override)}::jsonb)`.execute(
          database.db,
        );
      }
      await migrateToLatest(database.db, migrations);
      const { rows } = await sql<{
        id: string;
        config_override: Record<string, unknown>;
      }>`select id, config_override from project order by id`.execute(database.db);
      expect(Object.fromEntries(rows.map((row) => [row.id, row.config_override]))).toEqual({
        plain: { 'auth.allowAnonymousSignUp': true },
        dotted_off: { 'auth.allowAnonymousSignUp': false },
        nested_off: { auth: { allowAnonymousSignUp: false } },
        other_auth: { auth: { allowSignUp: false }, 'auth.allowAnonymousSignUp': true },
      });
    } finally {
      await database.close();
    }
  });
});
