import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext();

describe('headers and answers every response shares', () => {
  it('sends a 4xx as 200 with the real status when the request asks (either spelling); never a 5xx', async () => {
    for (const header of ['x-stack-override-error-status', 'x-hexclave-override-error-status']) {
      const response = await env.context.request({
        url: '/api/v1/projects/current',
        headers: { [header]: 'true', 'x-stack-access-type': 'admin' },
      });
      expect(response.httpStatus).toBe(200);
      expect(response.status).toBe(400);
      expect(response.headers['x-stack-actual-status']).toBe('400');
      expect(response.headers['x-stack-known-error']).toBe('ACCESS_TYPE_WITHOUT_PROJECT_ID');
    }
    const plain = await env.context.app.inject({ url: '/api/v1/nothing-here', headers: { 'x-stack-override-error-status': 'true' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['x-stack-actual-status']).toBe('404');
  });

  it('gives every response its own request id and no-store caching', async () => {
    const first = await env.context.request({ url: '/api/v1/projects/current', headers: env.project.headers.client });
    const second = await env.context.request({ url: '/api/v1/projects/current', headers: env.project.headers.client });
    expect(first.headers['x-stack-request-id']).not.toBe(second.headers['x-stack-request-id']);
    expect(first.headers['cache-control']).toBe('no-store, max-age=0');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers CORS preflight on any API path with an empty 200 allowing the SDK headers', async () => {
    const response = await env.context.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/users/me',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'x-hexclave-access-token,content-type',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-headers'])).toContain('x-hexclave-access-token');
    expect(String(response.headers['access-control-allow-methods'])).toContain('PATCH');
    const simple = await env.context.app.inject({ url: '/api/v1/', headers: { origin: 'https://app.example.com' } });
    expect(simple.headers['access-control-expose-headers']).toContain('x-stack-known-error');
  });

  it('forbids framing, content sniffing and referrers on pages, API answers and errors alike; CORS stays open', async () => {
    const expectSecurityHeaders = (headers: Record<string, unknown>, what: string) => {
      expect(headers['content-security-policy'], what).toContain("frame-ancestors 'none'");
      expect(headers['x-frame-options'], what).toBe('DENY');
      expect(headers['x-content-type-options'], what).toBe('nosniff');
      expect(headers['referrer-policy'], what).toBe('no-referrer');
    };
    const reference = await env.context.app.inject({ url: '/api/v1/docs/' });
    expect(reference.statusCode).toBe(200);
    expect(reference.headers['content-type']).toContain('text/html');
    expectSecurityHeaders(reference.headers, 'API reference page');
    const api = await env.context.request({
      url: '/api/v1/projects/current',
      headers: { ...env.project.headers.client, origin: 'https://app.example.com' },
    });
    expectSecurityHeaders(api.headers, 'API answer');
    expect(api.headers['access-control-allow-origin']).toBe('*');
    expectSecurityHeaders((await env.context.request({ url: '/api/v1/no/such/endpoint' })).headers, '404');
    expectSecurityHeaders(
      (await env.context.request({ url: '/api/v1/users/%E0%A4%A', headers: env.project.headers.server })).headers,
      'router error',
    );
  });

  it('answers an unknown path with a plain 404 and a wrong method with 405', async () => {
    const missing = await env.context.request({ url: '/api/v1/no/such/endpoint' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/plain; charset=utf-8');
    const wrongMethod = await env.context.request({ method: 'DELETE', url: '/api/v1/projects/current' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET');
  });

  it('answers an unexpected failure with a 500 that leaks nothing, and logs it', async () => {
    const { buildApp } = await import('../app.ts');
    const logged: string[] = [];
    const app = await buildApp({
      server: env.context.server,
      rateLimits: null,
      logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } },
    });
    app.get('/api/v1/__explode', async () => {
      throw new Error('secret database password is hunter2');
    });
    const response = await app.inject({ url: '/api/v1/__explode', headers: { 'x-stack-override-error-status': 'true' } });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('hunter2');
    expect(response.body).toContain('Internal server error');
    expect(response.headers['x-stack-known-error']).toBeUndefined();
    expect(logged.join('')).toContain('hunter2');
    await app.close();
  });
});

describe('response serialisation', () => {
  it('drops fields the spec does not declare, so server-only data never leaks', async () => {
    const Fastify = (await import('fastify')).default;
    const { routeTable, sharedSchemas } = await import('../generated/route-table.ts');
    const route = routeTable.find((entry) => entry.operationId === 'getCurrentProject');
    const app = Fastify();
    for (const schema of sharedSchemas) app.addSchema(schema);
    const { toClientProject } = await import('../modules/platform/projects/client-project.ts');
    const view = toClientProject(env.project.project);
    app.get('/leaky', { schema: { response: route?.schema.response } }, async () => ({
      ...view,
      server_metadata: { secret: 'never sent' },
      config: { ...view.config, password_hash: 'never sent' },
    }));
    const response = await app.inject({ url: '/leaky' });
    expect(response.body).not.toContain('never sent');
    expect(JSON.parse(response.body)).toEqual(view);
    await app.close();
  });
});
