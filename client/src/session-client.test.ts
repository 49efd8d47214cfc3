import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserNotFoundError } from './errors.ts';
import { createSessionClient } from './session-client.ts';
import { fakeFetch, isRefresh, jsonResponse, knownErrorResponse, networkFailure } from './testing/fake-fetch.ts';
import { testJwt } from './testing/test-jwt.ts';
import { createMemoryTokenStore } from './token-store/memory-token-store.ts';

describe('createSessionClient with a scripted fetch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('chains request headers, token refresh and retry in front of fetch', async () => {
    const [expiring, fresh] = [await testJwt(Date.now() + 5_000), await testJwt(Date.now() + 600_000)];
    let apiCalls = 0;
    const fetch = fakeFetch((request) => {
      if (isRefresh(request)) return jsonResponse({ access_token: fresh });
      apiCalls += 1;
      return apiCalls === 1 ? networkFailure() : jsonResponse({ id: 'user-1' });
    });
    const delays: number[] = [];
    const client = createSessionClient({
      baseUrl: 'http://api.test/',
      projectId: 'proj',
      accessType: 'client',
      publishableClientKey: 'pck_1',
      tokenStore: createMemoryTokenStore({ accessToken: expiring, refreshToken: 'rt-1' }),
      fetch,
      random: () => 0.5,
      sleep: async (ms) => void delays.push(ms),
      locks: null,
      broadcastChannel: null,
    });
    expect(await client.call('getCurrentUser')).toEqual({ id: 'user-1' });
    // The refresh went first and straight to fetch; the network failure was retried with the token.
    expect(fetch.requests.map((request) => (isRefresh(request) ? 'refresh' : 'api'))).toEqual(['refresh', 'api', 'api']);
    expect(delays).toEqual([1000]);
    for (const request of fetch.requests.slice(1)) {
      expect(request.url).toBe('http://api.test/api/v1/users/me');
      expect(request.headers.get('x-stack-project-id')).toBe('proj');
      expect(request.headers.has('x-stack-override-error-status')).toBe(false);
      expect(request.headers.get('x-stack-access-token')).toBe(fresh);
    }
    // Both attempts of one call share the nonce the outermost middleware set.
    expect(fetch.requests[1]!.headers.get('x-stack-random-nonce')).toBe(fetch.requests[2]!.headers.get('x-stack-random-nonce'));
  });

  it('still turns known errors behind the status override into their classes', async () => {
    const client = createSessionClient({
      baseUrl: 'http://api.test',
      projectId: 'proj',
      accessType: 'server',
      secretServerKey: 'ssk_1',
      fetch: fakeFetch(() => knownErrorResponse('USER_NOT_FOUND', 404)),
      locks: null,
      broadcastChannel: null,
    });
    const error = await client.call('getUser', { params: { user_id: 'u' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserNotFoundError);
    expect((error as UserNotFoundError).status).toBe(404);
    expect(client.session.isInvalid).toBe(true);
  });
});
