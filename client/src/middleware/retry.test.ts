import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError } from '../connection-error.ts';
import { fakeFetch, jsonResponse, networkFailure } from '../testing/fake-fetch.ts';
import { retry } from './retry.ts';

const url = 'http://api.test:8102/api/v1/users/me';

/** A sleep that records the delays and returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  return { delays, sleep };
}

describe('retry middleware', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('makes 5 attempts for an idempotent request, backing off 1, 2, 4, 8 s times a jitter of 0.5', async () => {
    const { delays, sleep } = recordingSleep();
    const fetch = fakeFetch(networkFailure);
    const error = await retry({ random: () => 0, sleep })(new Request(url), fetch).catch((caught: unknown) => caught);
    expect(fetch.requests).toHaveLength(5);
    expect(delays).toEqual([500, 1000, 2000, 4000]);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe('Cannot connect to the server at http://api.test:8102. Check that it is running and reachable.');
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('scales the backoff by a jitter factor just under 1.5 when random is 0.999', async () => {
    const { delays, sleep } = recordingSleep();
    await retry({ random: () => 0.999, sleep })(new Request(url, { method: 'PUT' }), fakeFetch(networkFailure)).catch(() => {});
    expect(delays).toEqual([1499, 2998, 5996, 11992]);
  });

  it('waits the backoff on real timers before each attempt', async () => {
    const fetch = fakeFetch((_request, index) => (index < 2 ? networkFailure() : jsonResponse({ ok: true })));
    const result = retry({ random: () => 0 })(new Request(url), fetch);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(fetch.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch.requests).toHaveLength(3);
    expect((await result).status).toBe(200);
  });

  it('does not retry a network failure of a non-idempotent method', async () => {
    for (const method of ['POST', 'PATCH']) {
      const { delays, sleep } = recordingSleep();
      const fetch = fakeFetch(networkFailure);
      const request = new Request(url, { method, body: '{}' });
      await expect(retry({ sleep })(request, fetch)).rejects.toBeInstanceOf(ConnectionError);
      expect(fetch.requests).toHaveLength(1);
      expect(delays).toEqual([]);
    }
  });

  it('says the user is offline when the browser knows it', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const { sleep } = recordingSleep();
    const offline = await retry({ sleep })(new Request(url), fakeFetch(networkFailure)).catch((error: unknown) => error);
    expect(offline).toBeInstanceOf(ConnectionError);
    expect((offline as ConnectionError).message).toBe('You are offline. Please check your internet connection and try again.');
    vi.stubGlobal('navigator', { onLine: true });
    await expect(retry({ sleep })(new Request(url), fakeFetch(networkFailure))).rejects.toThrow('Cannot connect to the server at');
  });

  it('lets other errors (an abort) through without retrying', async () => {
    const fetch = fakeFetch(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    await expect(retry()(new Request(url), fetch)).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetch.requests).toHaveLength(1);
  });

  it('waits Retry-After seconds on 429, for any method, and replays the body', async () => {
    const { delays, sleep } = recordingSleep();
    const fetch = fakeFetch((_request, index) =>
      index === 0 ? new Response('slow down', { status: 429, headers: { 'retry-after': '3' } }) : jsonResponse({ ok: true }),
    );
    const request = new Request(url, { method: 'POST', body: '{"name":"x"}' });
    const response = await retry({ sleep })(request, fetch);
    expect(response.status).toBe(200);
    expect(delays).toEqual([3000]);
    expect(await Promise.all(fetch.requests.map((sent) => sent.text()))).toEqual(['{"name":"x"}', '{"name":"x"}']);
  });

  it('reads 429 behind the status override and falls back to the backoff without Retry-After', async () => {
    const { delays, sleep } = recordingSleep();
    const fetch = fakeFetch((_request, index) =>
      index === 0 ? new Response('slow down', { headers: { 'x-stack-actual-status': '429' } }) : jsonResponse({ ok: true }),
    );
    expect((await retry({ random: () => 0, sleep })(new Request(url), fetch)).status).toBe(200);
    expect(delays).toEqual([500]);
  });

  it('returns the last 429 once the attempts are used up', async () => {
    const { delays, sleep } = recordingSleep();
    const fetch = fakeFetch(() => new Response('slow down', { status: 429, headers: { 'retry-after': '1' } }));
    expect((await retry({ sleep })(new Request(url), fetch)).status).toBe(429);
    expect(fetch.requests).toHaveLength(5);
    expect(delays).toEqual([1000, 1000, 1000, 1000]);
  });

  it('retries a 508 that carries the loop marker, and only that 508', async () => {
    const { delays, sleep } = recordingSleep();
    const looping = fakeFetch((_request, index) =>
      index === 0 ? new Response('loop', { status: 508, headers: { 'x-stack-loop-detected': 'true' } }) : jsonResponse({ ok: true }),
    );
    expect((await retry({ random: () => 0, sleep })(new Request(url, { method: 'POST' }), looping)).status).toBe(200);
    expect(looping.requests).toHaveLength(2);
    expect(delays).toEqual([500]);

    const plain = fakeFetch(() => new Response('loop', { status: 508 }));
    expect((await retry({ sleep })(new Request(url), plain)).status).toBe(508);
    expect(plain.requests).toHaveLength(1);
  });

  it('does not retry other error answers', async () => {
    const fetch = fakeFetch(() => new Response('boom', { status: 500 }));
    expect((await retry()(new Request(url), fetch)).status).toBe(500);
    expect(fetch.requests).toHaveLength(1);
  });
});
