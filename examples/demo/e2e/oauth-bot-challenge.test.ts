import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotChallengeSettings } from '../../../server/src/modules/authentication/bot-challenges/index.ts';
import { type BotChallengeStandIn, standInSecret, startBotChallengeStandIn } from '@gatehouse/testing/bot-challenge-stand-in';
import { type MockProvider, startMockProvider } from '@gatehouse/testing/mock-oauth-provider';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';
import { screenshots } from './chromium.ts';
import { greetingOf, withDemoInChromium } from './e2e-environment.ts';

/**
 * The OAuth buttons of the handler pages with the project's bot challenge on, in Chromium: the page
 * renders the widget (the stand-in's fake one), a click sends its token with the authorize request,
 * the server verifies it there (the stand-in's siteverify) and holds a newcomer to it when the local
 * OpenID provider sends the browser back. Existing users signing in through a provider are not held to it.
 */
let mock: MockProvider;
let standIn: BotChallengeStandIn;
const settings = {} as BotChallengeSettings;
beforeAll(async () => {
  mock = await startMockProvider();
  standIn = await startBotChallengeStandIn(2_000);
  Object.assign(settings, standIn.settings);
});
afterAll(async () => {
  await mock?.stop();
  await standIn?.close();
});

const challenge = (overrides: Record<string, unknown> = {}) => ({
  mode: 'required',
  provider: 'turnstile',
  siteKey: 'demo-site-key',
  secretKey: standInSecret,
  onProviderOutage: 'reject',
  minScore: 0.5,
  ...overrides,
});
const env = withDemoInChromium(
  { 'auth.oauth.providers': { google: ownKeys('google') }, 'auth.botChallenge': challenge() },
  {
    oauth: () => ({ endpoints: { google: mock.endpoints() }, sharedKeys: {} }),
    settings: () => ({ 'bot-challenges': settings }),
  },
);

/** Sets the demo project's challenge (through the service, as bot-challenge.test.ts does). */
async function applyChallenge(overrides: Record<string, unknown> = {}) {
  const { projects } = env.platform.context.services;
  const id = env.platform.project.project.id;
  const current = (await projects.find(id))?.config_override ?? {};
  await projects.replaceConfigOverride(id, { ...current, 'auth.botChallenge': challenge(overrides) });
}

/** A provider account with a fresh email (a newcomer unless a user has it already). */
function providerAccount(email = `oauth-bot-${randomUUID().slice(0, 8)}@demo.test`) {
  mock.state.profile = { sub: `sub-${email}`, email, email_verified: true, name: 'Ada Lovelace' };
  return email;
}

const userOf = (email: string) => env.platform.context.services.users.findAuthEmail(env.platform.project.project.id, email);

/** Opens a handler page as a person would and waits for the project's widget there. */
async function openWithWidget(path: string, expected: { size: string }): Promise<Page> {
  const page = await env.browser.newPage();
  await page.goto(`${env.platform.url}${path}`);
  const widget = page.getByTestId('fake-bot-challenge');
  await expect.poll(() => widget.count(), { timeout: 20_000 }).toBe(1);
  expect(await widget.getAttribute('data-sitekey')).toBe('demo-site-key');
  expect(await widget.getAttribute('data-size')).toBe(expected.size);
  return page;
}

describe('OAuth sign-up with a required bot challenge', () => {
  it('signs a newcomer up from the sign-up page, the widget token verified with the client address', { timeout: 120_000 }, async () => {
    const shot = screenshots('oauth-bot-challenge');
    standIn.mode = 'ok';
    await applyChallenge();
    const email = providerAccount();
    const before = standIn.calls.length;
    const page = await openWithWidget('/handler/sign-up', { size: 'always' });
    await shot(page, 'sign-up-with-widget-and-providers');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, Ada Lovelace');
    expect(await userOf(email)).toMatchObject({ user_id: expect.any(String) });
    // The token the fake widget handed the page is the one the server verified at authorize.
    const calls = standIn.calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      provider: 'turnstile',
      form: { secret: standInSecret, remoteip: expect.stringMatching(/127\.0\.0\.1$/) },
    });
    expect(calls[0]?.form.response).toMatch(/^pass\.demo-site-key\.\d+$/);
    await page.close();
  });

  it('refuses the sign-up when the provider rejects the token: the error page says BOT_CHALLENGE_FAILED, no user', {
    timeout: 120_000,
  }, async () => {
    const shot = screenshots('oauth-bot-challenge-refused');
    standIn.mode = 'refuse';
    try {
      await applyChallenge();
      const email = providerAccount();
      const page = await openWithWidget('/handler/sign-up', { size: 'always' });
      await page.getByRole('button', { name: 'Continue with Google' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/handler/error');
      const alert = page.getByRole('alert');
      await expect
        .poll(() => alert.textContent(), { timeout: 20_000 })
        .toContain('The bot challenge was not passed (invalid-input-response)');
      expect(await page.getByText('Error code: BOT_CHALLENGE_FAILED').count()).toBe(1);
      await shot(page, 'refused');
      expect(await userOf(email)).toBeUndefined();
      await page.close();
    } finally {
      standIn.mode = 'ok';
    }
  });

  it('lets an existing user sign in through the provider from the sign-in page even with a rejected token', {
    timeout: 120_000,
  }, async () => {
    standIn.mode = 'ok';
    await applyChallenge();
    const email = providerAccount();
    const first = await openWithWidget('/handler/sign-up', { size: 'always' });
    await first.getByRole('button', { name: 'Continue with Google' }).click();
    await expect.poll(() => greetingOf(first), { timeout: 30_000 }).toBe('Hello, Ada Lovelace');
    const userId = (await userOf(email))?.user_id;
    await first.close();

    standIn.mode = 'refuse';
    try {
      providerAccount(email);
      const page = await openWithWidget('/handler/sign-in', { size: 'always' });
      await page.getByRole('button', { name: 'Continue with Google' }).click();
      await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, Ada Lovelace');
      expect((await userOf(email))?.user_id).toBe(userId);
      await page.close();
    } finally {
      standIn.mode = 'ok';
    }
  });

  it('runs an invisible hCaptcha widget (executed, nothing shown) and sends its token with the OAuth click', {
    timeout: 120_000,
  }, async () => {
    standIn.mode = 'ok';
    await applyChallenge({ provider: 'hcaptcha', mode: 'invisible' });
    try {
      const email = providerAccount();
      const before = standIn.calls.length;
      const page = await openWithWidget('/handler/sign-in', { size: 'invisible' });
      await page.getByRole('button', { name: 'Continue with Google' }).click();
      await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, Ada Lovelace');
      expect(await userOf(email)).toBeDefined();
      expect(standIn.calls.slice(before)).toEqual([
        expect.objectContaining({ provider: 'hcaptcha', form: expect.objectContaining({ response: expect.stringMatching(/^pass\./) }) }),
      ]);
      await page.close();
    } finally {
      await applyChallenge();
    }
  });
});
