import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scheduleJob } from '../../../kernel/background-job.ts';
import { createApplication, oauthPath, publicHost } from '@gatehouse/testing/oauth-provider-testing';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/**
 * Two instances of the platform on one Postgres: the owner changes the project's provider through A, and B (which
 * built its provider before) answers with the change at once — its dynamic registration turned on, a new
 * application's scope known — rather than after its cached provider expires.
 */
const closers: Array<() => Promise<unknown>> = [];
let a: TestContext;
let b: TestContext;
let project: TestProject;

beforeAll(async () => {
  const shared = { settings: { cacheInvalidation: { databaseUrl: inject('databaseUrl') } } };
  [a, b] = await Promise.all([createTestContext(shared), createTestContext(shared)]);
  closers.push(
    () => a.close(),
    () => b.close(),
  );
  // B hears of other instances' changes as a running server does (the listener job).
  const listener = b.server.jobs.find((job) => job.name === 'cache invalidation listener');
  if (!listener) throw new Error('no cache invalidation listener job');
  const running = scheduleJob(listener, { info: () => {}, error: () => {} });
  closers.unshift(async () => {
    await running.stop();
    await b.services.cacheInvalidation.stop();
  });
  // Bounded wait for the LISTEN connection (expect.poll is for tests, not hooks).
  for (const deadline = Date.now() + 60_000; !b.services.cacheInvalidation.listening; ) {
    if (Date.now() > deadline) throw new Error('the cache invalidation listener did not connect');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  project = await a.createProject();
}, 120_000);

afterAll(async () => {
  for (const close of closers) await close();
});

/** B's discovery document for the project (B builds, then caches, the project's provider). */
async function discoveryOnB(): Promise<{ registration_endpoint?: string; scopes_supported: string[] }> {
  const response = await b.request({
    method: 'GET',
    url: oauthPath(project.project.id, '/.well-known/openid-configuration'),
    headers: publicHost,
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('OpenID provider: changes take effect on every instance at once', () => {
  it('dynamic registration turned on and a new application scope, made on A, are seen on B within seconds', async () => {
    const before = await discoveryOnB();
    expect(before.registration_endpoint).toBeUndefined();
    expect(before.scopes_supported).not.toContain('notes:read');

    const settings = await a.request({
      method: 'PATCH',
      url: '/api/v1/internal/oauth-provider/settings',
      headers: project.headers.admin,
      payload: { allow_dynamic_registration: true },
    });
    expect(settings.status, settings.text).toBe(200);
    // Well within the cached provider's minute: only the invalidation can make B see it.
    await expect.poll(async () => (await discoveryOnB()).registration_endpoint, { timeout: 15_000 }).toBeTruthy();

    await createApplication(a, project, {
      name: 'Notes',
      type: 'confidential',
      redirect_uris: ['https://rp.example.com/cb'],
      scopes: ['openid', 'notes:read'],
    });
    await expect.poll(async () => (await discoveryOnB()).scopes_supported, { timeout: 15_000 }).toContain('notes:read');
  });
});
