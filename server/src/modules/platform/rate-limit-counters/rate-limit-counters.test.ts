import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimits } from '../../../config/rate-limits.ts';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/** Two instances (each its own app and pool) on one database, with one rate-limit namespace: one platform. */
const tight: RateLimits = {
  'sign-in': { perIp: 100, perEmail: 3, windowSeconds: 60, failuresOnly: true },
  'sign-up': { perIp: 6, perEmail: 4, windowSeconds: 60 },
  'send-code': { perIp: 100, perEmail: 4, windowSeconds: 60 },
  'check-code': { perIp: 6, windowSeconds: 60 },
};
const namespace = randomUUID();
let a: TestContext;
let b: TestContext;
let project: TestProject;
beforeAll(async () => {
  a = await createTestContext({ rateLimits: tight, rateLimitNamespace: namespace });
  b = await createTestContext({ rateLimits: tight, rateLimitNamespace: namespace });
  project = await a.createProject({ 'auth.password.allowSignIn': true, 'auth.otp.allowSignIn': true, 'domains.allowLocalhost': true });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const signIn = (instance: TestContext, email: string, remoteAddress: string) =>
  instance.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-in',
    headers: project.headers.client,
    payload: { email, password: 'wrong password' },
    remoteAddress,
  });

describe('rate limits shared by the instances on one database', () => {
  it('hold the per-IP limit across two instances (not twice the limit)', async () => {
    const signUp = (instance: TestContext, remoteAddress: string) =>
      instance.request({
        method: 'POST',
        url: '/api/v1/auth/password/sign-up',
        headers: project.headers.client,
        payload: {},
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) statuses.push((await signUp(attempt % 2 ? b : a, '10.70.0.1')).status);
    expect(statuses).toEqual([...Array(6).fill(400), ...Array(6).fill(429)]);
    // Another client has its own bucket on either instance.
    expect((await signUp(b, '10.70.0.2')).status).toBe(400);
  });

  it('hold the per-email limit across instances and client IPs', async () => {
    const sendCode = (instance: TestContext, remoteAddress: string) =>
      instance.request({
        method: 'POST',
        url: '/api/v1/auth/otp/send-sign-in-code',
        headers: project.headers.client,
        payload: { email: 'target@example.com', callback_url: 'http://localhost:3000/handler/magic-link-callback' },
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) statuses.push((await sendCode(attempt % 2 ? b : a, `10.71.0.${attempt}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
  });

  it('count sign-in failures of an address and IP across instances', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++)
      statuses.push((await signIn(attempt % 2 ? b : a, 'owner@example.com', '10.72.0.1')).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    expect((await signIn(b, 'owner@example.com', '10.72.0.2')).status).toBe(400);
  });

  it('count concurrent hits from both instances exactly once each (one upsert per hit)', async () => {
    const key = `concurrency:${randomUUID()}`;
    const hits = await Promise.all(
      Array.from({ length: 60 }, (_, index) => (index % 2 ? a : b).services.rateLimitCounter.hit(key, 60_000)),
    );
    expect(hits.map((hit) => hit.hits).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
    expect(Math.max(...hits.map((hit) => hit.resetInMs))).toBeLessThanOrEqual(60_000);
  });

  it('start a new window once the old one has passed', async () => {
    const key = `window:${randomUUID()}`;
    expect((await a.services.rateLimitCounter.hit(key, 200)).hits).toBe(1);
    expect((await b.services.rateLimitCounter.hit(key, 200)).hits).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const fresh = await b.services.rateLimitCounter.hit(key, 200);
    expect(fresh.hits).toBe(1);
    expect(fresh.resetInMs).toBeGreaterThan(0);
  });
});
