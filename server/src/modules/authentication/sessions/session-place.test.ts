import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.ts';
import { contractRequest } from '@gatehouse/testing/contract';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * Device and place of a session: the user agent parsed into browser / OS / kind of device, and the
 * client IP (as a trusted proxy reports it in X-Forwarded-For) placed by the bundled DB-IP database
 * into Stack's `last_used_at_end_user_ip_info`; the sign-up's country becomes the user's, which the
 * dashboard's countries chart counts.
 */
const env = withTestContext({ projectConfig: { 'auth.password.allowSignIn': true } });

const iphoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
/** A public address DB-IP places in London (also MaxMind's documented test address). */
const londonIp = '81.2.69.160';

let behindProxy: FastifyInstance;
beforeAll(async () => {
  // The app as `TRUST_PROXY=127.0.0.1` builds it: injected requests come from 127.0.0.1, the proxy.
  behindProxy = await buildApp({ server: env.context.server, rateLimits: null, trustProxy: '127.0.0.1' });
  await behindProxy.ready();
});
afterAll(() => behindProxy?.close());

async function signUp(app: FastifyInstance, headers: Record<string, string>) {
  const response = await contractRequest(app, {
    method: 'POST',
    url: '/api/v1/auth/password/sign-up',
    headers: { ...env.project.headers.client, ...headers },
    payload: { email: `place-${randomUUID()}@example.com`, password: 'correct horse battery' },
  });
  expect(response.status, response.text).toBe(200);
  return response.body as { access_token: string; user_id: string };
}

const listSessions = (accessToken: string) =>
  env.context.request({
    url: '/api/v1/auth/sessions?user_id=me',
    headers: { ...env.project.headers.client, 'x-stack-access-token': accessToken },
  });

describe('device and place of a session', () => {
  it('lists the country, city and device of a sign-in from a public IP behind a trusted proxy', async () => {
    const { access_token, user_id } = await signUp(behindProxy, { 'x-forwarded-for': londonIp, 'user-agent': iphoneSafari });
    const response = await listSessions(access_token);
    expect(response.status).toBe(200);
    const [session] = response.body.items;
    expect(session.last_used_at_end_user_ip_info).toMatchObject({
      ip: londonIp,
      countryCode: 'GB',
      regionName: 'England',
      cityName: 'London',
      regionCode: null,
    });
    expect(session.last_used_at_end_user_ip_info.latitude).toBeCloseTo(51.5, 0);
    expect(session.device).toEqual({ browser: 'Mobile Safari 17', os: 'iOS 17.1', device_type: 'mobile' });

    const user = await env.context.request({ url: `/api/v1/users/${user_id}`, headers: env.project.headers.server });
    expect(user.body.country_code).toBe('GB');
    const metrics = await env.context.request({ url: '/api/v1/internal/metrics', headers: env.project.headers.admin });
    expect(metrics.body.users_by_country.GB).toBeGreaterThanOrEqual(1);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const { access_token, user_id } = await signUp(env.context.app, { 'x-forwarded-for': londonIp, 'user-agent': iphoneSafari });
    const [session] = (await listSessions(access_token)).body.items;
    expect(session.last_used_at_end_user_ip_info).toMatchObject({ ip: '127.0.0.1', countryCode: null, cityName: null });
    const user = await env.context.request({ url: `/api/v1/users/${user_id}`, headers: env.project.headers.server });
    expect(user.body.country_code).toBeNull();
  });

  it('keeps a country given at sign-up, and leaves out the device when no user agent was sent', async () => {
    const { access_token, user_id } = await signUp(behindProxy, { 'x-forwarded-for': '2a00:1450:4001:82a::200e', 'user-agent': '' });
    const [session] = (await listSessions(access_token)).body.items;
    expect(session.last_used_at_end_user_ip_info).toMatchObject({ countryCode: 'DE', cityName: 'Frankfurt am Main' });
    expect(session.device).toBeUndefined();
    const server = await env.context.services.users.create(env.project.project, { country_code: 'FR' }, 'password', undefined, {
      ip: londonIp,
    });
    expect(server.country_code).toBe('FR');
    expect((await env.context.services.users.get(env.project.project.id, user_id)).country_code).toBe('DE');
  });
});
