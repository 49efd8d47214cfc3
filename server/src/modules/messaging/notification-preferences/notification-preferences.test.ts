import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import { marketingCategoryId, signInAlertsCategoryId, transactionalCategoryId } from './notification-categories.ts';

/**
 * Users’ email notification preferences (docs/protocol/endpoints.md §21): the fixed categories (Stack’s two
 * and Gatehouse's Sign-in alerts) with their defaults, `me` and one's own id on client access, any user on server and admin access, and the
 * refusals (another user, no user, unknown user or category, disabling Transactional).
 */
const env = withTestContext();

type Headers = Record<string, string>;
const listUrl = (userId: string) => `/api/v1/emails/notification-preference/${userId}`;
const list = (headers: Headers, userId: string) => env.context.request({ method: 'GET', url: listUrl(userId), headers });
const update = (headers: Headers, userId: string, categoryId: string, enabled: boolean) =>
  env.context.request({ method: 'PATCH', url: `${listUrl(userId)}/${categoryId}`, headers, payload: { enabled } });

const transactional = {
  notification_category_id: transactionalCategoryId,
  notification_category_name: 'Transactional',
  can_disable: false,
};
const marketing = { notification_category_id: marketingCategoryId, notification_category_name: 'Marketing', can_disable: true };
/** Gatehouse's own category: the new-device sign-in email. */
const signInAlerts = { notification_category_id: signInAlertsCategoryId, notification_category_name: 'Sign-in alerts', can_disable: true };
const defaults = [
  { ...transactional, enabled: true },
  { ...marketing, enabled: true },
  { ...signInAlerts, enabled: true },
];

/** A signed-in user of the test project and client headers acting as it. */
async function newUser() {
  const { project, headers } = env.project;
  const user = await env.context.services.users.create(project, { primary_email: `np-${randomUUID().slice(0, 8)}@example.com` }, 'server');
  const tokens = await env.context.services.signIn.signIn(project, user);
  return { user, headers: { ...headers.client, 'x-stack-access-token': tokens.access_token } };
}

describe('client access to its own preferences', () => {
  it('lists every category, enabled by default', async () => {
    const { user, headers } = await newUser();
    const response = await list(headers, 'me');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: defaults, is_paginated: false });
    expect((await list(headers, user.id)).body.items).toEqual(defaults);
  });

  it('turns Marketing off and on again, through `me` and through its own id', async () => {
    const { user, headers } = await newUser();
    const off = await update(headers, 'me', marketingCategoryId, false);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...marketing, enabled: false });
    expect((await list(headers, 'me')).body.items).toEqual([
      { ...transactional, enabled: true },
      { ...marketing, enabled: false },
      { ...signInAlerts, enabled: true },
    ]);
    expect(await env.context.services.notificationPreferences.isEnabled(env.project.project.id, user.id, marketingCategoryId)).toBe(false);

    const on = await update(headers, user.id, marketingCategoryId.toUpperCase(), true);
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ ...marketing, enabled: true });
    expect((await list(headers, 'me')).body.items).toEqual(defaults);
    expect(await env.context.services.notificationPreferences.isEnabled(env.project.project.id, user.id, marketingCategoryId)).toBe(true);
  });

  it('refuses to turn Transactional off (NOTIFICATION_CATEGORY_NOT_DISABLABLE), and accepts turning it on', async () => {
    const { user, headers } = await newUser();
    const refused = { notification_category_id: transactionalCategoryId };
    expectError(await update(headers, 'me', transactionalCategoryId, false), 400, 'NOTIFICATION_CATEGORY_NOT_DISABLABLE', refused);
    expectError(
      await update(env.project.headers.server, user.id, transactionalCategoryId, false),
      400,
      'NOTIFICATION_CATEGORY_NOT_DISABLABLE',
      refused,
    );
    const on = await update(headers, 'me', transactionalCategoryId, true);
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ ...transactional, enabled: true });
    expect((await list(headers, 'me')).body.items).toEqual(defaults);
    const { notificationPreferences } = env.context.services;
    expect(await notificationPreferences.isEnabled(env.project.project.id, user.id, transactionalCategoryId)).toBe(true);
  });

  it('keeps each user’s choice to that user', async () => {
    const first = await newUser();
    const second = await newUser();
    await update(first.headers, 'me', marketingCategoryId, false);
    expect((await list(second.headers, 'me')).body.items).toEqual(defaults);
  });
});

describe('server and admin access', () => {
  it('read and change any user of the project', async () => {
    const { user, headers } = await newUser();
    const { server, admin } = env.project.headers;
    expect((await list(server, user.id)).body.items).toEqual(defaults);
    const changed = await update(server, user.id, marketingCategoryId, false);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...marketing, enabled: false });
    expect((await list(admin, user.id)).body.items[1]).toEqual({ ...marketing, enabled: false });
    expect((await update(admin, user.id, marketingCategoryId, true)).body.enabled).toBe(true);
    // The user sees what the server set.
    expect((await list(headers, 'me')).body.items).toEqual(defaults);
  });

  it('answer an unknown user with USER_NOT_FOUND and an unknown category with a plain-text 404', async () => {
    const { server } = env.project.headers;
    const nobody = randomUUID();
    expectError(await list(server, nobody), 404, 'USER_NOT_FOUND');
    expectError(await update(server, nobody, marketingCategoryId, false), 404, 'USER_NOT_FOUND');
    const { user, headers } = await newUser();
    expectPlain(await update(server, user.id, randomUUID(), false), 404);
    expectPlain(await update(headers, 'me', randomUUID(), true), 404);
    expectError(await update(server, user.id, 'not-a-uuid', false), 400, 'SCHEMA_ERROR');
  });

  it('do not reach users of another project', async () => {
    const other = await env.context.createProject();
    const { user } = await newUser();
    expectError(await list(other.headers.server, user.id), 404, 'USER_NOT_FOUND');
    expectError(await update(other.headers.server, user.id, marketingCategoryId, false), 404, 'USER_NOT_FOUND');
  });
});

describe('refusals on client access', () => {
  it('refuses another user’s id with a plain-text 403', async () => {
    const { headers } = await newUser();
    const { user: other } = await newUser();
    expectPlain(await list(headers, other.id), 403);
    expectPlain(await update(headers, other.id, marketingCategoryId, false), 403);
    expect((await list(env.project.headers.server, other.id)).body.items).toEqual(defaults);
  });

  it('answers `me` without a user with CANNOT_GET_OWN_USER_WITHOUT_USER, and an id without one with USER_AUTHENTICATION_REQUIRED', async () => {
    const { user } = await newUser();
    const { client, server } = env.project.headers;
    expectError(await list(client, 'me'), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await update(client, 'me', marketingCategoryId, false), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await list(server, 'me'), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await list(client, user.id), 401, 'USER_AUTHENTICATION_REQUIRED');
    expectError(await update(client, user.id, marketingCategoryId, false), 401, 'USER_AUTHENTICATION_REQUIRED');
    expect((await list(server, user.id)).body.items).toEqual(defaults);
  });
});
