import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@gatehouse/testing/test-context';

/** A built app stand-in: its index page is what must never answer a machine path. */
function fakeBuild(root: string): string {
  const dir = join(root, 'example');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>example</title>');
  return dir;
}

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Issue #29 and #30 finding 10: `pnpm start` serves the example app's page for every other GET, but paths
 * under `/.well-known/` and `/api/` are for machines; they answer exactly what the API-only server
 * answers, for every method: unknown ones 404 (plain text, as Stack's protocol answers unmatched paths),
 * and a path parameter over the router's 500 characters 400 SCHEMA_ERROR.
 */
describe('machine paths with a web app mounted at /', () => {
  let root: string;
  let withApp: TestContext;
  let apiOnly: TestContext;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'gatehouse-machine-paths-'));
    [withApp, apiOnly] = await Promise.all([
      createTestContext({
        exampleApp: { distDir: fakeBuild(root), config: () => ({ projectId: 'demo', publishableClientKey: 'pck_demo' }) },
      }),
      createTestContext(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withApp?.close(), apiOnly?.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  const answer = async (context: TestContext, request: InjectOptions) => {
    const response = await context.app.inject(request);
    return {
      status: response.statusCode,
      type: response.headers['content-type'],
      knownError: response.headers['x-stack-known-error'],
      allow: response.headers.allow,
      body: response.body,
    };
  };

  it('answers unknown paths under /.well-known/ and /api/ as the API-only server does, for every method, never with the page', async () => {
    const paths = [
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/.well-known/anything',
      '/.well-known',
      '/.well-known/',
      '/.well-known/a/b?x=1',
      '//.well-known/anything',
      '/api',
      '/api/',
      '/api?x=1',
      '/api/anything',
      '/api/v1/nope',
      '/api/v2/users',
      '//api//v1/nope',
      '/%61pi/v1/nope',
    ];
    for (const url of paths) {
      for (const method of methods) {
        const served = await answer(withApp, { method, url });
        expect(served.status, `${method} ${url}`).toBe(404);
        expect(served.type ?? '', `${method} ${url}`).not.toMatch(/html/);
        expect(served.body, `${method} ${url}`).not.toContain('<title>example</title>');
        expect(served, `${method} ${url}`).toEqual(await answer(apiOnly, { method, url }));
      }
    }
    // The page still answers the app's own routes.
    expect((await answer(withApp, { url: '/handler/sign-in' })).body).toContain('<title>example</title>');
    expect((await answer(withApp, { url: '/well-known' })).body).toContain('<title>example</title>');
  });

  it('answers a path parameter over 500 characters (or an undecodable path) with SCHEMA_ERROR, as the API-only server does', async () => {
    const long = 'a'.repeat(501);
    const paths = [
      `/api/v1/users/${long}`,
      `/api/v1/teams/${long}`,
      `/api/v1/users/${long}/nothing`,
      `/api/v1/projects/${long}/.well-known/jwks.json`,
      `/api/v1/users/${'%C3%A9'.repeat(501)}`,
      '/api/v1/users/%ZZ',
      '/.well-known/%ZZ',
    ];
    for (const url of paths) {
      for (const method of methods) {
        const reference = await answer(apiOnly, { method, url });
        expect(await answer(withApp, { method, url }), `${method} ${url}`).toEqual(reference);
      }
      const get = await answer(withApp, { url });
      expect(get.status, url).toBe(400);
      expect(get.knownError, url).toBe('SCHEMA_ERROR');
    }
  });
});
