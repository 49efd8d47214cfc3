import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BotChallengeStandIn, standInSecret, startBotChallengeStandIn } from '@gatehouse/testing/bot-challenge-stand-in';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import type { BotChallengeSettings } from './index.ts';

/**
 * Bot challenges at sign-up against a local stand-in of Turnstile, hCaptcha and reCAPTCHA's siteverify
 * APIs (their form fields and answer shapes): refusals with Stack's catalogued errors, a good token
 * passing, what reaches the provider, the per-project outage policy, and the public widget settings.
 */
let standIn: BotChallengeStandIn;
const settings = {} as BotChallengeSettings;
beforeAll(async () => {
  standIn = await startBotChallengeStandIn(500);
  Object.assign(settings, standIn.settings);
});
afterAll(() => standIn.close());

const env = withTestContext({ settings: { 'bot-challenges': settings } });

const challenge = (overrides: Record<string, unknown> = {}) => ({
  'auth.password.allowSignIn': true,
  'auth.otp.allowSignIn': true,
  'domains.allowLocalhost': true,
  'auth.botChallenge': {
    mode: 'required',
    provider: 'turnstile',
    siteKey: 'site-key-1',
    secretKey: standInSecret,
    onProviderOutage: 'allow',
    minScore: 0.5,
    ...overrides,
  },
});
const projects = new Map<string, TestProject>();
async function projectWith(overrides: Record<string, unknown> = {}): Promise<TestProject> {
  const key = JSON.stringify(overrides);
  if (!projects.has(key)) projects.set(key, await env.context.createProject(challenge(overrides)));
  return projects.get(key) as TestProject;
}
const newEmail = () => `bot-${randomUUID().slice(0, 8)}@example.com`;
const signUp = (project: TestProject, fields: Record<string, unknown>, email = newEmail()) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-up',
    headers: { ...project.headers.client, 'x-forwarded-for': '203.0.113.9' },
    payload: { email, password: 'a-good-password-1', ...fields },
  });
const sendCode = (project: TestProject, email: string, fields: Record<string, unknown>) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/otp/send-sign-in-code',
    headers: project.headers.client,
    payload: { email, callback_url: 'http://localhost:3000/handler/magic-link-callback', ...fields },
  });

describe('a required bot challenge on password sign-up', () => {
  it('refuses a sign-up without a token with BOT_CHALLENGE_REQUIRED, and asks the provider nothing', async () => {
    standIn.mode = 'ok';
    const project = await projectWith();
    const before = standIn.calls.length;
    expectError(await signUp(project, {}), 409, 'BOT_CHALLENGE_REQUIRED');
    expect(standIn.calls.length).toBe(before);
  });

  it('refuses a visible-phase token the provider rejects with BOT_CHALLENGE_FAILED; an invisible one asks for the visible challenge', async () => {
    standIn.mode = 'ok';
    const project = await projectWith();
    const failed = await signUp(project, { bot_challenge_token: 'forged', bot_challenge_phase: 'visible' });
    expectError(failed, 400, 'BOT_CHALLENGE_FAILED');
    expect(failed.body.details.message).toContain('invalid-input-response');
    expectError(await signUp(project, { bot_challenge_token: 'forged', bot_challenge_phase: 'invisible' }), 409, 'BOT_CHALLENGE_REQUIRED');
  });

  it("lets a good token through, having sent Turnstile's siteverify its form fields", async () => {
    standIn.mode = 'ok';
    const project = await projectWith();
    const before = standIn.calls.length;
    const email = newEmail();
    const answer = await signUp(project, { bot_challenge_token: 'pass-token-1', bot_challenge_phase: 'visible' }, email);
    expect(answer.status, answer.text).toBe(200);
    const [call] = standIn.calls.slice(before);
    expect(call).toMatchObject({
      provider: 'turnstile',
      contentType: 'application/x-www-form-urlencoded',
      form: { secret: standInSecret, response: 'pass-token-1', remoteip: expect.any(String) },
    });
    expect(standIn.calls.length).toBe(before + 1);
  });

  it('speaks hCaptcha (sitekey sent) and reCAPTCHA (a v3 score below minScore refused)', async () => {
    standIn.mode = 'ok';
    const hcaptcha = await projectWith({ provider: 'hcaptcha', siteKey: 'hc-site' });
    const before = standIn.calls.length;
    expect((await signUp(hcaptcha, { bot_challenge_token: 'pass-h' })).status).toBe(200);
    expect(standIn.calls[before]).toMatchObject({ provider: 'hcaptcha', form: { sitekey: 'hc-site', response: 'pass-h' } });
    expectError(await signUp(hcaptcha, { bot_challenge_token: 'low-h' }), 400, 'BOT_CHALLENGE_FAILED');

    const recaptcha = await projectWith({ provider: 'recaptcha' });
    expect((await signUp(recaptcha, { bot_challenge_token: 'pass-r' })).status).toBe(200);
    const low = await signUp(recaptcha, { bot_challenge_token: 'low-r' });
    expectError(low, 400, 'BOT_CHALLENGE_FAILED');
    expect(low.body.details.message).toContain('score-too-low');
    const lenient = await projectWith({ provider: 'recaptcha', minScore: 0.05 });
    expect((await signUp(lenient, { bot_challenge_token: 'low-r' })).status).toBe(200);
  });
});

describe('when the provider is down', () => {
  it.each(['down', 'slow', 'error'] as const)('fails open or closed as the project says (%s)', async (mode) => {
    const log = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      standIn.mode = mode;
      const open = await projectWith({ onProviderOutage: 'allow' });
      const closed = await projectWith({ onProviderOutage: 'reject' });
      const started = Date.now();
      expect((await signUp(open, { bot_challenge_token: 'pass-1' })).status).toBe(200);
      const refused = await signUp(closed, { bot_challenge_token: 'pass-1' });
      expectError(refused, 400, 'BOT_CHALLENGE_FAILED');
      expect(refused.body.details.message).toMatch(/could not be verified/);
      // Bounded by BOT_CHALLENGE_TIMEOUT_MS (500 ms here), never a hang.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(log.mock.calls.some(([line]) => String(line).includes('not verified (let through)'))).toBe(true);
    } finally {
      standIn.mode = 'ok';
      log.mockRestore();
    }
  });

  it('treats a client that could not load the widget as an outage', async () => {
    const log = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect((await signUp(await projectWith({ onProviderOutage: 'allow' }), { bot_challenge_unavailable: 'true' })).status).toBe(200);
      expectError(
        await signUp(await projectWith({ onProviderOutage: 'reject' }), { bot_challenge_unavailable: 'true' }),
        400,
        'BOT_CHALLENGE_FAILED',
      );
    } finally {
      log.mockRestore();
    }
  });
});

describe('an invisible bot challenge', () => {
  it('verifies a token it gets but refuses nothing by itself', async () => {
    standIn.mode = 'ok';
    const project = await projectWith({ mode: 'invisible' });
    const before = standIn.calls.length;
    expect((await signUp(project, {})).status).toBe(200);
    expect((await signUp(project, { bot_challenge_token: 'forged', bot_challenge_phase: 'invisible' })).status).toBe(200);
    expect((await signUp(project, { bot_challenge_token: 'pass-2', bot_challenge_phase: 'invisible' })).status).toBe(200);
    expect(standIn.calls.length).toBe(before + 2);
  });
});

describe('the sign-in code sent to a new email', () => {
  it('needs the challenge for an email with no account, not for an existing one', async () => {
    standIn.mode = 'ok';
    const project = await projectWith();
    expectError(await sendCode(project, newEmail(), {}), 409, 'BOT_CHALLENGE_REQUIRED');
    expectError(await sendCode(project, newEmail(), { bot_challenge_token: 'forged' }), 400, 'BOT_CHALLENGE_FAILED');
    expect((await sendCode(project, newEmail(), { bot_challenge_token: 'pass-3' })).status).toBe(200);
    const existing = newEmail();
    expect((await signUp(project, { bot_challenge_token: 'pass-4' }, existing)).status).toBe(200);
    expect((await sendCode(project, existing, {})).status).toBe(200);
  });
});

describe('the settings', () => {
  it('shows the widget (never the secret) in the public project view only when on', async () => {
    const project = await projectWith({ mode: 'invisible', provider: 'hcaptcha', siteKey: 'public-site' });
    const view = await env.context.request({ method: 'GET', url: '/api/v1/projects/current', headers: project.headers.client });
    expect(view.body.config.bot_challenge).toEqual({
      provider: 'hcaptcha',
      mode: 'invisible',
      site_key: 'public-site',
      script_url: settings.scriptUrls.hcaptcha,
    });
    expect(view.text).not.toContain(standInSecret);
    const off = await env.context.request({ method: 'GET', url: '/api/v1/projects/current', headers: env.project.headers.client });
    expect(off.body.config.bot_challenge).toBeUndefined();
  });

  it('refuses a challenge turned on without keys, or with an unknown provider', async () => {
    const save = (entries: Record<string, unknown>) =>
      env.context.request({
        method: 'PATCH',
        url: '/api/v1/internal/config/override/project',
        headers: env.project.headers.admin,
        payload: { config_override_string: JSON.stringify(entries) },
      });
    const noKeys = await save({ 'auth.botChallenge.mode': 'required' });
    expect(noKeys.status).toBe(400);
    expect(noKeys.text).toContain('auth.botChallenge.siteKey is needed when auth.botChallenge.mode is not off.');
    const unknown = await save({ 'auth.botChallenge.provider': 'friendlycaptcha' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('auth.botChallenge.provider must be one of turnstile, hcaptcha, recaptcha.');
    expect((await save({ 'auth.botChallenge': challenge()['auth.botChallenge'] })).status).toBe(200);
  });
});
