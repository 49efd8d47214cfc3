import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthSettings } from '../../../server/src/modules/authentication/oauth/oauth-settings.ts';
import { type MockProvider, startMockProvider } from '@gatehouse/testing/mock-oauth-provider';
import { SoftwareAuthenticator } from '@gatehouse/testing/software-authenticator';
import { withTestContext } from '@gatehouse/testing/test-context';
import { MultiFactorAuthenticationRequiredError, PasskeyWebauthnError } from '../errors.ts';
import { createClientApp } from './client-app.ts';
import type { PasskeyCeremonies } from './passkey-ceremonies.ts';
import { createServerApp } from './server-app.ts';

/** The second factor, passkeys and OAuth through the client app, against the real server over HTTP. */
let mock: MockProvider;
const oauth: OAuthSettings = { endpoints: {}, sharedKeys: {} };
beforeAll(async () => {
  mock = await startMockProvider();
  oauth.endpoints = { google: mock.endpoints() };
});
afterAll(() => mock.stop());

const hostname = 'app.example.com';
const env = withTestContext({
  listen: true,
  oauth,
  projectConfig: {
    'auth.password.allowSignIn': true,
    'auth.passkey.allowSignIn': true,
    'auth.oauth.providers': {
      google: { type: 'google', isShared: false, clientId: 'googleclient', clientSecret: 'googlesecret', allowSignIn: true },
    },
    'domains.trustedDomains': { app: { baseUrl: `https://${hostname}`, handlerPath: '/handler' } },
  },
});

const password = 'correct horse battery';
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const newApp = (passkeyCeremonies?: PasskeyCeremonies) =>
  createClientApp({
    baseUrl: env.baseUrl,
    projectId: env.project.project.id,
    publishableClientKey: env.project.keys.publishable_client_key,
    passkeyRpId: hostname,
    passkeyCeremonies,
  });
const serverApp = () =>
  createServerApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, secretServerKey: env.project.keys.secret_server_key });

/** RFC 6238 as authenticator apps compute it: HMAC-SHA-1 over the 30-second step, 6 digits. */
function totpOf(secret: Buffer): string {
  const step = Buffer.alloc(8);
  step.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const mac = createHmac('sha1', secret).update(step).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A software authenticator as the browser's `navigator.credentials`, on https://app.example.com. */
function softwareCeremonies(authenticator: SoftwareAuthenticator): PasskeyCeremonies {
  return {
    create: async (options) => authenticator.register(options).response,
    get: async (options) => authenticator.authenticate(options),
  };
}

describe('client app sign-in methods against the server', () => {
  it('finishes a password sign-in with a TOTP, and with a recovery code', async () => {
    const email = newEmail('mfa');
    const secret = randomBytes(20);
    await serverApp().users.create({ primary_email: email, primary_email_auth_enabled: true, password });
    const app = newApp();
    await app.signInWithPassword({ email, password });
    const user = await app.getUser({ or: 'throw' });
    await user.update({ totp_secret_base64: secret.toString('base64') });
    const [recoveryCode] = await user.createMfaRecoveryCodes();

    const second = newApp();
    const required = await second.signInWithPassword({ email, password }).catch((error: unknown) => error);
    expect(required).toBeInstanceOf(MultiFactorAuthenticationRequiredError);
    expect(second.getTokens()).toEqual({});
    const { attempt_code } = (required as MultiFactorAuthenticationRequiredError).details;
    expect((await second.signInWithMfa({ attemptCode: attempt_code, totp: totpOf(secret) })).user_id).toBe(user.id);
    expect((await second.getUser())?.id).toBe(user.id);

    const third = newApp();
    const again = (await third
      .signInWithPassword({ email, password })
      .catch((error: unknown) => error)) as MultiFactorAuthenticationRequiredError;
    await third.signInWithMfa({ attemptCode: again.details.attempt_code, totp: recoveryCode! });
    expect((await third.getUser())?.id).toBe(user.id);
  });

  it('registers a passkey for the signed-in user and signs in with it', async () => {
    const authenticator = new SoftwareAuthenticator();
    const app = newApp(softwareCeremonies(authenticator));
    const email = newEmail('passkey');
    await app.signUpWithPassword({ email, password });
    const user = await app.getUser({ or: 'throw' });
    await user.registerPasskey();
    expect(authenticator.credentials.map((credential) => credential.rpId)).toEqual([hostname]);
    expect((await app.getUser())?.passkey_auth_enabled).toBe(true);

    const elsewhere = newApp(softwareCeremonies(authenticator));
    expect((await elsewhere.signInWithPasskey()).user_id).toBe(user.id);
    expect((await elsewhere.getUser())?.primary_email).toBe(email);
  });

  it("refuses passkeys in a runtime without WebAuthn (Node, like an old browser) in the protocol's words, after the server's challenge", async () => {
    // The default ceremonies are the browser's; Node has no PublicKeyCredential.
    const app = newApp();
    const signIn = await app.signInWithPasskey().catch((caught: unknown) => caught);
    expect(signIn).toBeInstanceOf(PasskeyWebauthnError);
    expect((signIn as PasskeyWebauthnError).message).toBe('WebAuthn is not supported in this browser');
    expect((signIn as PasskeyWebauthnError).details).toEqual({
      message: 'WebAuthn is not supported in this browser',
      code: 'NOT_SUPPORTED',
    });

    await app.signUpWithPassword({ email: newEmail('no-webauthn'), password });
    const user = await app.getUser({ or: 'throw' });
    const register = await user.registerPasskey().catch((caught: unknown) => caught);
    expect(register).toBeInstanceOf(PasskeyWebauthnError);
    expect((register as PasskeyWebauthnError).message).toBe('WebAuthn is not supported in this browser');
    expect((await app.getUser())?.passkey_auth_enabled).toBe(false);
  });

  it('signs in with OAuth: the built authorize URL, the provider round trip, and the code exchange', async () => {
    const email = newEmail('oauth');
    mock.state.profile = { sub: randomUUID(), email, email_verified: true, name: 'Ada Lovelace' };
    const app = newApp();
    const redirectUrl = `https://${hostname}/handler/oauth-callback`;
    const { url, state, codeVerifier } = await app.getOAuthSignInUrl('google', { redirectUrl, afterCallbackRedirectUrl: '/welcome' });
    expect(url.startsWith(`${env.baseUrl}/api/v1/auth/oauth/authorize/google?`)).toBe(true);

    // The browser: our authorize endpoint → the provider (which approves) → our callback → the app.
    const authorize = await fetch(url, { redirect: 'manual' });
    expect(authorize.status).toBe(307);
    const cookie = authorize.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const approval = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
    const providerRedirect = new URL(approval.headers.get('location')!);
    const callback = await fetch(new URL(providerRedirect.pathname + providerRedirect.search, env.baseUrl), {
      redirect: 'manual',
      headers: { cookie },
    });
    expect(callback.status).toBe(303);
    const back = new URL(callback.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUrl);
    expect(back.searchParams.get('state')).toBe(state);

    const result = await app.completeOAuthSignIn({ code: back.searchParams.get('code')!, redirectUrl, codeVerifier });
    expect(result).toMatchObject({ is_new_user: true, after_callback_redirect_url: '/welcome' });
    expect(await app.getUser()).toMatchObject({ primary_email: email, display_name: 'Ada Lovelace' });
  });
});
