import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * A user's contact channels (docs/protocol/endpoints.md §11): CRUD for `me` and, on server access, any user; the
 * auth-email uniqueness rule; one primary; verification by emailed code, including the legacy form.
 */
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({ projectConfig: { 'domains.trustedDomains': trustedDomains } });
const callback = 'https://app.example.com/handler/email-verification';
const untrusted = 'https://evil.example.org/handler/email-verification';

type Headers = Record<string, string>;
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const server = () => env.project.headers.server;
const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1/contact-channels${url}`, headers, ...(payload ? { payload } : {}) });
const create = (headers: Headers, body: object) => request('POST', '', headers, { type: 'email', used_for_auth: false, ...body });
const list = (headers: Headers, userId: string) => request('GET', `?user_id=${userId}`, headers);
const channelUrl = (userId: string, channelId: string) => `/${userId}/${channelId}`;
const sendCode = (headers: Headers, userId: string, channelId: string, url = callback) =>
  request('POST', `${channelUrl(userId, channelId)}/send-verification-code`, headers, { callback_url: url });
const verify = (code: string) => request('POST', '/verify', env.project.headers.client, { code });
const check = (code: string) => request('POST', '/verify/check-code', env.project.headers.client, { code });
const emailsTo = (address: string) => env.context.sentEmails.filter((email) => email.to === address);

/** A user (with a primary auth email unless `null`), its session, and client headers acting as it. */
async function newUser(email: string | null = newEmail('user'), verified = false) {
  const { users, signIn } = env.context.services;
  const write = email ? { primary_email: email, primary_email_auth_enabled: true, primary_email_verified: verified } : {};
  const user = await users.create(env.project.project, write, 'server');
  const tokens = await signIn.signIn(env.project.project, user);
  return { user, email, headers: { ...env.project.headers.client, 'x-stack-access-token': tokens.access_token } };
}

describe('contact channel CRUD', () => {
  it('lets a client manage its own channels through `me`', async () => {
    const { user, email, headers } = await newUser();
    const value = newEmail('second');
    const created = await create(headers, { user_id: 'me', value });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      user_id: user.id,
      type: 'email',
      value,
      used_for_auth: false,
      is_verified: false,
      is_primary: false,
    });
    const listed = await list(headers, 'me');
    expect(listed.status).toBe(200);
    expect(listed.body.is_paginated).toBe(false);
    expect(listed.body.items.map((channel: { value: string }) => channel.value)).toEqual([email, value]);

    const url = channelUrl('me', created.body.id);
    expect((await request('GET', url, headers)).body).toEqual(created.body);
    const updated = await request('PATCH', url, headers, { used_for_auth: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...created.body, used_for_auth: true });
    const deleted = await request('DELETE', url, headers);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expectPlain(await request('GET', url, headers), 404);
    expect((await list(headers, user.id)).body.items).toHaveLength(1);
  });

  it('lets the server manage any user’s channels, and mark them verified', async () => {
    const { user } = await newUser(null);
    const value = newEmail('server');
    const created = await create(server(), { user_id: user.id, value, is_verified: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ user_id: user.id, value, is_verified: true, is_primary: false });
    const url = channelUrl(user.id, created.body.id);
    expect((await request('GET', url, server())).body).toEqual(created.body);
    expect((await request('PATCH', url, server(), { is_verified: false })).body.is_verified).toBe(false);
    expect((await request('PATCH', url, server(), { is_verified: true })).body.is_verified).toBe(true);
    expect((await list(server(), user.id)).body.items).toEqual([created.body]);
    expect((await request('DELETE', url, server())).body).toEqual({ success: true });
    expect((await list(server(), user.id)).body.items).toEqual([]);
  });

  it('makes a changed value unverified again; the same value in another case stays verified', async () => {
    const { user } = await newUser(null);
    const value = newEmail('change');
    const created = await create(server(), { user_id: user.id, value, is_verified: true });
    const url = channelUrl(user.id, created.body.id);
    expect((await request('PATCH', url, server(), { value: value.toUpperCase() })).body.is_verified).toBe(true);
    const changed = await request('PATCH', url, server(), { value: newEmail('changed') });
    expect(changed.status).toBe(200);
    expect(changed.body.is_verified).toBe(false);
  });

  it('refuses other users to a client, `me` without a user, unknown users and channels', async () => {
    const { headers } = await newUser();
    const { user: other } = await newUser();
    const [otherChannel] = (await list(server(), other.id)).body.items;
    const otherUrl = channelUrl(other.id, otherChannel.id);
    for (const response of [
      await list(headers, other.id),
      await create(headers, { user_id: other.id, value: newEmail('x') }),
      await request('GET', otherUrl, headers),
      await request('PATCH', otherUrl, headers, { used_for_auth: false }),
      await request('DELETE', otherUrl, headers),
      await sendCode(headers, other.id, otherChannel.id),
    ]) {
      expectPlain(response, 403);
    }
    expect((await request('GET', otherUrl, server())).body).toEqual(otherChannel);

    const anonymous = env.project.headers.client;
    expectError(await list(anonymous, 'me'), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await create(anonymous, { user_id: 'me', value: newEmail('x') }), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await request('GET', channelUrl('me', otherChannel.id), anonymous), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(
      await request('PATCH', channelUrl('me', otherChannel.id), anonymous, { used_for_auth: false }),
      400,
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
    );
    expectError(await request('DELETE', channelUrl('me', otherChannel.id), anonymous), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(
      await request('POST', `${channelUrl('me', otherChannel.id)}/send-verification-code`, anonymous, {
        callback_url: 'https://app.example.com/handler/verify',
      }),
      400,
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
    );

    const nobody = randomUUID();
    expectError(await list(server(), nobody), 404, 'USER_NOT_FOUND');
    expectError(await create(server(), { user_id: nobody, value: newEmail('x') }), 404, 'USER_NOT_FOUND');
    const unknown = channelUrl('me', randomUUID());
    expectPlain(await request('GET', unknown, headers), 404);
    expectPlain(await request('PATCH', unknown, headers, { used_for_auth: false }), 404);
    expectPlain(await request('DELETE', unknown, headers), 404);
    expectPlain(await request('POST', `${unknown}/send-verification-code`, headers, { callback_url: callback }), 404);
    // Another user's channel id under one's own `me` is unknown too.
    expectPlain(await request('GET', channelUrl('me', otherChannel.id), headers), 404);
  });

  it('refuses is_verified from a client with SCHEMA_ERROR', async () => {
    const { headers } = await newUser();
    const value = newEmail('client');
    const response = await create(headers, { user_id: 'me', value, is_verified: true });
    expectError(response, 400, 'SCHEMA_ERROR');
    expect(response.body.details.message).toContain('is_verified');
    expect((await list(headers, 'me')).body.items).toHaveLength(1);
    const [primary] = (await list(headers, 'me')).body.items;
    expectError(await request('PATCH', channelUrl('me', primary.id), headers, { is_verified: true }), 400, 'SCHEMA_ERROR');
    expect((await request('GET', channelUrl('me', primary.id), headers)).body.is_verified).toBe(false);
  });

  it('refuses an address another user signs in with, only when used for auth', async () => {
    const { email: taken } = await newUser();
    const { user } = await newUser(null);
    const conflict = {
      type: 'email',
      contact_channel_value: taken?.toUpperCase(),
      would_work_if_email_was_verified: false,
    };
    const refused = await create(server(), { user_id: user.id, value: taken?.toUpperCase(), used_for_auth: true });
    expectError(refused, 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
    expect(refused.body.details).toEqual(conflict);

    const allowed = await create(server(), { user_id: user.id, value: taken?.toUpperCase() });
    expect(allowed.status).toBe(201);
    const url = channelUrl(user.id, allowed.body.id);
    const switched = await request('PATCH', url, server(), { used_for_auth: true });
    expectError(switched, 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
    expect(switched.body.details).toEqual(conflict);

    const own = await create(server(), { user_id: user.id, value: newEmail('own'), used_for_auth: true });
    const renamed = await request('PATCH', channelUrl(user.id, own.body.id), server(), { value: taken });
    expectError(renamed, 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
    expect(renamed.body.details).toEqual({ ...conflict, contact_channel_value: taken });
    expect((await request('GET', url, server())).body.used_for_auth).toBe(false);
  });

  it('refuses a second channel with the same address for one user (CONTACT_CHANNEL_ALREADY_EXISTS)', async () => {
    const { email, headers } = await newUser();
    expectError(await create(headers, { user_id: 'me', value: email?.toUpperCase() }), 400, 'CONTACT_CHANNEL_ALREADY_EXISTS');
    const other = await create(headers, { user_id: 'me', value: newEmail('second') });
    expect(other.status).toBe(201);
    const renamed = await request('PATCH', channelUrl('me', other.body.id), headers, { value: email });
    expectError(renamed, 400, 'CONTACT_CHANNEL_ALREADY_EXISTS');
    expect(renamed.body.error).toBe('The user already has this contact channel.');
  });

  it('keeps one primary channel: a new primary un-primaries the previous one', async () => {
    const { email, headers } = await newUser();
    const value = newEmail('primary');
    const created = await create(headers, { user_id: 'me', value, is_primary: true });
    expect(created.body.is_primary).toBe(true);
    const primaries = async () =>
      (await list(headers, 'me')).body.items.map((channel: { value: string; is_primary: boolean }) => [channel.value, channel.is_primary]);
    expect(await primaries()).toEqual([
      [value, true],
      [email, false],
    ]);
    const me = await env.context.request({ url: '/api/v1/users/me', headers });
    expect(me.body.primary_email).toBe(value);

    const { email: taken } = await newUser();
    const refused = await create(headers, { user_id: 'me', value: taken, used_for_auth: true, is_primary: true });
    expectError(refused, 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
    expect(await primaries()).toEqual([
      [value, true],
      [email, false],
    ]);

    const [, old] = (await list(headers, 'me')).body.items;
    expect((await request('PATCH', channelUrl('me', old.id), headers, { is_primary: true })).body.is_primary).toBe(true);
    expect(await primaries()).toEqual([
      [email, true],
      [value, false],
    ]);
  });
});

describe('channel verification', () => {
  /** A user, its unverified second channel, and the code emailed for it. */
  async function pendingChannel() {
    const owner = await newUser();
    const value = newEmail('pending');
    const channel = (await create(owner.headers, { user_id: 'me', value })).body;
    const response = await sendCode(owner.headers, 'me', channel.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    return { ...owner, channel, value, code: env.context.codeSentTo(value) };
  }
  const expire = (code: string) => env.context.expireCode(code);

  it('emails a code that verifies the channel; checking does not use it up', async () => {
    const { headers, channel, value, code } = await pendingChannel();
    expect(emailsTo(value)).toHaveLength(1);
    expect(emailsTo(value)[0]?.text).toContain(`${callback}?code=${code}`);
    for (let time = 0; time < 2; time++) expect((await check(code)).body).toEqual({ is_code_valid: true });
    expect((await request('GET', channelUrl('me', channel.id), headers)).body.is_verified).toBe(false);
    const verified = await verify(code.toUpperCase());
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    expect((await request('GET', channelUrl('me', channel.id), headers)).body.is_verified).toBe(true);
    expectError(await sendCode(headers, 'me', channel.id), 409, 'EMAIL_ALREADY_VERIFIED');
    expectError(await verify(code), 409, 'VERIFICATION_CODE_ALREADY_USED');
    expectError(await check(code), 409, 'VERIFICATION_CODE_ALREADY_USED');
  });

  it('is sent by the server for any user, never to an untrusted callback', async () => {
    const { user, value, channel } = await pendingChannel();
    expectError(await sendCode(server(), user.id, channel.id, untrusted), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    expect(emailsTo(value)).toHaveLength(1);
    expect((await sendCode(server(), user.id, channel.id)).status).toBe(200);
    expect(emailsTo(value)).toHaveLength(2);
  });

  it('refuses expired, unknown and exhausted codes', async () => {
    const expired = await pendingChannel();
    await expire(expired.code);
    expectError(await verify(expired.code), 400, 'VERIFICATION_CODE_EXPIRED');
    expectError(await check(expired.code), 400, 'VERIFICATION_CODE_EXPIRED');

    const reset = await env.context.services.verificationCodes.issue(env.project.project.id, 'password_reset', {});
    for (const code of ['a'.repeat(45), reset.code]) {
      expectError(await verify(code), 404, 'VERIFICATION_CODE_NOT_FOUND');
      expectError(await check(code), 404, 'VERIFICATION_CODE_NOT_FOUND');
    }

    const guessed = await pendingChannel();
    for (let attempt = 1; attempt <= 20; attempt++) {
      // '0' and '1' are not base32: the guessed first characters never equal the real ones.
      const response = await (attempt % 2 ? verify : check)(`${String(attempt).padStart(6, '0')}${guessed.code.slice(6)}`);
      if (attempt < 20) expectError(response, 404, 'VERIFICATION_CODE_NOT_FOUND');
      else expectError(response, 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    }
    expectError(await check(guessed.code), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expectError(await verify(guessed.code), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    const channel = await request('GET', channelUrl('me', guessed.channel.id), guessed.headers);
    expect(channel.body.is_verified).toBe(false);
  });

  it('does not verify the new address of a channel changed after the code was sent', async () => {
    const { headers, channel, code } = await pendingChannel();
    const renamed = await request('PATCH', channelUrl('me', channel.id), headers, { value: newEmail('renamed') });
    expect(renamed.body.is_verified).toBe(false);
    await verify(code);
    expect((await request('GET', channelUrl('me', channel.id), headers)).body).toEqual(renamed.body);
  });
});

describe('POST /contact-channels/send-verification-code (legacy, primary email)', () => {
  const sendPrimary = (headers: Headers, email: string | null | undefined, url = callback) =>
    request('POST', '/send-verification-code', headers, { email, callback_url: url });

  it('emails a code for the primary email, in any case, that verifies it', async () => {
    const { email, headers } = await newUser();
    const response = await sendPrimary(headers, email?.toUpperCase());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    const code = env.context.codeSentTo(email as string);
    expect((await verify(code)).status).toBe(200);
    const me = await env.context.request({ url: '/api/v1/users/me', headers });
    expect(me.body.primary_email_verified).toBe(true);
    expectError(await sendPrimary(headers, email), 409, 'EMAIL_ALREADY_VERIFIED');
  });

  it('refuses an email that is not the primary one, and an untrusted callback', async () => {
    const { email, headers } = await newUser();
    const other = newEmail('other');
    const wrong = await sendPrimary(headers, other);
    expectError(wrong, 400, 'EMAIL_IS_NOT_PRIMARY_EMAIL');
    expect(wrong.body.details).toEqual({ email: other, primary_email: email });
    const { headers: withoutEmail } = await newUser(null);
    expect((await sendPrimary(withoutEmail, other)).body.details).toEqual({ email: other, primary_email: null });
    expectError(await sendPrimary(headers, email, untrusted), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    expect(emailsTo(email as string)).toHaveLength(0);
    expect(emailsTo(other)).toHaveLength(0);
  });

  it('refuses an already verified primary email', async () => {
    const { email, headers } = await newUser(newEmail('verified'), true);
    expectError(await sendPrimary(headers, email), 409, 'EMAIL_ALREADY_VERIFIED');
  });
});
