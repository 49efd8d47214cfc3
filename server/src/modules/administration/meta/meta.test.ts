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
