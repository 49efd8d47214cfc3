import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handleOf } from '../../../db/handle.ts';
import { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { testServerSecret, withTestContext } from '@gatehouse/testing/test-context';
import { resealConfigSecrets } from '../../platform/projects/config-secrets-resealing.ts';
import { resealWebhookSecrets } from './webhook-secret-sealing.ts';

/** The upgrade's migration: rows written in clear before sealing existed are sealed by the modules' jobs, and still work. */
const env = withTestContext({ projectConfig: { 'domains.allowLocalhost': true } });
const cipher = new AtRestCipher(testServerSecret);

describe('sealing secrets written before sealing existed', () => {
  it('seals a webhook secret and a config password stored in clear, and the server reads them as before', async () => {
    const db = env.context.database.db;
    const endpoint = await env.context.services.webhookEndpoints.create(env.project.project, { url: 'http://127.0.0.1:9/old' });
    const stored = await db.selectFrom('webhook_endpoint').select('secret').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^enc:v1:/);
    // What an earlier version wrote: the secret in clear.
    await db.updateTable('webhook_endpoint').set({ secret: endpoint.secret }).where('id', '=', endpoint.id).execute();
    expect((await env.context.services.webhookEndpoints.get(env.project.project.id, endpoint.id)).secret).toBe(endpoint.secret);
    expect(await resealWebhookSecrets(handleOf(db), cipher)).toBeGreaterThanOrEqual(1);
    const resealed = await db.selectFrom('webhook_endpoint').select('secret').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(resealed.secret).toMatch(/^enc:v1:/);
    expect((await env.context.services.webhookEndpoints.get(env.project.project.id, endpoint.id)).secret).toBe(endpoint.secret);

    const password = `smtp-${randomUUID()}`;
    const project = await env.context.createProject({ 'emails.server': { isShared: false, host: '127.0.0.1', port: 2525, password } });
    const sealedRow = await db
      .selectFrom('project')
      .select('config_override')
      .where('id', '=', project.project.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(sealedRow.config_override)).not.toContain(password);
    await db
      .updateTable('project')
      .set({ config_override: JSON.stringify({ 'emails.server.password': password, 'emails.server.host': '127.0.0.1' }) })
      .where('id', '=', project.project.id)
      .execute();
    expect(await resealConfigSecrets(handleOf(db), cipher, (id) => env.context.services.projects.forget(id))).toBeGreaterThanOrEqual(1);
    const after = await db.selectFrom('project').select('config_override').where('id', '=', project.project.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(after.config_override)).not.toContain(password);
    expect((await env.context.services.projects.find(project.project.id))?.config.emails.server.password).toBe(password);
  });
});

describe('reads of webhook endpoints', () => {
  it('list and read endpoints without opening their sealed secrets (no read shows one)', async () => {
    const db = env.context.database.db;
    const endpoint = await env.context.services.webhookEndpoints.create(env.project.project, { url: 'http://127.0.0.1:9/unopened' });
    // A secret no key of this server opens: a read that opened it would fail (answer 500).
    await db.updateTable('webhook_endpoint').set({ secret: 'enc:v1:unknownkey:AAAA' }).where('id', '=', endpoint.id).execute();
    const listed = await env.context.request({ url: '/api/v1/internal/webhooks/endpoints', headers: env.project.headers.admin });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(endpoint.id);
    expect(listed.text).not.toContain('secret"');
    const read = await env.context.request({
      url: `/api/v1/internal/webhooks/endpoints/${endpoint.id}`,
      headers: env.project.headers.admin,
    });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: endpoint.id, url: 'http://127.0.0.1:9/unopened' });
    await db.deleteFrom('webhook_endpoint').where('id', '=', endpoint.id).execute();
  });
});
