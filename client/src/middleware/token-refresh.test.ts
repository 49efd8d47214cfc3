import * as op from '@gatehouse/protocol/operations';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError } from '../connection-error.ts';
import { UnparsableAccessTokenError, UserNotFoundError } from '../errors.ts';
import { createSessionClient } from '../session-client.ts';
import { fakeFetch, isRefresh, jsonResponse, knownErrorResponse, networkFailure } from '../testing/fake-fetch.ts';
import { testJwt } from '../testing/test-jwt.ts';
import { createMemoryTokenStore } from '../token-store/memory-token-store.ts';
import type { SessionTokens } from '../token-store/token-store.ts';

const user = { id: 'user-1' };

function setup(tokens: SessionTokens, answer: (request: Request) => Response | Promise<Response>) {
  const fetch = fakeFetch(answer);
  const store = createMemoryTokenStore(tokens);
  const client = createSessionClient({
    baseUrl: 'http://api.test',
    projectId: 'proj',
    accessType: 'client',
    publishableClientKey: 'pck_1',
    tokenStore: store,
    fetch,
    locks: null,
    broadcastChannel: null,
    sleep: async () => {},
  });
  const refreshes = () => fetch.requests.filter(isRefresh);
  const apiRequests = () => fetch.requests.filter((request) => !isRefresh(request));
  return { fetch, store, client, refreshes, apiRequests };
}

const inSeconds = (seconds: number) => testJwt(Date.now() + seconds * 1000);

describe('token refresh middleware', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refreshes exactly once for 20 concurrent calls with an expiring token, and sends the new one', async () => {
    const [expiring, fresh] = [await inSeconds(10), await inSeconds(600)];
    const env = setup({ accessToken: expiring, refreshToken: 'rt-1' }, (request) =>
      isRefresh(request)
        ? new Promise((resolve) => setTimeout(() => resolve(jsonResponse({ access_token: fresh, refresh_token: 'rt-1' })), 50))
        : jsonResponse(user),
    );
    const calls = Promise.all(Array.from({ length: 20 }, () => env.client.call(op.getCurrentUser)));
    await vi.advanceTimersByTimeAsync(50);
    expect(await calls).toHaveLength(20);
    expect(env.refreshes()).toHaveLength(1);
    expect(env.apiRequests()).toHaveLength(20);
    for (const request of env.apiRequests()) {
      expect(request.headers.get('x-stack-access-token')).toBe(fresh);
      expect(request.headers.get('x-stack-refresh-token')).toBe('rt-1');
    }
    expect(env.store.get()).toEqual({ accessToken: fresh, refreshToken: 'rt-1' });
  });

  it('posts the form-encoded refresh grant to the token endpoint, outside the middleware chain', async () => {
    const fresh = await inSeconds(600);
    const env = setup({ refreshToken: 'rt-1' }, (request) =>
      isRefresh(request) ? jsonResponse({ access_token: fresh }) : jsonResponse(user),
    );
    await env.client.call(op.getCurrentUser);
    const refresh = env.refreshes()[0]!;
    expect(refresh.method).toBe('POST');
    expect(refresh.url).toBe('http://api.test/api/v1/auth/oauth/token');
    expect(refresh.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
    expect(refresh.headers.has('x-stack-project-id')).toBe(false);
    expect(Object.fromEntries(new URLSearchParams(await refresh.text()))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt-1',
      client_id: 'proj',
      client_secret: 'pck_1',
    });
    expect(env.apiRequests()[0]!.headers.get('x-stack-access-token')).toBe(fresh);
  });

  it('refreshes proactively with under 20 s left, and not with more', async () => {
    for (const [seconds, expected] of [
      [19, 1],
      [21, 0],
      [3600, 0],
    ] as const) {
      const token = await inSeconds(seconds);
      const fresh = await inSeconds(600);
      const env = setup({ accessToken: token, refreshToken: 'rt-1' }, (request) =>
        isRefresh(request) ? jsonResponse({ access_token: fresh }) : jsonResponse(user),
      );
      await env.client.call(op.getCurrentUser);
      expect(env.refreshes(), `${seconds} s left`).toHaveLength(expected);
      expect(env.apiRequests()[0]!.headers.get('x-stack-access-token')).toBe(expected ? fresh : token);
    }
  });

  it('refreshes and replays once when the server rejects the access token', async () => {
    const [rejected, fresh] = [await inSeconds(300), await inSeconds(600)];
    const env = setup({ accessToken: rejected, refreshToken: 'rt-1' }, (request) => {
      if (isRefresh(request)) return jsonResponse({ access_token: fresh });
      return request.headers.get('x-stack-access-token') === rejected
        ? knownErrorResponse('ACCESS_TOKEN_EXPIRED', 401)
        : jsonResponse(user, { status: 201 });
    });
    const request = env.client.call(op.updateCurrentUser, { body: { display_name: 'Ada' } });
    expect(await request).toEqual(user);
    expect(env.refreshes()).toHaveLength(1);
    const [first, replay] = env.apiRequests();
    expect(first!.headers.get('x-stack-access-token')).toBe(rejected);
    expect(replay!.headers.get('x-stack-access-token')).toBe(fresh);
    expect(replay!.method).toBe('PATCH');
    expect(await replay!.json()).toEqual({ display_name: 'Ada' });
  });

  it('gives up after one replay when the new token is rejected too', async () => {
    const [rejected, fresh] = [await inSeconds(300), await inSeconds(600)];
    const env = setup({ accessToken: rejected, refreshToken: 'rt-1' }, (request) =>
      isRefresh(request) ? jsonResponse({ access_token: fresh }) : knownErrorResponse('UNPARSABLE_ACCESS_TOKEN', 401),
    );
    await expect(env.client.call(op.getCurrentUser)).rejects.toBeInstanceOf(UnparsableAccessTokenError);
    expect(env.apiRequests()).toHaveLength(2);
    expect(env.refreshes()).toHaveLength(1);
  });

  it('does not refresh on other known errors', async () => {
    const token = await inSeconds(300);
    const env = setup({ accessToken: token, refreshToken: 'rt-1' }, () => knownErrorResponse('USER_NOT_FOUND', 404));
    await expect(env.client.call(op.getCurrentUser)).rejects.toBeInstanceOf(UserNotFoundError);
    expect(env.refreshes()).toHaveLength(0);
    expect(env.apiRequests()).toHaveLength(1);
  });

  it('ends the session for good when the refresh token is rejected', async () => {
    const expiring = await inSeconds(5);
    const env = setup({ accessToken: expiring, refreshToken: 'rt-gone' }, (request) =>
      isRefresh(request) ? knownErrorResponse('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, { override: false }) : jsonResponse(user),
    );
    const changes: SessionTokens[] = [];
    env.client.session.subscribe((tokens) => changes.push(tokens));
    await env.client.call(op.getCurrentUser);
    await env.client.call(op.getCurrentUser);
    expect(env.client.session.isInvalid).toBe(true);
    expect(env.store.get()).toEqual({});
    expect(changes).toEqual([{}]);
    expect(env.refreshes()).toHaveLength(1);
    for (const request of env.apiRequests()) {
      expect(request.headers.has('x-stack-access-token')).toBe(false);
      expect(request.headers.has('x-stack-refresh-token')).toBe(false);
    }
  });

  it('ends the session when the refresh answer carries no access token', async () => {
    const env = setup({ refreshToken: 'rt-1' }, (request) =>
      isRefresh(request) ? jsonResponse({ token_type: 'Bearer' }) : jsonResponse(user),
    );
    await env.client.call(op.getCurrentUser);
    expect(env.client.session.isInvalid).toBe(true);
    expect(env.store.get()).toEqual({});
  });

  it('keeps the session when the refresh fails on the network', async () => {
    const env = setup({ refreshToken: 'rt-1' }, (request) => (isRefresh(request) ? networkFailure() : jsonResponse(user)));
    await expect(env.client.call(op.getCurrentUser)).rejects.toBeInstanceOf(ConnectionError);
    expect(env.client.session.isInvalid).toBe(false);
    expect(env.store.get()).toEqual({ refreshToken: 'rt-1' });
  });

  it('starts invalid without tokens, sends none, and becomes valid on setTokens until signOut', async () => {
    const fresh = await inSeconds(600);
    const env = setup({}, () => jsonResponse(user));
    expect(env.client.session.isInvalid).toBe(true);
    await env.client.call(op.getCurrentUser);
    expect(env.apiRequests()[0]!.headers.has('x-stack-access-token')).toBe(false);
    expect(env.refreshes()).toHaveLength(0);

    env.client.session.setTokens({ accessToken: fresh, refreshToken: 'rt-2' });
    expect(env.client.session.isInvalid).toBe(false);
    expect(env.client.session.getTokens()).toEqual({ accessToken: fresh, refreshToken: 'rt-2' });
    await env.client.call(op.getCurrentUser);
    expect(env.apiRequests()[1]!.headers.get('x-stack-access-token')).toBe(fresh);

    env.client.session.signOut();
    expect(env.client.session.isInvalid).toBe(true);
    expect(env.store.get()).toEqual({});
  });
});
