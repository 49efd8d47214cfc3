import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext();

describe('meta endpoints', () => {
  it('GET / welcomes in plain text and rejects unknown query fields', async () => {
    const response = await env.context.request({ url: '/api/v1' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toContain('Welcome');
    const bad = await env.context.request({ url: '/api/v1/?debug=1' });
    expect(bad.body.code).toBe('SCHEMA_ERROR');
  });

  it('GET /openapi.json serves the bundled spec, with every operation the server routes', async () => {
    const response = await env.context.request({ url: '/api/v1/openapi.json' });
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.components.responses)).toContain('SCHEMA_ERROR');
    expect(response.body).not.toHaveProperty('x-header-sets');
    expect((await env.context.request({ url: '/api/v1/openapi.json?format=yaml' })).body.code).toBe('SCHEMA_ERROR');
  });

  it('GET /openapi.json answers each view from its kept bytes with a stable ETag, and 304 when the client has them', async () => {
    const first = await env.context.request({ url: '/api/v1/openapi.json', operation: 'getOpenApiDocument' });
    const again = await env.context.request({ url: '/api/v1/openapi.json', operation: 'getOpenApiDocument' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(again.headers.etag).toBe(etag);
    expect(again.text).toBe(first.text);
    expect(first.headers['cache-control']).toBe('no-cache');
    const clientView = await env.context.request({ url: '/api/v1/openapi.json?access_type=client', operation: 'getOpenApiDocument' });
    expect(clientView.headers.etag).not.toBe(etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const notModified = await env.context.request({
        url: '/api/v1/openapi.json',
        headers: { 'if-none-match': ifNoneMatch },
        operation: 'getOpenApiDocument',
      });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.etag).toBe(etag);
    }
    // Another view's tag is not this view's: the whole body is sent.
    const changed = await env.context.request({
      url: '/api/v1/openapi.json',
      headers: { 'if-none-match': String(clientView.headers.etag) },
      operation: 'getOpenApiDocument',
    });
    expect(changed.status).toBe(200);
    expect(changed.text).toBe(first.text);
  });

  it('serves a browsable API reference page', async () => {
    const page = await env.context.app.inject({ url: '/api/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
    const spec = await env.context.app.inject({ url: '/api/v1/docs/json' });
    expect(JSON.parse(spec.body).info.title).toBe('Gatehouse API');
  });

  it('POST /check-feature-support answers in plain text that the feature is missing', async () => {
    const response = await env.context.request({
      method: 'POST',
      url: '/api/v1/check-feature-support',
      payload: { featureName: 'payments', extra: { any: 'json' } },
    });
    expect(response.status).toBe(200);
    expect(response.body).toBe('The feature "payments" is not supported by this Gatehouse server yet.');
    const empty = await env.context.request({ method: 'POST', url: '/api/v1/check-feature-support' });
    expect(empty.status).toBe(200);
  });
});
