import { beforeAll, describe, expect, it } from 'vitest';
import { maxJsonDepth } from '../routing/unsafe-input.ts';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * Input no field accepts (unsafe-input.ts) is SCHEMA_ERROR in the envelope, wherever it is: a body
 * field, metadata JSON, a field name, a query, the path. Each of these answered 500 (or a bare
 * Fastify body) before, and nothing of it reaches the database.
 */
const env = withTestContext();
let accessToken: string;
let userId: string;
beforeAll(async () => {
  const { project } = env.project;
  const user = await env.context.services.users.create(project, { primary_email: 'hostile@example.com', display_name: 'Kept' }, 'server');
  userId = user.id;
  accessToken = (await env.context.services.signIn.signIn(project, user)).access_token;
});

const json = { 'content-type': 'application/json' };
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

async function expectSchemaError(response: { status: number; body: { code?: string; details?: { message?: string } } }, text: string) {
  expect(response.status).toBe(400);
  expect(response.body.code).toBe('SCHEMA_ERROR');
  expect(response.body.details?.message).toContain(text);
}

describe('input no field accepts', () => {
  const updateUser = (payload: string) =>
    env.context.request({ method: 'PATCH', url: `/api/v1/users/${userId}`, headers: { ...env.project.headers.server, ...json }, payload });

  it('refuses a NUL character in a text field, in metadata and in a field name, and changes nothing', async () => {
    await expectSchemaError(await updateUser('{"display_name":"a\\u0000b"}'), 'body/display_name must not contain the NUL character');
    await expectSchemaError(await updateUser('{"client_metadata":{"a":["\\u0000"]}}'), 'body/client_metadata/a/0 must not contain the NUL');
    await expectSchemaError(await updateUser('{"server_metadata":{"a\\u0000":1}}'), 'has a field name that contains the NUL');
    const signIn = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-in',
      headers: { ...env.project.headers.client, ...json },
      payload: '{"email":"a\\u0000@example.com","password":"x"}',
    });
    await expectSchemaError(signIn, 'body/email must not contain the NUL character');
    const user = await env.context.services.users.get(env.project.project.id, userId);
    expect(user.display_name).toBe('Kept');
  });

  it('refuses unpaired surrogates (which would be stored as U+FFFD) but keeps paired ones', async () => {
    await expectSchemaError(
      await updateUser('{"display_name":"\\ud800"}'),
      'body/display_name must not contain an unpaired UTF-16 surrogate',
    );
    await expectSchemaError(await updateUser('{"client_read_only_metadata":{"a":"x\\udc00"}}'), 'body/client_read_only_metadata/a');
    const paired = await updateUser('{"display_name":"\\ud83d\\ude00 ok","client_metadata":{"emoji":"\\ud83d\\ude00"}}');
    expect(paired.status).toBe(200);
    expect(paired.body.display_name).toBe('😀 ok');
    expect(paired.body.client_metadata).toEqual({ emoji: '😀' });
  });

  it(`refuses JSON nested more than ${maxJsonDepth} levels (5,000 levels overflowed the stack) and accepts ${maxJsonDepth - 1}`, async () => {
    await expectSchemaError(await updateUser(`{"client_metadata":${nested(5000)}}`), `more than ${maxJsonDepth} levels deep`);
    const me = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': accessToken, ...json },
      payload: `{"client_metadata":${nested(5000)}}`,
    });
    await expectSchemaError(me, 'levels deep');
    // The body is level 0 and client_metadata level 1: its value may hold 62 more levels.
    const deepest = await updateUser(`{"client_metadata":${nested(maxJsonDepth - 1)}}`);
    expect(deepest.status).toBe(200);
  });

  it('refuses a NUL character in a query field', async () => {
    const response = await env.context.request({ url: '/api/v1/users?query=a%00b', headers: env.project.headers.server });
    await expectSchemaError(response, 'querystring/query must not contain the NUL character');
  });

  it('answers a path with a bad %-escape or an over-long parameter with SCHEMA_ERROR in the envelope', async () => {
    const badEscape = await env.context.request({ url: '/api/v1/users/%E0%A4%A', headers: env.project.headers.server });
    await expectSchemaError(badEscape, 'does not decode');
    const long = await env.context.request({ url: `/api/v1/users/${'x'.repeat(600)}`, headers: env.project.headers.server });
    await expectSchemaError(long, 'longer than 500 characters');
    expect(long.headers['x-stack-request-id']).toBeTruthy();
  });

  it('answers a NUL or a cookie-breaking character in the OAuth callback state without a 500 or an internal message', async () => {
    const nul = await env.context.request({ url: '/api/v1/auth/oauth/callback/google?state=a%00b&code=x' });
    await expectSchemaError(nul, 'querystring/state must not contain the NUL character');
    for (const state of ['a%3Bb', 'a%20b', 'a%2Cb%3D']) {
      const response = await env.context.request({ url: `/api/v1/auth/oauth/callback/google?state=${state}&code=x` });
      expect(response.status, state).toBe(400);
      expect(response.text).not.toContain('cookie');
    }
  });

  it('caps each metadata kind of users and teams at 100,000 characters of JSON with SCHEMA_ERROR, keeping the old value', async () => {
    // {"a":"..."} is 8 characters around the string.
    const sized = (length: number) => JSON.stringify({ a: 'm'.repeat(length - 8) });
    expect(sized(100_000)).toHaveLength(100_000);
    const atLimit = await updateUser(`{"client_metadata":${sized(100_000)}}`);
    expect(atLimit.status).toBe(200);
    for (const kind of ['client_metadata', 'client_read_only_metadata', 'server_metadata']) {
      await expectSchemaError(
        await updateUser(`{"${kind}":${sized(100_001)}}`),
        `body/${kind} must be at most 100000 characters written as JSON`,
      );
    }
    const me = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': accessToken, ...json },
      payload: `{"client_metadata":${sized(100_001)}}`,
    });
    await expectSchemaError(me, 'body/client_metadata must be at most 100000 characters');
    const user = await env.context.services.users.get(env.project.project.id, userId);
    expect(JSON.stringify(user.client_metadata)).toHaveLength(100_000);
    const team = await env.context.request({
      method: 'POST',
      url: '/api/v1/teams',
      headers: { ...env.project.headers.server, ...json },
      payload: `{"display_name":"Big","server_metadata":${sized(100_001)}}`,
    });
    await expectSchemaError(team, 'body/server_metadata must be at most 100000 characters');
  });
});
