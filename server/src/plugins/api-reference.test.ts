import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext();
const swaggerUiStatic = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');

/**
 * The API reference is built at its first visit (api-reference.ts: swagger-ui loads then, not at
 * start-up): that visit works, is quick, and every answer is the one swagger-ui gives, sent as a page
 * of the platform.
 */
describe('the API reference at /api/v1/docs', () => {
  it('answers the first visits (several at once) with the page and its files, in well under a second of work', async () => {
    const app = env.context.app;
    const started = performance.now();
    const [page, bundle, initializer] = await Promise.all([
      app.inject({ url: '/api/v1/docs/' }),
      app.inject({ url: '/api/v1/docs/static/swagger-ui-bundle.js' }),
      app.inject({ url: '/api/v1/docs/static/swagger-initializer.js' }),
    ]);
    const firstVisitMs = performance.now() - started;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('swagger-ui');
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(bundle.rawPayload.equals(readFileSync(join(swaggerUiStatic, 'swagger-ui-bundle.js')))).toBe(true);
    expect(Number(bundle.headers['content-length'])).toBe(bundle.rawPayload.length);
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain('docExpansion');
    // Loading swagger-ui and building its routes is about 65 ms of CPU; the bound leaves room for a loaded machine.
    expect(firstVisitMs).toBeLessThan(5_000);
    // The platform's own headers, as on every page.
    expect(page.headers['x-stack-request-id']).toBeTruthy();
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store, max-age=0');
    expect(bundle.headers['cache-control']).toBe('public, max-age=0');
  });

  it('serves the spec the platform serves, at /json and /yaml', async () => {
    const app = env.context.app;
    const [json, yaml, openapi] = await Promise.all([
      app.inject({ url: '/api/v1/docs/json' }),
      app.inject({ url: '/api/v1/docs/yaml' }),
      app.inject({ url: '/api/v1/openapi.json' }),
    ]);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(json.body)).toEqual(JSON.parse(openapi.body));
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers['content-type']).toBe('application/x-yaml');
    expect(JSON.parse(yaml.body)).toEqual(JSON.parse(openapi.body));
  });

  it('answers HEAD, ranges and redirects as swagger-ui does, and an unknown path with the platform 404', async () => {
    const app = env.context.app;
    const css = await app.inject({ url: '/api/v1/docs/static/index.css' });
    const head = await app.inject({ method: 'HEAD', url: '/api/v1/docs/static/index.css' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(css.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(css.rawPayload.length));
    const range = await app.inject({ url: '/api/v1/docs/static/index.css', headers: { range: 'bytes=0-9' } });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(css.rawPayload.subarray(0, 10))).toBe(true);
    const redirect = await app.inject({ url: '/api/v1/docs/static/index.html' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/api/v1/docs/');
    expect(redirect.headers['content-type']).toBeUndefined();
    for (const url of ['/api/v1/docs/nope', '/api/v1/docs/static/nope.js']) {
      const missing = await app.inject({ url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body, url).toBe(`No endpoint at GET ${url}`);
    }
    const post = await app.inject({ method: 'POST', url: '/api/v1/docs' });
    expect(post.statusCode).toBe(404);
  });
});
