import * as op from '@gatehouse/protocol/operations';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { ApiHttpError, createApiClient } from './api-client.ts';
import { CurrentProjectNotFoundError, InvalidProjectAuthenticationError, KnownError, RateLimitedError, SchemaError } from './errors.ts';

/** The client against the real server over HTTP. */
const env = withTestContext({ listen: true });

describe('createApiClient', () => {
  it('calls an operation by id with typed params and returns the parsed body', async () => {
    const client = createApiClient({ baseUrl: env.baseUrl, headers: env.project.headers.client });
    const current = await client.call('getCurrentProject');
    expect(current.id).toBe(env.project.project.id);
    const jwks = await client.call('getProjectJwks', {
      params: { project_id: env.project.project.id },
      query: { include_restricted: 'true' },
    });
    expect(jwks.keys).toHaveLength(2);
    expect(await client.call('getApiRoot')).toContain('Welcome');
  });

  it('calls an operation by its const as by its id, and refuses an id the spec does not have', async () => {
    const client = createApiClient({ baseUrl: env.baseUrl, headers: env.project.headers.client });
    const byConst = await client.call(op.getCurrentProject);
    expect(byConst).toEqual(await client.call('getCurrentProject'));
    const jwks = await client.call(op.getProjectJwks, { params: { project_id: env.project.project.id } });
    expect(jwks.keys.length).toBeGreaterThan(0);
    await expect(client.call('noSuchOperation' as 'getCurrentProject')).rejects.toThrow(
      new TypeError('Unknown operation: noSuchOperation'),
    );
  });

  it('turns a known error into its generated class, with or without the status override', async () => {
    for (const override of [{}, { 'x-stack-override-error-status': 'true' }] as Record<string, string>[]) {
      const client = createApiClient({
        baseUrl: env.baseUrl,
        headers: { ...env.project.headers.client, 'x-stack-project-id': '00000000-0000-4000-8000-000000000001', ...override },
      });
      const error = await client.call('getCurrentProject').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CurrentProjectNotFoundError);
      expect(error).toBeInstanceOf(KnownError);
      expect((error as CurrentProjectNotFoundError).status).toBe(400);
      expect((error as CurrentProjectNotFoundError).details.project_id).toBe('00000000-0000-4000-8000-000000000001');
    }
    const wrongKey = createApiClient({
      baseUrl: env.baseUrl,
      headers: { ...env.project.headers.server, 'x-stack-secret-server-key': 'ssk_nope' },
    });
    await expect(wrongKey.call('getCurrentProject')).rejects.toBeInstanceOf(InvalidProjectAuthenticationError);
    const bad = createApiClient({ baseUrl: env.baseUrl });
    await expect(
      bad.call('getProjectJwks', { params: { project_id: env.project.project.id }, query: { include_anonymous: 'maybe' as 'true' } }),
    ).rejects.toBeInstanceOf(SchemaError);
  });

  it('turns a 429 RATE_LIMITED (sent without the known-error header) into its class', async () => {
    const limited = () =>
      new Response(JSON.stringify({ code: 'RATE_LIMITED', error: 'Too many requests.', details: { retry_after_seconds: 1 } }), {
        status: 429,
        headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' },
      });
    const client = createApiClient({ baseUrl: env.baseUrl, fetch: async () => limited() });
    const error = await client.call('getCurrentProject').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).details).toEqual({ retry_after_seconds: 1 });
    const plain = createApiClient({
      baseUrl: env.baseUrl,
      fetch: async () => new Response('slow down', { status: 429 }),
    });
    await expect(plain.call('getCurrentProject')).rejects.toBeInstanceOf(ApiHttpError);
  });

  it('raises an ApiHttpError for plain-text errors, and runs middleware outermost first', async () => {
    const order: string[] = [];
    const client = createApiClient({
      baseUrl: env.baseUrl,
      middleware: [
        async (request, next) => {
          order.push('outer');
          return next(request);
        },
        async (request, next) => {
          order.push('inner');
          request.headers.set('x-stack-access-type', 'client');
          request.headers.set('x-stack-project-id', env.project.project.id);
          return next(request);
        },
      ],
    });
    expect((await client.call('getCurrentProject')).id).toBe(env.project.project.id);
    expect(order).toEqual(['outer', 'inner']);
    const error = await client.fetchJson('/no/such/route', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).status).toBe(404);
  });

  it('reads an NDJSON answer as text (a hook reading it as one JSON document failed beyond one line)', async () => {
    const client = createApiClient({ baseUrl: env.baseUrl, headers: env.project.headers.admin });
    const team = (await client.fetchJson('/teams', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'NDJSON team' }),
    })) as { id: string };
    for (const name of ['First', 'Second']) {
      await client.fetchJson(`/teams/${team.id}/scim-directories`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: name }),
      });
    }
    const body = await client.fetchJson(`/audit-log/export?team_id=${team.id}`, {});
    expect(typeof body).toBe('string');
    const lines = (body as string)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string });
    expect(lines.map((entry) => entry.action)).toEqual(['scim.directory_created', 'scim.directory_created']);
  });
});
