import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimits } from '../../../config/rate-limits.ts';
import type { RateLimitCounter } from '../../../plugins/rate-limits.ts';
import { startRedisServer, type RedisServer } from '@gatehouse/testing/redis-server';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';
import { rateLimitCountersModule } from './index.ts';
import { readRedisUrl } from './redis-rate-limit-counter.ts';

/** The rate-limit counter in Redis (REDIS_URL), against Debian's redis-server, and the Postgres one beside it. */
const tight: RateLimits = {
  'sign-in': { perIp: 100, perEmail: 3, windowSeconds: 60, failuresOnly: true },
  'sign-up': { perIp: 6, perEmail: 4, windowSeconds: 60 },
  'send-code': { perIp: 100, perEmail: 4, windowSeconds: 60 },
  'check-code': { perIp: 6, windowSeconds: 60 },
};
const namespace = randomUUID();
let redis: RedisServer;
let inspector: Redis;
let postgres: TestContext;
let a: TestContext;
let b: TestContext;
let project: TestProject;
const redisErrors: Error[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
  inspector = new Redis(redis.url, { lazyConnect: true });
  const settings = { rateLimitCounters: { redis: { url: redis.url, onError: (error: Error) => redisErrors.push(error) } } };
  postgres = await createTestContext();
  a = await createTestContext({ rateLimits: tight, rateLimitNamespace: namespace, settings });
  b = await createTestContext({ rateLimits: tight, rateLimitNamespace: namespace, settings });
  project = await a.createProject({ 'auth.password.allowSignIn': true, 'auth.otp.allowSignIn': true, 'domains.allowLocalhost': true });
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await postgres?.close();
  inspector?.disconnect();
  await redis?.stop();
});

const rateLimitClients = async () =>
  ((await inspector.client('LIST')) as string).split('\n').filter((line) => line.includes('name=gatehouse-rate-limits')).length;

const stores: Array<[string, () => RateLimitCounter]> = [
  ['Postgres', () => postgres.services.rateLimitCounter],
  ['Redis', () => a.services.rateLimitCounter],
];

describe.each(stores)('the %s rate-limit counter', (_name, counterOf) => {
  it('counts hits in a fixed window from the first hit', async () => {
    const counter = counterOf();
    const key = `semantics:${randomUUID()}`;
    const first = await counter.hit(key, 60_000);
    expect(first.hits).toBe(1);
    expect(first.resetInMs).toBeGreaterThan(59_000);
    expect(first.resetInMs).toBeLessThanOrEqual(60_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await counter.hit(key, 60_000);
    expect(second.hits).toBe(2);
    // The window runs from the first hit: a later hit does not extend it.
    expect(second.resetInMs).toBeLessThanOrEqual(first.resetInMs - 40);
  });

  it('peeks without counting, and forgets', async () => {
    const counter = counterOf();
    const key = `peek:${randomUUID()}`;
    expect(await counter.peek(key)).toEqual({ hits: 0, resetInMs: 0 });
    await counter.hit(key, 60_000);
    await counter.hit(key, 60_000);
    const peeked = await counter.peek(key);
    expect(peeked.hits).toBe(2);
    expect(peeked.resetInMs).toBeGreaterThan(0);
    expect((await counter.peek(key)).hits).toBe(2);
    await counter.forget(key);
    expect(await counter.peek(key)).toEqual({ hits: 0, resetInMs: 0 });
    expect((await counter.hit(key, 60_000)).hits).toBe(1);
  });

  it('takes a hit back within the window, never below zero, keeping the window', async () => {
    const counter = counterOf();
    const key = `release:${randomUUID()}`;
    await counter.release(key);
    expect(await counter.peek(key)).toEqual({ hits: 0, resetInMs: 0 });
    await counter.hit(key, 60_000);
    const before = await counter.hit(key, 60_000);
    await counter.release(key);
    const after = await counter.peek(key);
    expect(after.hits).toBe(1);
    expect(after.resetInMs).toBeLessThanOrEqual(before.resetInMs);
    expect(after.resetInMs).toBeGreaterThan(before.resetInMs - 5_000);
    await counter.release(key);
    await counter.release(key);
    expect((await counter.peek(key)).hits).toBe(0);
    expect((await counter.hit(key, 60_000)).hits).toBe(1);
  });

  it('starts a new window once the old one has passed', async () => {
    const counter = counterOf();
    const key = `window:${randomUUID()}`;
    expect((await counter.hit(key, 200)).hits).toBe(1);
    expect((await counter.hit(key, 200)).hits).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await counter.peek(key)).hits).toBe(0);
    const fresh = await counter.hit(key, 200);
    expect(fresh.hits).toBe(1);
    expect(fresh.resetInMs).toBeGreaterThan(0);
  });

  it('counts 50 concurrent hits exactly once each', async () => {
    const counter = counterOf();
    const key = `concurrency:${randomUUID()}`;
    const hits = await Promise.all(Array.from({ length: 50 }, () => counter.hit(key, 60_000)));
    expect(hits.map((hit) => hit.hits).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  });
});

describe('rate limits in one Redis shared by two instances', () => {
  it('hold the per-IP limit across both (not twice the limit), in Redis rather than Postgres', async () => {
    const signUp = (instance: TestContext, remoteAddress: string) =>
      instance.request({
        method: 'POST',
        url: '/api/v1/auth/password/sign-up',
        headers: project.headers.client,
        payload: {},
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) statuses.push((await signUp(attempt % 2 ? b : a, '10.90.0.1')).status);
    expect(statuses).toEqual([...Array(6).fill(400), ...Array(6).fill(429)]);
    expect((await signUp(b, '10.90.0.2')).status).toBe(400);
    expect((await inspector.keys(`gatehouse:rate-limit:${namespace}:*ip:10.90.0.1`)).length).toBe(1);
    const { rows } = await sql`select key from rate_limit_counter where key like ${`${namespace}:%`}`.execute(postgres.database.db);
    expect(rows).toEqual([]);
  });

  it('count sign-in failures of an address and IP across both', async () => {
    const signIn = (instance: TestContext, remoteAddress: string) =>
      instance.request({
        method: 'POST',
        url: '/api/v1/auth/password/sign-in',
        headers: project.headers.client,
        payload: { email: 'owner@example.com', password: 'wrong password' },
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await signIn(attempt % 2 ? b : a, '10.91.0.1')).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    expect((await signIn(b, '10.91.0.2')).status).toBe(400);
  });

  it('count 50 concurrent hits from both instances exactly once each', async () => {
    const key = `concurrency:${randomUUID()}`;
    const hits = await Promise.all(
      Array.from({ length: 50 }, (_, index) => (index % 2 ? a : b).services.rateLimitCounter.hit(key, 60_000)),
    );
    expect(hits.map((hit) => hit.hits).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  });

  it('connects on first use and disconnects when the app closes', async () => {
    const before = await rateLimitClients();
    const c = await createTestContext({ rateLimits: tight, settings: { rateLimitCounters: { redis: { url: redis.url } } } });
    expect(await rateLimitClients()).toBe(before);
    await c.services.rateLimitCounter.hit(`lazy:${randomUUID()}`, 1000);
    expect(await rateLimitClients()).toBe(before + 1);
    await c.close();
    expect(await rateLimitClients()).toBe(before);
  });
});

describe('Redis that does not answer', () => {
  let own: RedisServer;
  let c: TestContext;
  let cProject: TestProject;
  const errors: Error[] = [];
  beforeAll(async () => {
    own = await startRedisServer();
    c = await createTestContext({
      rateLimits: tight,
      settings: { rateLimitCounters: { redis: { url: own.url, timeoutMs: 300, onError: (error: Error) => errors.push(error) } } },
    });
    cProject = await c.createProject({ 'domains.allowLocalhost': true });
  }, 60_000);
  afterAll(async () => {
    own?.resume();
    await c?.close();
    await own?.stop();
  });
  const signUp = (remoteAddress = '10.92.0.1') =>
    c.request({ method: 'POST', url: '/api/v1/auth/password/sign-up', headers: cProject.headers.client, payload: {}, remoteAddress });

  it('lets requests through (fails open) within the timeout while it hangs, and limits again once it is back', async () => {
    for (let attempt = 0; attempt < 6; attempt++) expect((await signUp()).status).toBe(400);
    expect((await signUp()).status).toBe(429);
    own.pause();
    const started = Date.now();
    expect((await signUp()).status).toBe(400);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(errors.length).toBeGreaterThan(0);
    // Meanwhile Redis is not asked again for the timeout: the next requests do not wait at all.
    const next = Date.now();
    expect((await signUp()).status).toBe(400);
    expect(Date.now() - next).toBeLessThan(250);
    own.resume();
    // The count survived the pause: the limit holds again once the skip has passed.
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await signUp()).status).toBe(429);
  });

  it('lets requests through within a bounded time once it is gone', async () => {
    await own.stop();
    const errorsBefore = errors.length;
    const started = Date.now();
    const statuses = await Promise.all([signUp('10.92.0.2'), signUp('10.92.0.3'), signUp('10.92.0.2')]);
    expect(statuses.map((response) => response.status)).toEqual([400, 400, 400]);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(errors.length).toBeGreaterThan(errorsBefore);
  });
});

describe('REDIS_URL', () => {
  it('is optional: unset or empty keeps the Postgres counter', () => {
    expect(rateLimitCountersModule.readSettings({})).toEqual({});
    expect(rateLimitCountersModule.readSettings({ REDIS_URL: '' })).toEqual({});
    expect(rateLimitCountersModule.readSettings({ REDIS_URL: 'redis://:secret@cache.internal:6380/2' })).toEqual({
      redis: { url: 'redis://:secret@cache.internal:6380/2' },
    });
    expect(readRedisUrl({ REDIS_URL: 'rediss://cache.internal' })).toBe('rediss://cache.internal');
  });

  it('refuses to start on a malformed value, without echoing it', () => {
    for (const value of ['cache.internal:6379', 'http://cache.internal', 'redis://', 'redis://:hunter2@cache.internal/zero'])
      expect(() => rateLimitCountersModule.readSettings({ REDIS_URL: value })).toThrow(/^REDIS_URL must /);
    expect(() => readRedisUrl({ REDIS_URL: 'http://:hunter2@cache' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
