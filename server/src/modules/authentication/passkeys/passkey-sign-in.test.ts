import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { newSigningKey, SoftwareAuthenticator } from '@gatehouse/testing/software-authenticator';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { passkeyClient, passkeyProjectConfig, userWithPasskey } from '@gatehouse/testing/passkey-test-client';
import { relyingPartySentinel } from './webauthn-rules.ts';

/**
 * Signing in with a passkey (docs/protocol/endpoints.md §4): assertions of a software authenticator go through
 * @simplewebauthn/server's verification; every failure is PASSKEY_AUTHENTICATION_FAILED.
 */
const env = withTestContext({ projectConfig: passkeyProjectConfig });
const client = passkeyClient(env);
let passkeysOff: TestProject;

beforeAll(async () => {
  passkeysOff = await env.context.createProject({ ...passkeyProjectConfig, 'auth.passkey.allowSignIn': false });
});

const counterOf = async (credentialId: string) =>
  Number(
    (
      await env.context.database.db
        .selectFrom('passkey')
        .select('counter')
        .where('credential_id', '=', credentialId)
        .executeTakeFirstOrThrow()
    ).counter,
  );

describe('POST /auth/passkey/initiate-passkey-authentication', () => {
  it('answers request options for discoverable credentials with the rp id sentinel, without a user', async () => {
    const { options_json, code } = await client.initiateAuthentication();
    expect(code).toMatch(/^[a-z2-7]{45}$/);
    expect(options_json).toEqual({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      rpId: relyingPartySentinel,
      allowCredentials: [],
      timeout: 60000,
      userVerification: 'preferred',
    });
  });

  it('is refused while passkey sign-in is off', async () => {
    expectError(
      await client.post('initiate-passkey-authentication', passkeysOff.headers.client),
      400,
      'PASSKEY_AUTHENTICATION_NOT_ENABLED',
    );
  });
});

describe('POST /auth/passkey/sign-in', () => {
  it('signs the passkey’s user in, and each authenticator of a user works', async () => {
    const { user, headers, authenticator, credential } = await userWithPasskey(client);
    const { response } = await client.signIn(authenticator);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ user_id: user.id, is_new_user: false });
    expect(decodeJwt(response.body.access_token)).toMatchObject({ sub: user.id, email: user.primary_email });
    expect(await counterOf(credential.id)).toBe(1);
    const second = new SoftwareAuthenticator();
    expect((await client.register(second, headers)).response.status).toBe(200);
    expect((await client.signIn(second)).response.body.user_id).toBe(user.id);
    expect((await client.signIn(authenticator)).response.body.user_id).toBe(user.id);
  });

  it('accepts an absent user handle, and an authenticator without a counter (always 0)', async () => {
    const { user, authenticator } = await userWithPasskey(client);
    expect((await client.signIn(authenticator, { overrides: { userHandle: null } })).response.body.user_id).toBe(user.id);
    const counterless = await userWithPasskey(client);
    for (let round = 0; round < 2; round++) {
      const { response } = await client.signIn(counterless.authenticator, { overrides: { counter: 0 } });
      expect(response.status, response.text).toBe(200);
    }
  });

  it.each([
    ['another challenge', { challenge: Buffer.from('not the challenge').toString('base64url') }],
    ['a signature by another key', { signingKey: newSigningKey() }],
    ['authenticator data changed after signing', { tamper: true }],
    ['an untrusted origin', { origin: 'https://evil.example.org' }],
    ['a parent domain as rp id', { rpId: 'example.com' }],
    ['a creation instead of an assertion', { type: 'webauthn.create' }],
    ['an empty user handle (0 bytes)', { userHandle: '' }],
    ['a user handle of 65 bytes', { userHandle: Buffer.alloc(65, 1).toString('base64url') }],
    ['a user handle of 64 bytes that is not the passkey’s', { userHandle: Buffer.alloc(64, 1).toString('base64url') }],
  ])('refuses %s: PASSKEY_AUTHENTICATION_FAILED, and the code is used up', async (_name, overrides) => {
    const { authenticator, credential } = await userWithPasskey(client);
    const { response, assertion, code } = await client.signIn(authenticator, { overrides });
    expectError(response, 400, 'PASSKEY_AUTHENTICATION_FAILED');
    expect(await counterOf(credential.id)).toBe(0);
    const retry = await client.post('sign-in', env.project.headers.client, { authentication_response: assertion, code });
    expectError(retry, 409, 'VERIFICATION_CODE_ALREADY_USED');
  });

  it('refuses another user’s user handle and an unknown credential', async () => {
    const alice = await userWithPasskey(client);
    const bob = await userWithPasskey(client);
    const handle = Buffer.from(bob.user.id).toString('base64url');
    expectError(
      (await client.signIn(alice.authenticator, { overrides: { userHandle: handle } })).response,
      400,
      'PASSKEY_AUTHENTICATION_FAILED',
    );
    // A credential the authenticator made for a registration that never reached the server.
    const stranger = new SoftwareAuthenticator();
    stranger.register({ challenge: 'x', rp: { id: 'app.example.com' }, user: { id: handle } });
    const unknown = await client.signIn(stranger);
    expectError(unknown.response, 400, 'PASSKEY_AUTHENTICATION_FAILED');
    expect(unknown.response.body.error).toMatch(/not found/);
  });

  it('refuses a signature counter that does not grow (a cloned authenticator)', async () => {
    const { authenticator, credential } = await userWithPasskey(client);
    expect((await client.signIn(authenticator, { overrides: { counter: 5 } })).response.status).toBe(200);
    expectError((await client.signIn(authenticator, { overrides: { counter: 5 } })).response, 400, 'PASSKEY_AUTHENTICATION_FAILED');
    expectError((await client.signIn(authenticator, { overrides: { counter: 3 } })).response, 400, 'PASSKEY_AUTHENTICATION_FAILED');
    expect(await counterOf(credential.id)).toBe(5);
    expect((await client.signIn(authenticator, { overrides: { counter: 6 } })).response.status).toBe(200);
  });

  it('answers the code errors: unknown, a registration code, used, expired, exhausted', async () => {
    const { headers, authenticator } = await userWithPasskey(client);
    const { options_json, code } = await client.initiateAuthentication();
    const assertion = authenticator.authenticate({ ...options_json, rpId: 'app.example.com' });
    const signIn = (candidate: string) =>
      client.post('sign-in', env.project.headers.client, { authentication_response: assertion, code: candidate });
    expectError(await signIn('a'.repeat(45)), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expectError(await signIn((await client.initiateRegistration(headers)).code), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expect((await signIn(code)).status).toBe(200);
    expectError(await signIn(code), 409, 'VERIFICATION_CODE_ALREADY_USED');

    const expiring = await client.initiateAuthentication();
    await env.context.expireCode(expiring.code);
    expectError(await signIn(expiring.code), 400, 'VERIFICATION_CODE_EXPIRED');

    const guessed = await client.initiateAuthentication();
    const nonce = guessed.code.slice(6);
    for (let attempt = 1; attempt <= 20; attempt++) {
      // '0' and '1' are not base32: the guess never equals the real code.
      const response = await signIn(`${String(attempt).padStart(6, '0')}${nonce}`);
      if (attempt < 20) expectError(response, 404, 'VERIFICATION_CODE_NOT_FOUND');
      else expectError(response, 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    }
    expectError(await signIn(guessed.code), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
  });

  it('asks a user with TOTP for the second factor: MULTI_FACTOR_AUTHENTICATION_REQUIRED', async () => {
    const totp = Buffer.alloc(20, 7).toString('base64');
    const { authenticator } = await userWithPasskey(client, undefined, { totp_secret_base64: totp });
    const { response } = await client.signIn(authenticator);
    expectError(response, 400, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    expect(response.body.details.attempt_code).toMatch(/^[a-z2-7]{45}$/);
  });

  it('is refused once passkey sign-in is turned off for the project', async () => {
    const { authenticator } = await userWithPasskey(client);
    const { options_json, code } = await client.initiateAuthentication();
    await env.context.services.projects.replaceConfigOverride(env.project.project.id, {
      ...passkeyProjectConfig,
      'auth.passkey.allowSignIn': false,
    });
    try {
      const assertion = authenticator.authenticate({ ...options_json, rpId: 'app.example.com' });
      const response = await client.post('sign-in', env.project.headers.client, { authentication_response: assertion, code });
      expectError(response, 400, 'PASSKEY_AUTHENTICATION_NOT_ENABLED');
    } finally {
      await env.context.services.projects.replaceConfigOverride(env.project.project.id, passkeyProjectConfig);
    }
  });

  it('forgets the passkeys of a user who turns passkey sign-in off, or is deleted', async () => {
    const quitter = await userWithPasskey(client);
    const patched = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: quitter.headers,
      payload: { passkey_auth_enabled: false },
    });
    expect(patched.body.passkey_auth_enabled).toBe(false);
    expectError((await client.signIn(quitter.authenticator)).response, 400, 'PASSKEY_AUTHENTICATION_FAILED');

    const deleted = await userWithPasskey(client);
    await env.context.services.users.delete(env.project.project, deleted.user.id);
    expectError((await client.signIn(deleted.authenticator)).response, 400, 'PASSKEY_AUTHENTICATION_FAILED');
  });
});
