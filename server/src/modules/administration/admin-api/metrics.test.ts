import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext();
const day = 24 * 60 * 60 * 1000;

describe('GET /internal/metrics', () => {
  it('counts users, sign-ups and activity per day, countries and methods, leaving anonymous users out unless asked', async () => {
    const { project, headers } = env.project;
    const { users } = env.context.services;
    const { db } = env.context.database;
    const make = async (daysAgo: number, write: Parameters<typeof users.create>[1], method: 'password' | 'otp' | 'anonymous') => {
      const user = await users.create(project, write, method);
      const at = new Date(Date.now() - daysAgo * day);
      await db.updateTable('project_user').set({ signed_up_at: at, last_active_at: at }).where('id', '=', user.id).execute();
      return user;
    };
    await make(0, { display_name: 'Today', country_code: 'DE' }, 'password');
    await make(0, { display_name: 'Also today', country_code: 'DE' }, 'otp');
    await make(3, { display_name: 'Three days', country_code: 'FR' }, 'password');
    await make(45, { display_name: 'Long ago' }, 'password');
    await make(1, { is_anonymous: true }, 'anonymous');

    const response = await env.context.request({ url: '/api/v1/internal/metrics', headers: headers.admin });
    expect(response.status).toBe(200);
    const metrics = response.body;
    expect(metrics.total_users).toBe(4);
    expect(metrics.daily_users).toHaveLength(30);
    expect(metrics.daily_users.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), activity: 2 });
    expect(metrics.daily_users.reduce((sum: number, point: { activity: number }) => sum + point.activity, 0)).toBe(3);
    expect(metrics.daily_active_users.at(-4).activity).toBe(1);
    expect(metrics.users_by_country).toEqual({ DE: 2, FR: 1 });
    expect(metrics.login_methods).toEqual([
      { method: 'password', count: 3 },
      { method: 'otp', count: 1 },
    ]);
    const registered = metrics.recently_registered.map((user: { display_name: string }) => user.display_name);
    expect(new Set(registered.slice(0, 2))).toEqual(new Set(['Today', 'Also today']));
    expect(registered.slice(2)).toEqual(['Three days', 'Long ago']);

    const withAnonymous = await env.context.request({ url: '/api/v1/internal/metrics?include_anonymous=true', headers: headers.admin });
    expect(withAnonymous.body.total_users).toBe(5);
    expect(withAnonymous.body.login_methods).toContainEqual({ method: 'anonymous', count: 1 });
  });
});
