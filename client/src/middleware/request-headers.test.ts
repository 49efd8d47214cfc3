import { describe, expect, it } from 'vitest';
import { fakeFetch, jsonResponse } from '../testing/fake-fetch.ts';
import { CLIENT_VERSION, requestHeaders } from './request-headers.ts';

const url = 'http://api.test/api/v1/users/me';

describe('request headers middleware', () => {
  it('sets every project header, a fresh nonce per request, and no tokens', async () => {
    const fetch = fakeFetch(() => jsonResponse({}));
    const middleware = requestHeaders({
      projectId: 'proj',
      accessType: 'admin',
      publishableClientKey: 'pck_1',
      secretServerKey: 'ssk_1',
      superSecretAdminKey: 'sak_1',
    });
    await middleware(new Request(url), fetch);
    await middleware(new Request(url), fetch);
    const [first, second] = fetch.requests.map((request) => Object.fromEntries(request.headers));
    expect(first).toMatchObject({
      'x-stack-project-id': 'proj',
      'x-stack-access-type': 'admin',
      'x-stack-publishable-client-key': 'pck_1',
      'x-stack-secret-server-key': 'ssk_1',
      'x-stack-super-secret-admin-key': 'sak_1',
      'x-stack-client-version': 'js @gatehouse/client@0.1.0',
    });
    // Real statuses unless asked for Stack's override mode (which no response of the OpenAPI document describes).
    expect(first).not.toHaveProperty('x-stack-override-error-status');
    expect(CLIENT_VERSION).toBe('js @gatehouse/client@0.1.0');
    expect(first?.['x-stack-random-nonce']).toMatch(/^[0-9a-f]{32}$/);
    expect(second?.['x-stack-random-nonce']).toMatch(/^[0-9a-f]{32}$/);
    expect(first?.['x-stack-random-nonce']).not.toBe(second?.['x-stack-random-nonce']);
    expect(first).not.toHaveProperty('x-stack-access-token');
    expect(first).not.toHaveProperty('x-stack-refresh-token');
  });

  it('leaves out keys it was not given, keeps headers the caller set, and keeps the body', async () => {
    const fetch = fakeFetch(() => jsonResponse({}));
    const middleware = requestHeaders({ projectId: 'proj', accessType: 'client', nonce: () => 'n-1' });
    const request = new Request(url, { method: 'POST', body: '{"a":1}', headers: { 'x-stack-access-type': 'server' } });
    await middleware(request, fetch);
    const sent = fetch.requests[0]!;
    expect(sent.headers.get('x-stack-access-type')).toBe('server');
    expect(sent.headers.get('x-stack-random-nonce')).toBe('n-1');
    expect(sent.headers.has('x-stack-publishable-client-key')).toBe(false);
    expect(sent.headers.has('x-stack-secret-server-key')).toBe(false);
    expect(sent.headers.has('x-stack-super-secret-admin-key')).toBe(false);
    expect(await sent.text()).toBe('{"a":1}');
  });

  it('asks for the override mode only when told to', async () => {
    const fetch = fakeFetch(() => jsonResponse({}));
    await requestHeaders({ projectId: 'proj', accessType: 'client', overrideErrorStatus: true })(new Request(url), fetch);
    expect(fetch.requests[0]!.headers.get('x-stack-override-error-status')).toBe('true');
  });
});
