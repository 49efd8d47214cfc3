import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { UserWrite } from '../../identity/users/user-writes.ts';

/** GET /internal/metrics/user-counts, GET /internal/user-activity, POST /internal/onboarding/preview-affected-users. */
const env = withTestContext();

type Headers = Record<string, string>;
const today = () => new Date().toISOString().slice(0, 10);

async function projectWithUsers() {
  const own = await env.context.createProject();
  const create = (write: UserWrite) => env.context.services.users.create(own.project, write, write.is_anonymous ? 'anonymous' : 'server');
  const email = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
  const verified = await create({ primary_email: email('verified'), primary_email_verified: true, display_name: 'Vera' });
  const unverified = await create({ primary_email: email('unverified'), primary_email_verified: false, display_name: 'Una' });
  const noEmail = await create({ display_name: 'Nobody' });
  const anonymous = await create({ is_anonymous: true });
  const adminRestricted = await create({ primary_email: email('held'), restricted_by_admin: true, restricted_by_admin_reason: 'spam' });
  return { ...own, users: { verified, unverified, noEmail, anonymous, adminRestricted } };
}

const preview = (headers: Headers, onboarding: object, query = '') =>
  env.context.request({
    method: 'POST',
    url: `/api/v1/internal/onboarding/preview-affected-users${query}`,
    headers,
    payload: { onboarding },
  });

describe('GET /internal/metrics/user-counts', () => {
  it('counts the users who are not anonymous and the anonymous ones', async () => {
    const { headers } = await projectWithUsers();
    const counts = await env.context.request({ url: '/api/v1/internal/metrics/user-counts', headers: headers.admin });
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ total_users: 4, anonymous_users: 1 });
    const empty = await env.context.createProject();
    expect((await env.context.request({ url: '/api/v1/internal/metrics/user-counts', headers: empty.headers.admin })).body).toEqual({
      total_users: 0,
      anonymous_users: 0,
    });
    expectError(
      await env.context.request({ url: '/api/v1/internal/metrics/user-counts', headers: headers.server }),
      401,
      'INSUFFICIENT_ACCESS_TYPE',
    );
    expectError(
      await env.context.request({ url: '/api/v1/internal/metrics/user-counts?x=1', headers: headers.admin }),
      400,
      'SCHEMA_ERROR',
    );
  });
});

describe('GET /internal/user-activity', () => {
  it("answers the last 30 days with the user's latest activity, and USER_NOT_FOUND for another project's user", async () => {
    const { headers, users } = await projectWithUsers();
    const response = await env.context.request({
      url: `/api/v1/internal/user-activity?user_id=${users.verified.id}`,
      headers: headers.admin,
    });
    expect(response.status).toBe(200);
    const points = response.body.data_points as Array<{ date: string; activity: number }>;
    expect(points).toHaveLength(30);
    expect(points.at(-1)).toEqual({ date: today(), activity: 1 });
    expect(points.slice(0, -1).every((point) => point.activity === 0)).toBe(true);

    const other = await env.context.createProject();
    const url = `/api/v1/internal/user-activity?user_id=${users.verified.id}`;
    expectError(await env.context.request({ url, headers: other.headers.admin }), 404, 'USER_NOT_FOUND');
    expectError(await env.context.request({ url: '/api/v1/internal/user-activity', headers: headers.admin }), 400, 'SCHEMA_ERROR');
    expectError(await env.context.request({ url, headers: headers.server }), 401, 'INSUFFICIENT_ACCESS_TYPE');
  });
});

describe('POST /internal/onboarding/preview-affected-users', () => {
  it('lists the users that requiring email verification would newly restrict, with the reason, changing nothing', async () => {
    const { headers, users } = await projectWithUsers();
    const response = await preview(headers.admin, { require_email_verification: true });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      affected_users: [
        {
          id: users.unverified.id,
          display_name: 'Una',
          primary_email: users.unverified.primary_email,
          restricted_reason: { type: 'email_not_verified' },
        },
        { id: users.noEmail.id, display_name: 'Nobody', primary_email: null, restricted_reason: { type: 'email_not_verified' } },
      ],
      total_affected_count: 2,
    });
    const limited = await preview(headers.admin, { require_email_verification: true }, '?limit=1');
    expect(limited.body.affected_users.map((user: { id: string }) => user.id)).toEqual([users.unverified.id]);
    expect(limited.body.total_affected_count).toBe(2);
    const config = JSON.parse((await env.context.request({ url: '/api/v1/internal/config', headers: headers.admin })).body.config_string);
    expect(config.onboarding.requireEmailVerification).toBe(false);
  });

  it('affects nobody when the change restricts nothing new', async () => {
    const { headers } = await projectWithUsers();
    const none = { affected_users: [], total_affected_count: 0 };
    expect((await preview(headers.admin, {})).body).toEqual(none);
    expect((await preview(headers.admin, { require_email_verification: false })).body).toEqual(none);
    const patched = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/config/override/environment',
      headers: headers.admin,
      payload: { config_override_string: JSON.stringify({ 'onboarding.requireEmailVerification': true }) },
    });
    expect(patched.status).toBe(200);
    expect((await preview(headers.admin, { require_email_verification: true })).body).toEqual(none);
  });

  it('refuses a bad limit or body, and access other than admin', async () => {
    const { headers } = await env.context.createProject();
    for (const query of ['?limit=0', '?limit=101', '?limit=ten']) {
      expectError(await preview(headers.admin, { require_email_verification: true }, query), 400, 'SCHEMA_ERROR');
    }
    expectError(await preview(headers.admin, { require_email_verification: 'yes' }), 400, 'SCHEMA_ERROR');
    const unreadable = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/onboarding/preview-affected-users',
      headers: { ...headers.admin, 'content-type': 'application/json' },
      payload: '{"onboarding":',
    });
    expectError(unreadable, 400, 'BODY_PARSING_ERROR');
    expectError(await preview(headers.server, {}), 401, 'INSUFFICIENT_ACCESS_TYPE');
  });
});
