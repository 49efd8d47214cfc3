import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { SoftwareAuthenticator } from '@gatehouse/testing/software-authenticator';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { hostname, passkeyClient, passkeyProjectConfig, userWithPasskey } from '@gatehouse/testing/passkey-test-client';
import { relyingPartySentinel } from './webauthn-rules.ts';

/**
 * Registering passkeys (docs/protocol/endpoints.md §4) with real WebAuthn data: a software authenticator's
 * attestation goes through @simplewebauthn/server's verification.
 */
const env = withTestContext({ projectConfig: passkeyProjectConfig });
const client = passkeyClient(env);
let passkeysOff: TestProject;
let localhostAllowed: TestProject;

beforeAll(async () => {
  passkeysOff = await env.context.createProject({ ...passkeyProjectConfig, 'auth.passkey.allowSignIn': false });
  localhostAllowed = await env.context.createProject({ 'auth.passkey.allowSignIn': true, 'domains.allowLocalhost': true });
});

const me = (headers: Record<string, string>) => env.context.request({ url: '/api/v1/users/me', headers });

describe('POST /auth/passkey/initiate-passkey-registration', () => {
  it('answers creation options with the rp id sentinel, the user handle and a challenge code', async () => {
    const { user, headers } = await client.signedInUser();
    const { options_json, code } = await client.initiateRegistration(headers);
    expect(code).toMatch(/^[a-z2-7]{45}$/);
    expect(options_json).toMatchObject({
      rp: { id: relyingPartySentinel, name: env.project.project.display_name },
      user: { id: Buffer.from(user.id).toString('base64url'), name: user.primary_email },
      timeout: 60000,
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    expect(options_json.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(options_json).not.toHaveProperty('hints');
    expect((options_json.pubKeyCredParams as Array<{ alg: number }>).map(({ alg }) => alg)).toContain(-7);
  });

  it('lists the passkeys the user already has, so one authenticator is not registered twice', async () => {
    const { headers, credential } = await userWithPasskey(client);
    const { options_json } = await client.initiateRegistration(headers);
    expect(options_json.excludeCredentials).toEqual([{ id: credential.id, type: 'public-key', transports: ['internal'] }]);
  });

  it('is refused while passkey sign-in is off', async () => {
    const { headers } = await client.signedInUser(passkeysOff);
    expectError(await client.post('initiate-passkey-registration', headers), 400, 'PASSKEY_AUTHENTICATION_NOT_ENABLED');
  });
});

describe('POST /auth/passkey/register', () => {
  it('stores the passkey: the user handle comes back and passkey_auth_enabled turns on', async () => {
    const { user, headers } = await client.signedInUser();
    expect((await me(headers)).body.passkey_auth_enabled).toBe(false);
    const { response } = await client.register(new SoftwareAuthenticator(), headers);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ user_handle: Buffer.from(user.id).toString('base64url') });
    expect((await me(headers)).body.passkey_auth_enabled).toBe(true);
  });

  it('keeps several passkeys per user, and a credential registered again replaces itself', async () => {
    const { user, headers, authenticator, credential } = await userWithPasskey(client);
    const second = await client.register(new SoftwareAuthenticator(), headers);
    expect(second.response.status).toBe(200);
    const { options_json, code } = await client.initiateRegistration(headers);
    expect(options_json.excludeCredentials).toHaveLength(2);
    // The first authenticator attests its credential once more: replaced, still two passkeys.
    const again = authenticator.register({ ...options_json, rp: { ...options_json.rp, id: hostname } }, {}, credential);
    expect((await client.post('register', headers, { credential: again.response, code })).status).toBe(200);
    const rows = await env.context.database.db.selectFrom('passkey').select('credential_id').where('user_id', '=', user.id).execute();
    expect(rows.map((row) => row.credential_id).sort()).toEqual([credential.id, second.stored.id].sort());
  });

  it('accepts localhost origins only where the project allows localhost', async () => {
    const local = await client.signedInUser(localhostAllowed);
    const accepted = await client.register(new SoftwareAuthenticator(), local.headers, {
      host: 'localhost',
      overrides: { origin: 'http://localhost:3000' },
    });
    expect(accepted.response.status, accepted.response.text).toBe(200);
    const { headers } = await client.signedInUser();
    const refused = await client.register(new SoftwareAuthenticator(), headers, {
      host: 'localhost',
      overrides: { origin: 'http://localhost:3000' },
    });
    expectError(refused.response, 400, 'PASSKEY_REGISTRATION_FAILED');
  });

  it.each([
    ['an untrusted origin', { origin: 'https://evil.example.org' }],
    ['a trusted host on another port', { origin: `https://${hostname}:8443` }],
    ['a parent domain as rp id', { rpId: 'example.com' }],
    ['an rp id other than the origin host', { rpId: 'other.example.com' }],
    ['another challenge', { challenge: Buffer.from('not the challenge').toString('base64url') }],
    ['an assertion instead of a creation', { type: 'webauthn.get' }],
  ])('refuses %s: PASSKEY_REGISTRATION_FAILED, and the code is used up', async (_name, overrides) => {
    const { headers } = await client.signedInUser();
    const authenticator = new SoftwareAuthenticator();
    const { response, code } = await client.register(authenticator, headers, { overrides });
    expectError(response, 400, 'PASSKEY_REGISTRATION_FAILED');
    const { response: retry } = authenticator.register({ challenge: 'x', rp: { id: hostname }, user: { id: 'x' } });
    expectError(await client.post('register', headers, { credential: retry, code }), 409, 'VERIFICATION_CODE_ALREADY_USED');
    expect((await me(headers)).body.passkey_auth_enabled).toBe(false);
  });

  it('refuses a malformed attestation object, and a credential that belongs to another user', async () => {
    const { headers } = await client.signedInUser();
    const { options_json, code } = await client.initiateRegistration(headers);
    const { response: credential } = new SoftwareAuthenticator().register({ ...options_json, rp: { ...options_json.rp, id: hostname } });
    credential.response.attestationObject = Buffer.from('not cbor').toString('base64url');
    expectError(await client.post('register', headers, { credential, code }), 400, 'PASSKEY_REGISTRATION_FAILED');

    const owner = await userWithPasskey(client);
    const other = await client.signedInUser();
    const issued = await client.initiateRegistration(other.headers);
    // The owner's credential id, attested again for the other user: it stays the owner's.
    const copy = owner.authenticator.register(
      { ...issued.options_json, rp: { ...issued.options_json.rp, id: hostname } },
      {},
      owner.credential,
    );
    const refused = await client.post('register', other.headers, { credential: copy.response, code: issued.code });
    expectError(refused, 400, 'PASSKEY_REGISTRATION_FAILED');
    expect((await me(other.headers)).body.passkey_auth_enabled).toBe(false);
  });

  it('answers the code errors: another user’s code, unknown, used, expired, exhausted', async () => {
    const owner = await client.signedInUser();
    const other = await client.signedInUser();
    const { options_json, code } = await client.initiateRegistration(owner.headers);
    const credential = new SoftwareAuthenticator().register({ ...options_json, rp: { ...options_json.rp, id: hostname } }).response;
    expectError(await client.post('register', other.headers, { credential, code }), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expectError(await client.post('register', owner.headers, { credential, code: 'a'.repeat(45) }), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expect((await client.post('register', owner.headers, { credential, code })).status).toBe(200);
    expectError(await client.post('register', owner.headers, { credential, code }), 409, 'VERIFICATION_CODE_ALREADY_USED');

    const expiring = await client.initiateRegistration(owner.headers);
    await env.context.expireCode(expiring.code);
    expectError(await client.post('register', owner.headers, { credential, code: expiring.code }), 400, 'VERIFICATION_CODE_EXPIRED');

    const guessed = await client.initiateRegistration(owner.headers);
    const nonce = guessed.code.slice(6);
    for (let attempt = 1; attempt <= 20; attempt++) {
      // '0' and '1' are not base32: the guess never equals the real code.
      const response = await client.post('register', owner.headers, { credential, code: `${String(attempt).padStart(6, '0')}${nonce}` });
      if (attempt < 20) expectError(response, 404, 'VERIFICATION_CODE_NOT_FOUND');
      else expectError(response, 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    }
    expectError(
      await client.post('register', owner.headers, { credential, code: guessed.code }),
      400,
      'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
    );
  });

  it('is refused while passkey sign-in is off, also for a code issued before', async () => {
    const { headers } = await client.signedInUser(passkeysOff);
    const credential = new SoftwareAuthenticator().register({ challenge: 'x', rp: { id: hostname }, user: { id: 'x' } }).response;
    expectError(await client.post('register', headers, { credential, code: 'a'.repeat(45) }), 400, 'PASSKEY_AUTHENTICATION_NOT_ENABLED');
  });

  it('works with server access and a user session, as the server SDK registers passkeys', async () => {
    const { headers } = await client.signedInUser();
    const serverHeaders = { ...env.project.headers.server, 'x-stack-access-token': headers['x-stack-access-token'] as string };
    const { response } = await client.register(new SoftwareAuthenticator(), serverHeaders);
    expect(response.status, response.text).toBe(200);
  });
});
