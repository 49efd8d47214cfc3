import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BotChallengeStandIn, standInSecret, startBotChallengeStandIn } from '@gatehouse/testing/bot-challenge-stand-in';
import { expectError } from '@gatehouse/testing/expect-response';
import { type MockProvider, startMockProvider } from '@gatehouse/testing/mock-oauth-provider';
import { type FlowOptions, oauthFlows, ownKeys, trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import type { BotChallengeSettings } from '../bot-challenges/index.ts';
import type { OAuthSettings } from './oauth-settings.ts';

/**
 * The bot challenge on the OAuth sign-up path: Stack's SDKs send `bot_challenge_*` with the authorize
 * request; the token is verified there (the stand-in of the providers' siteverify APIs) and enforced
 * at the callback only when the flow would create a user, with the errors of the other sign-up paths,
 * through the flow's error redirect. Existing users signing in are not challenged.
 */
let mock: MockProvider;
let standIn: BotChallengeStandIn;
const oauth: OAuthSettings = { endpoints: {}, sharedKeys: {} };
const challengeSettings = {} as BotChallengeSettings;
beforeAll(async () => {
  mock = await startMockProvider();
  oauth.endpoints = { google: mock.endpoints() };
  standIn = await startBotChallengeStandIn(500);
  Object.assign(challengeSettings, standIn.settings);
});
afterAll(async () => {
  await mock.stop();
  await standIn.close();
});

const baseConfig = { 'auth.oauth.providers': { google: ownKeys('google') }, 'domains.trustedDomains': trustedDomains };
const env = withTestContext({ projectConfig: baseConfig, oauth, settings: { 'bot-challenges': challengeSettings } });
const flows = oauthFlows(env);
const errorRedirectUri = 'https://app.example.com/handler/error';

const projectWith = (challenge: Record<string, unknown>, config: Record<string, unknown> = {}) =>
  env.context.createProject({
    ...baseConfig,
    ...config,
    'auth.botChallenge': {
      mode: 'required',
      provider: 'turnstile',
      siteKey: 'site-key-1',
      secretKey: standInSecret,
      onProviderOutage: 'allow',
      minScore: 0.5,
      ...challenge,
    },
  });

/** A provider account with a fresh email: the flow will sign a new user up. */
const newProviderAccount = () => {
  const email = `oauth-bot-${randomUUID().slice(0, 8)}@example.com`;
  mock.state.profile = { sub: randomUUID(), email, email_verified: true, name: 'Ada Lovelace' };
  return email;
};
const userOf = (project: TestProject, email: string) => env.context.services.users.findAuthEmail(project.project.id, email);

/** Authorize with the challenge fields, the provider, the callback: where the browser is sent. */
async function callbackRedirect(project: TestProject, query: Record<string, string>, options: FlowOptions = {}) {
  const started = await flows.toProvider({ project, errorRedirectUri, query, ...options });
  const answer = await flows.callback(started.callback, started.cookie);
  expect(answer.status, answer.text).toBe(303);
  return { url: new URL(String(answer.headers.location)), verifier: started.verifier };
}

const expectRefused = (url: URL, errorCode: string) => {
  expect(`${url.origin}${url.pathname}`).toBe(errorRedirectUri);
  expect(url.searchParams.get('errorCode')).toBe(errorCode);
  expect(url.searchParams.get('error')).toBe('server_error');
};

describe('a required bot challenge on OAuth sign-up', () => {
  it('refuses a sign-up without a token with BOT_CHALLENGE_REQUIRED and creates no user', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({});
    const email = newProviderAccount();
    const { url } = await callbackRedirect(project, {});
    expectRefused(url, 'BOT_CHALLENGE_REQUIRED');
    expect(await userOf(project, email)).toBeUndefined();
  });

  it('refuses a visible-phase token the provider rejects with BOT_CHALLENGE_FAILED (with its error codes); an invisible one asks for the visible challenge', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({});
    const email = newProviderAccount();
    const failed = await callbackRedirect(project, { bot_challenge_token: 'forged', bot_challenge_phase: 'visible' });
    expectRefused(failed.url, 'BOT_CHALLENGE_FAILED');
    expect(failed.url.searchParams.get('message')).toContain('invalid-input-response');
    const invisible = await callbackRedirect(project, { bot_challenge_token: 'forged', bot_challenge_phase: 'invisible' });
    expectRefused(invisible.url, 'BOT_CHALLENGE_REQUIRED');
    expect(await userOf(project, email)).toBeUndefined();
  });

  it('signs a user up with a good token, having asked the provider at authorize with the client IP', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({});
    const email = newProviderAccount();
    const before = standIn.calls.length;
    const { url, verifier } = await callbackRedirect(project, { bot_challenge_token: 'pass.good', bot_challenge_phase: 'visible' });
    expect(url.searchParams.get('errorCode')).toBeNull();
    expect(standIn.calls.slice(before)).toEqual([
      expect.objectContaining({
        provider: 'turnstile',
        form: expect.objectContaining({ secret: standInSecret, response: 'pass.good', remoteip: '127.0.0.1' }),
      }),
    ]);
    const tokens = await flows.exchange(project, url.searchParams.get('code') as string, verifier);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.is_new_user).toBe(true);
    expect(await userOf(project, email)).toMatchObject({ user_id: expect.any(String) });
  });

  it('challenges an anonymous user signing up through OAuth: refused without a token, upgraded with a good one', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({}, { 'auth.allowAnonymousSignUp': true });
    const anonymous = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/anonymous/sign-up',
      headers: project.headers.client,
      payload: {},
    });
    expect(anonymous.status, anonymous.text).toBe(200);
    const email = newProviderAccount();
    const refused = await callbackRedirect(project, {}, { token: anonymous.body.access_token });
    expectRefused(refused.url, 'BOT_CHALLENGE_REQUIRED');
    expect(await userOf(project, email)).toBeUndefined();
    const upgraded = await flows.signIn({ project, token: anonymous.body.access_token, query: { bot_challenge_token: 'pass.anon' } });
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(decodeJwt(upgraded.body.access_token)).toMatchObject({ sub: anonymous.body.user_id, is_anonymous: false });
  });

  it('lets an existing user sign in again without a token, and never challenges a link flow', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({});
    const email = newProviderAccount();
    const signedUp = await flows.signIn({ project, query: { bot_challenge_token: 'pass.first' } });
    expect(signedUp.body.is_new_user).toBe(true);
    const before = standIn.calls.length;
    const again = await flows.signIn({ project });
    expect(again.status, again.text).toBe(200);
    expect(again.body.is_new_user).toBe(false);
    // Linking a second provider account to the signed-in user asks the provider nothing and is not refused.
    mock.state.profile = { sub: randomUUID(), email: `other-${email}`, email_verified: true };
    const linked = await flows.toCode({ project, type: 'link', token: again.body.access_token, errorRedirectUri });
    expect(linked.redirect.searchParams.get('errorCode')).toBeNull();
    expect(standIn.calls.length).toBe(before);
  });
});

describe.each(['GET', 'POST'] as const)('a %s callback of a flow without an error redirect', (method) => {
  const callback = (url: URL, cookie: string | undefined) =>
    method === 'GET'
      ? flows.callback(url, cookie)
      : env.context.request({
          method: 'POST',
          url: url.pathname,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
          payload: url.searchParams.toString(),
        });

  it('answers BOT_CHALLENGE_REQUIRED for a missing token and BOT_CHALLENGE_FAILED for a failed one, creating no user', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({});
    const email = newProviderAccount();
    const missing = await flows.toProvider({ project });
    expectError(await callback(missing.callback, missing.cookie), 409, 'BOT_CHALLENGE_REQUIRED');
    const forged = await flows.toProvider({ project, query: { bot_challenge_token: 'forged', bot_challenge_phase: 'visible' } });
    expectError(await callback(forged.callback, forged.cookie), 400, 'BOT_CHALLENGE_FAILED');
    expect(await userOf(project, email)).toBeUndefined();
  });
});

describe('other modes and outages', () => {
  it('leaves OAuth sign-up alone with the challenge off, and asks no provider', async () => {
    const project = await env.context.createProject(baseConfig);
    const email = newProviderAccount();
    const before = standIn.calls.length;
    const tokens = await flows.signIn({ project, query: { bot_challenge_token: 'forged' } });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.is_new_user).toBe(true);
    expect(await userOf(project, email)).toBeDefined();
    expect(standIn.calls.length).toBe(before);
  });

  it('lets a failed token through in invisible mode, scoring the new user as a bot', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({ mode: 'invisible' });
    newProviderAccount();
    const tokens = await flows.signIn({ project, query: { bot_challenge_token: 'forged' } });
    expect(tokens.status, tokens.text).toBe(200);
    const userId = decodeJwt(tokens.body.access_token).sub as string;
    const user = await env.context.request({ url: `/api/v1/users/${userId}`, headers: project.headers.server });
    // A failed challenge alone is a bot score of 80 (docs/guide/sign-up-protection.md).
    expect(user.body.risk_scores.sign_up.bot).toBe(80);
  });

  it('follows the outage policy: fail open signs up (logged), fail closed refuses with BOT_CHALLENGE_FAILED', async () => {
    const log = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      standIn.mode = 'down';
      const open = await projectWith({ onProviderOutage: 'allow' });
      const openEmail = newProviderAccount();
      const letThrough = await callbackRedirect(open, { bot_challenge_token: 'pass.x' });
      expect(letThrough.url.searchParams.get('code')).toBeTruthy();
      expect(await userOf(open, openEmail)).toBeDefined();
      expect(log.mock.calls.some(([line]) => String(line).includes('not verified (let through)'))).toBe(true);

      const closed = await projectWith({ onProviderOutage: 'reject' });
      const closedEmail = newProviderAccount();
      const refused = await callbackRedirect(closed, { bot_challenge_token: 'pass.x' });
      expectRefused(refused.url, 'BOT_CHALLENGE_FAILED');
      expect(refused.url.searchParams.get('message')).toContain('could not be verified right now');
      expect(await userOf(closed, closedEmail)).toBeUndefined();
      // A client that could not load the widget is an outage too.
      standIn.mode = 'ok';
      const unavailable = await callbackRedirect(closed, { bot_challenge_unavailable: 'true' });
      expectRefused(unavailable.url, 'BOT_CHALLENGE_FAILED');
    } finally {
      standIn.mode = 'ok';
      log.mockRestore();
    }
  });
});
