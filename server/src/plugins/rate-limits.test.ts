import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimits } from '../config/rate-limits.ts';
import { routeTable } from '../generated/route-table.ts';
import type { RouteDefinition } from '../routing/route-definition.ts';
import { contractRequest } from '@gatehouse/testing/contract';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/** Tight limits so a handful of requests reach them: 3 per IP, 2 per email, per minute. */
const tight: RateLimits = {
  'sign-in': { perIp: 3, perEmail: 2, windowSeconds: 60, failuresOnly: true },
  'sign-up': { perIp: 3, perEmail: 2, windowSeconds: 60 },
  'send-code': { perIp: 3, perEmail: 2, windowSeconds: 60 },
  'check-code': { perIp: 3, windowSeconds: 60 },
};

let context: TestContext;
let project: TestProject;
beforeAll(async () => {
  context = await createTestContext({ rateLimits: tight });
  project = await context.createProject({
    'auth.password.allowSignIn': true,
    'auth.otp.allowSignIn': true,
    'domains.allowLocalhost': true,
  });
});
afterAll(() => context.close());

const limited = (routeTable as readonly RouteDefinition[]).filter((route) => route.rateLimit !== null);

describe.each(limited.map((route) => ({ route, name: `${route.method} ${route.url} (${route.rateLimit})` })))('$name', ({ route }) => {
  it('answers 429 with Retry-After once a client IP used up its bucket, and counts per IP', async () => {
    const url = route.url.replace(/:([A-Za-z_]+)/g, 'me');
    // Each test uses its own address, as a proxy we trust would report it.
    const ip = `10.9.${limited.indexOf(route)}.1`;
    const send = (from: string) =>
      context.request({
        method: route.method,
        url,
        headers: { ...project.headers.client, 'content-type': 'application/json' },
        payload: '{}',
        remoteAddress: from,
      });
    for (let attempt = 0; attempt < 3; attempt++) expect((await send(ip)).status).not.toBe(429);
    const limitedResponse = await send(ip);
    expect(limitedResponse.status).toBe(429);
    expect(Number(limitedResponse.headers['retry-after'])).toBeGreaterThan(0);
    // Typed JSON for generated clients, without the known-error header so Stack's SDKs still wait and retry.
    expect(limitedResponse.body).toEqual({
      code: 'RATE_LIMITED',
      error: expect.stringMatching(/^Too many requests/),
      details: { retry_after_seconds: Number(limitedResponse.headers['retry-after']) },
    });
    expect(limitedResponse.headers['x-stack-known-error']).toBeUndefined();
    // Another client is not affected.
    expect((await send(`10.8.${limited.indexOf(route)}.1`)).status).not.toBe(429);
  });
});

describe('per-email limits', () => {
  it('limit the codes sent to one address across many client IPs', async () => {
    const sendCode = (ip: string, email = 'target@example.com') =>
      context.request({
        method: 'POST',
        url: '/api/v1/auth/otp/send-sign-in-code',
        headers: project.headers.client,
        payload: { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
        remoteAddress: ip,
      });
    expect((await sendCode('10.20.0.1')).status).toBe(200);
    expect((await sendCode('10.20.0.2')).status).toBe(200);
    expect((await sendCode('10.20.0.3')).status).toBe(429);
    // Another address from the same IP still gets through.
    expect((await sendCode('10.20.0.3', 'someone-else@example.com')).status).toBe(200);
  });
});

describe('sign-in failures (2 per address and IP, a budget of 10 per address)', () => {
  let email: string;
  let app: TestContext['app'];
  beforeAll(async () => {
    const { buildApp } = await import('../app.ts');
    app = await buildApp({
      server: context.server,
      rateLimits: { ...tight, 'sign-in': { perIp: 100, perEmail: 2, windowSeconds: 60, failuresOnly: true } },
    });
    email = `owner-${Math.random()}@example.com`;
    await context.services.users.create(
      project.project,
      { primary_email: email, primary_email_auth_enabled: true, password: 'the right password' },
      'server',
    );
  });
  afterAll(() => app.close());
  const signIn = (ip: string, password: string, address = email) =>
    contractRequest(app, {
      method: 'POST',
      url: '/api/v1/auth/password/sign-in',
      headers: project.headers.client,
      payload: { email: address, password },
      remoteAddress: ip,
    });
  const timed = async (ip: string, password: string) => {
    const started = performance.now();
    const response = await signIn(ip, password);
    return { response, elapsed: performance.now() - started };
  };

  it('refuse an IP that failed on an address, not the other IPs; a success forgets the IP’s failures', async () => {
    expect((await signIn('10.50.0.1', 'wrong one')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    expect((await signIn('10.50.0.1', 'the right password')).status).toBe(200);
    expect((await signIn('10.50.0.1', 'wrong one')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    expect((await signIn('10.50.0.1', 'wrong two')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    const refused = await signIn('10.50.0.1', 'the right password');
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('failed attempts for this email from this address');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same IP on another address, and another IP on this one, are not refused.
    expect((await signIn('10.50.0.1', 'x', 'other@example.com')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    expect((await signIn('10.50.0.2', 'the right password')).status).toBe(200);
  });

  it('settle a success before its answer leaves: a slow store cannot forget failures made after it', async () => {
    const counter = app.rateLimitCounter;
    const forget = counter.forget.bind(counter);
    // A busy database: forgetting the IP's failures after a success takes 800 ms.
    counter.forget = async (key) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      return forget(key);
    };
    try {
      expect((await signIn('10.51.0.1', 'wrong one')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
      expect((await signIn('10.51.0.1', 'the right password')).status).toBe(200);
      // Failures right after the success must count, however late the store finishes forgetting.
      expect((await signIn('10.51.0.1', 'wrong two')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
      expect((await signIn('10.51.0.1', 'wrong three')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await signIn('10.51.0.1', 'the right password')).status).toBe(429);
    } finally {
      counter.forget = forget;
    }
  });

  const createOwner = async (extra: Record<string, unknown> = {}) => {
    const address = `owner-${Math.random()}@example.com`;
    await context.services.users.create(
      project.project,
      { primary_email: address, primary_email_auth_enabled: true, password: 'the right password', ...extra },
      'server',
    );
    return address;
  };

  it('count parallel attempts from one IP before checking them: no more than the limit get to guess', async () => {
    const address = await createOwner();
    // Eight guesses at once from one IP (limit 2): had each passed a check made before any was counted, all eight would guess.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => signIn('10.52.0.1', `parallel guess ${n}`, address)));
    expect(answers.filter((answer) => answer.body?.code === 'EMAIL_PASSWORD_MISMATCH')).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(6);
    for (const answer of refused) expect(answer.text).toContain('failed attempts for this email from this address');
    // Another IP still has its own two.
    expect((await signIn('10.52.0.2', 'the right password', address)).status).toBe(200);
  });

  it('take back an attempt counted up front that was no failed guess (a right password that needs the second factor)', async () => {
    const address = await createOwner({ totp_secret_base64: Buffer.from('12345678901234567890').toString('base64') });
    expect((await signIn('10.53.0.1', 'wrong one', address)).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await signIn('10.53.0.1', 'the right password', address)).body.code).toBe('MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    expect((await signIn('10.53.0.1', 'wrong two', address)).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    expect((await signIn('10.53.0.1', 'the right password', address)).status).toBe(429);
  });

  it('never lock the rightful owner out: failures from many IPs only slow every attempt, progressively', async () => {
    // Failures from many IPs (one each, as a botnet would): 5 above already, 5 more reach the budget of 10.
    for (let attempt = 0; attempt < 5; attempt++) expect((await signIn(`10.60.0.${attempt}`, 'guess')).status).toBe(400);
    const first = await timed('10.61.0.1', 'guess'); // 11th failure: waited nothing yet (10 is the budget)
    const second = await timed('10.61.0.2', 'guess'); // over by 1: waits 100 ms
    const third = await timed('10.61.0.3', 'guess'); // over by 2: 200 ms
    const fourth = await timed('10.61.0.4', 'guess'); // over by 3: 400 ms
    expect(first.response.status).toBe(400);
    expect(second.elapsed).toBeGreaterThanOrEqual(95);
    expect(third.elapsed).toBeGreaterThanOrEqual(195);
    expect(fourth.elapsed).toBeGreaterThanOrEqual(395);
    expect(fourth.response.body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    // The owner, from a fresh IP, right after: slowed (over by 4: 800 ms), not refused.
    const owner = await timed('10.70.0.1', 'the right password');
    expect(owner.response.status, owner.response.text).toBe(200);
    expect(owner.elapsed).toBeGreaterThanOrEqual(795);
  });
});

describe('client IP behind proxies', () => {
  const sendCode = (app: TestContext['app'], headers: Record<string, string>, remoteAddress: string) =>
    contractRequest(app, {
      method: 'POST',
      url: '/api/v1/auth/otp/send-sign-in-code',
      headers: { ...project.headers.client, ...headers },
      payload: { email: `x${Math.random()}@example.com`, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
      remoteAddress,
    });

  it('ignores X-Forwarded-For from an untrusted peer, so a spoofed header gets no fresh bucket', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await sendCode(context.app, { 'x-forwarded-for': `203.0.113.${attempt}` }, '10.30.0.1')).status).toBe(200);
    }
    expect((await sendCode(context.app, { 'x-forwarded-for': '203.0.113.99' }, '10.30.0.1')).status).toBe(429);
  });

  it('uses the forwarded client address when the peer is a trusted proxy', async () => {
    const { buildApp } = await import('../app.ts');
    const app = await buildApp({ server: context.server, rateLimits: tight, trustProxy: '10.40.0.1' });
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await sendCode(app, { 'x-forwarded-for': '198.51.100.7' }, '10.40.0.1')).status).toBe(200);
    expect((await sendCode(app, { 'x-forwarded-for': '198.51.100.7' }, '10.40.0.1')).status).toBe(429);
    // A different client behind the same proxy has its own bucket; a forged extra hop does not help.
    expect((await sendCode(app, { 'x-forwarded-for': '198.51.100.8' }, '10.40.0.1')).status).toBe(200);
    expect((await sendCode(app, { 'x-forwarded-for': '1.2.3.4, 198.51.100.7' }, '10.40.0.1')).status).toBe(429);
    await app.close();
  });
});
