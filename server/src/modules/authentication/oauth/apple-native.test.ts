import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotChallengeStandIn, standInSecret, startBotChallengeStandIn } from '@gatehouse/testing/bot-challenge-stand-in';
import { expectError } from '@gatehouse/testing/expect-response';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/** A local stand-in for Apple's key endpoint: serves the test's keys, or hangs / fails when asked. */
let keyServer: Server;
let jwks: { keys: JWK[] };
let appleKey: CryptoKey;
let strangerKey: CryptoKey;
let context: TestContext;
let project: TestProject;
const issuer = 'https://appleid.apple.com';
const bundleId = 'com.example.ios';
let keysBase: string;
let standIn: BotChallengeStandIn;
const appleProject = {
  'auth.oauth.providers': {
    apple: {
      type: 'apple',
      isShared: false,
      clientId: 'com.example.web',
      clientSecret: 'secret',
      allowSignIn: true,
      allowConnectedAccounts: true,
      appleBundles: { ios: { bundleId } },
    },
  },
};

beforeAll(async () => {
  const apple = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256', { extractable: true });
  appleKey = apple.privateKey;
  strangerKey = stranger.privateKey;
  jwks = { keys: [{ ...(await exportJWK(apple.publicKey)), kid: 'apple-key', alg: 'RS256', use: 'sig' }] };
  keyServer = createServer((request, response) => {
    if (request.url === '/hang') return; // never answers
    if (request.url === '/error') {
      response.writeHead(500).end('down');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
  const port = (keyServer.address() as AddressInfo).port;
  keysBase = `http://127.0.0.1:${port}`;
  standIn = await startBotChallengeStandIn(1_000);
  context = await createTestContext({
    oauth: { endpoints: {}, sharedKeys: {}, appleJwksUrl: `${keysBase}/auth/keys` },
    settings: { 'bot-challenges': standIn.settings },
  });
  project = await context.createProject(appleProject);
});
afterAll(async () => {
  keyServer.closeAllConnections();
  keyServer.close();
  await standIn.close();
  await context.close();
});

type Claims = { sub?: string; email?: string; email_verified?: boolean | string; aud?: string; iss?: string; expiresIn?: string };

function appleToken(claims: Claims = {}, key: CryptoKey = appleKey, kid = 'apple-key') {
  const { expiresIn = '10m', aud = bundleId, iss = issuer, ...payload } = claims;
  return new SignJWT({ email_verified: true, ...payload })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setSubject(claims.sub ?? `001234.${randomUUID()}`)
    .setIssuer(iss)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

const signIn = (idToken: string, target: TestProject = project, on?: TestContext) =>
  (on ?? context).request({
    method: 'POST',
    url: '/api/v1/auth/oauth/callback/apple/native',
    headers: target.headers.client,
    payload: { id_token: idToken },
  });

describe('POST /auth/oauth/callback/apple/native', () => {
  it('signs up the Apple account of a good token, then signs the same user in; the client id is an audience too', async () => {
    const sub = `001234.${randomUUID()}`;
    const email = `apple-${randomUUID()}@privaterelay.appleid.com`;
    const first = await signIn(await appleToken({ sub, email }));
    expect(first.status, first.text).toBe(200);
    expect(first.body.is_new_user).toBe(true);
    const me = await context.request({
      url: '/api/v1/users/me',
      headers: { ...project.headers.client, 'x-stack-access-token': first.body.access_token },
    });
    expect(me.body.primary_email).toBe(email);
    expect(me.body.primary_email_verified).toBe(true);
    expect(me.body.oauth_providers).toEqual([{ id: 'apple', account_id: sub, email }]);
    const again = await signIn(await appleToken({ sub, email_verified: 'true', aud: 'com.example.web' }));
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ user_id: first.body.user_id, is_new_user: false });
  });

  it('refuses a token of another issuer, another audience, a foreign key, an expired or a garbled one with INVALID_APPLE_CREDENTIALS', async () => {
    for (const token of [
      await appleToken({ iss: 'https://evil.example.com' }),
      await appleToken({ aud: 'com.other.app' }),
      await appleToken({}, strangerKey),
      await appleToken({}, strangerKey, 'unknown-kid'),
      await appleToken({ expiresIn: '-1m' }),
      'not-a-jwt',
    ]) {
      expectError(await signIn(token), 400, 'INVALID_APPLE_CREDENTIALS');
    }
  });

  it('answers APPLE_BUNDLE_ID_NOT_CONFIGURED without bundle ids, and OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED without an Apple provider', async () => {
    const noBundles = await context.createProject({
      'auth.oauth.providers': { apple: { type: 'apple', isShared: false, clientId: 'c', clientSecret: 's', allowSignIn: true } },
    });
    expectError(await signIn(await appleToken(), noBundles), 400, 'APPLE_BUNDLE_ID_NOT_CONFIGURED');
    const disabled = await context.createProject({
      'auth.oauth.providers': {
        apple: {
          type: 'apple',
          isShared: false,
          clientId: 'c',
          clientSecret: 's',
          allowSignIn: false,
          appleBundles: { ios: { bundleId } },
        },
      },
    });
    expectError(await signIn(await appleToken(), disabled), 400, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    expectError(await signIn(await appleToken(), await context.createProject()), 400, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
  });

  it('refuses a new account when sign-up is off, and asks a TOTP user for the second factor', async () => {
    const closed = await context.createProject({
      'auth.allowSignUp': false,
      'auth.oauth.providers': {
        apple: { type: 'apple', isShared: false, clientId: 'c', clientSecret: 's', allowSignIn: true, appleBundles: { ios: { bundleId } } },
      },
    });
    expectError(await signIn(await appleToken(), closed), 400, 'SIGN_UP_NOT_ENABLED');
    const sub = `001234.${randomUUID()}`;
    const first = await signIn(await appleToken({ sub }));
    expect(first.status).toBe(200);
    await context.database.db
      .updateTable('project_user')
      .set({ totp_secret: Buffer.alloc(20, 1) })
      .where('id', '=', first.body.user_id)
      .execute();
    const second = await signIn(await appleToken({ sub }));
    expectError(second, 400, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    expect(typeof second.body.details.attempt_code).toBe('string');
  });

  it("answers OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE, never a 500 or a hang, when Apple's keys fail or do not answer", async () => {
    for (const path of ['/error', '/hang']) {
      const outage = await createTestContext({ oauth: { endpoints: {}, sharedKeys: {}, appleJwksUrl: `${keysBase}${path}` } });
      try {
        const started = Date.now();
        const response = await signIn(await appleToken(), await outage.createProject(appleProject), outage);
        expectError(response, 503, 'OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE');
        expect(Date.now() - started).toBeLessThan(15_000);
      } finally {
        await outage.close();
      }
    }
  }, 60_000);

  it('judges a native sign-up by the sign-up rules and risk scores, not by the bot challenge (an app has no widget)', async () => {
    const guarded = await context.createProject({
      ...appleProject,
      'auth.botChallenge': {
        mode: 'required',
        provider: 'turnstile',
        siteKey: 'site-key-1',
        secretKey: standInSecret,
        onProviderOutage: 'reject',
        minScore: 0.5,
      },
      'auth.signUpRules': {
        blocked: {
          enabled: true,
          displayName: 'No Apple sign-ups from blocked.example',
          priority: 0,
          condition: 'authMethod == "oauth" && oauthProvider == "apple" && emailDomain == "blocked.example"',
          action: { type: 'reject', message: 'Not from there' },
        },
      },
    });
    const before = standIn.calls.length;
    const rejectedSub = `001234.${randomUUID()}`;
    expectError(
      await signIn(await appleToken({ sub: rejectedSub, email: `a-${randomUUID()}@blocked.example` }), guarded),
      403,
      'SIGN_UP_REJECTED',
      {
        message: 'Not from there',
      },
    );
    const users = () => context.database.db.selectFrom('project_user').select('id').where('project_id', '=', guarded.project.id).execute();
    expect(await users()).toEqual([]);

    // An allowed newcomer signs up without a token although the browser paths would require one.
    const admitted = await signIn(await appleToken({ email: `b-${randomUUID()}@example.com` }), guarded);
    expect(admitted.status, admitted.text).toBe(200);
    expect(admitted.body.is_new_user).toBe(true);
    expect(standIn.calls.length).toBe(before);
    expect(await users()).toHaveLength(1);
    // No challenge counted as missing (that alone would be a bot score of 40): only real signals score.
    const user = await context.request({ url: `/api/v1/users/${admitted.body.user_id}`, headers: guarded.headers.server });
    expect(user.body.risk_scores.sign_up).toEqual({ bot: 0, free_trial_abuse: 0 });
    // The sign-up was counted with the caller's address (the velocity signal of later sign-ups).
    const signals = await context.database.db
      .selectFrom('sign_up_signal')
      .select('ip')
      .where('project_id', '=', guarded.project.id)
      .execute();
    expect(signals.map((row) => row.ip)).toContain('127.0.0.1');
  });

  it('applies restrict, log (with its metadata) and allow to native sign-ups as to the browser paths', async () => {
    const apple = 'authMethod == "oauth" && oauthProvider == "apple"';
    const rule = (domain: string, action: Record<string, unknown>, priority: number) => ({
      enabled: true,
      displayName: `${String(action.type)} ${domain}`,
      priority,
      condition: `${apple} && emailDomain == "${domain}"`,
      action,
    });
    // Restrict and log do not end the evaluation (the default action decides): the default is allow here,
    // reject in the second project, where only the allow rule's hit gets in.
    const ruled = await context.createProject({
      ...appleProject,
      'auth.signUpRules': {
        held: rule('held.example', { type: 'restrict' }, 0),
        watched: rule('watched.example', { type: 'log', serverMetadata: { cohort: 'native' } }, 1),
      },
    });
    const strict = await context.createProject({
      ...appleProject,
      'auth.signUpRules': { welcome: rule('welcome.example', { type: 'allow' }, 0) },
      'auth.signUpRulesDefaultAction': 'reject',
    });
    const userOf = async (userId: string) =>
      (await context.request({ url: `/api/v1/users/${userId}`, headers: ruled.headers.server })).body;

    const held = await signIn(await appleToken({ email: `h-${randomUUID()}@held.example` }), ruled);
    expect(held.status, held.text).toBe(200);
    expect(await userOf(held.body.user_id)).toMatchObject({ restricted_by_admin: true });

    const watched = await signIn(await appleToken({ email: `w-${randomUUID()}@watched.example` }), ruled);
    expect(watched.status, watched.text).toBe(200);
    expect(await userOf(watched.body.user_id)).toMatchObject({ restricted_by_admin: false, server_metadata: { cohort: 'native' } });

    const stats = await context.request({ url: '/api/v1/internal/sign-up-rules-stats', headers: ruled.headers.admin });
    expect(stats.body).toMatchObject({ triggers_by_action: { restrict: 1, log: 1 } });

    const welcome = await signIn(await appleToken({ email: `a-${randomUUID()}@welcome.example` }), strict);
    expect(welcome.status, welcome.text).toBe(200);
    expectError(await signIn(await appleToken({ email: `s-${randomUUID()}@stranger.example` }), strict), 403, 'SIGN_UP_REJECTED');
  });
});
