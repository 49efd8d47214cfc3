import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotChallengeSettings } from '../../../server/src/modules/authentication/bot-challenges/index.ts';
import { type BotChallengeStandIn, standInSecret, startBotChallengeStandIn } from '@gatehouse/testing/bot-challenge-stand-in';
import { screenshots } from './chromium.ts';
import { greetingOf, withDemoInChromium } from './e2e-environment.ts';

/**
 * The handler's sign-up page with the project's bot challenge on, in Chromium: the page loads the
 * provider's widget script (here the stand-in's fake widget, through the *_SCRIPT_URL settings),
 * renders the widget with the project's site key, and sends its token with the sign-up, which the
 * server verifies at the stand-in's siteverify.
 */
let standIn: BotChallengeStandIn;
const settings = {} as BotChallengeSettings;
beforeAll(async () => {
  standIn = await startBotChallengeStandIn(2_000);
  Object.assign(settings, standIn.settings);
});
afterAll(() => standIn?.close());

const challenge = (overrides: Record<string, unknown>) => ({
  mode: 'required',
  provider: 'turnstile',
  siteKey: 'demo-site-key',
  secretKey: standInSecret,
  onProviderOutage: 'reject',
  minScore: 0.5,
  ...overrides,
});
const env = withDemoInChromium({ 'auth.botChallenge': challenge({}) }, { settings: () => ({ 'bot-challenges': settings }) });

/** Sets the demo project's challenge (through the service: the demo's SMTP block is not one the admin API would save). */
async function useChallenge(overrides: Record<string, unknown>) {
  const { projects } = env.platform.context.services;
  const id = env.platform.project.project.id;
  const current = (await projects.find(id))?.config_override ?? {};
  await projects.replaceConfigOverride(id, { ...current, 'auth.botChallenge': challenge(overrides) });
}

async function signUpThroughThePage(testName: string, expected: { provider: string; size: string }) {
  const shot = screenshots(testName);
  const page = await env.browser.newPage();
  const email = `bot-check-${randomUUID().slice(0, 8)}@demo.test`;
  const before = standIn.calls.length;
  await page.goto(`${env.platform.url}/handler/sign-up`);
  const widget = page.getByTestId('fake-bot-challenge');
  await expect.poll(() => widget.count(), { timeout: 20_000 }).toBe(1);
  expect(await widget.getAttribute('data-provider')).toBe(expected.provider);
  expect(await widget.getAttribute('data-sitekey')).toBe('demo-site-key');
  expect(await widget.getAttribute('data-size')).toBe(expected.size);
  await shot(page, 'sign-up-with-widget');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('bot-check-password-1');
  await page.getByLabel('Repeat password', { exact: true }).fill('bot-check-password-1');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect.poll(() => greetingOf(page), { timeout: 20_000 }).toBe(`Hello, ${email}`);
  const calls = standIn.calls.slice(before);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ provider: expected.provider, form: { secret: standInSecret } });
  // The token the fake widget handed the page (pass.<sitekey>.<n>) is the one the server verified.
  expect(calls[0]?.form.response).toMatch(/^pass\.demo-site-key\.\d+$/);
  await page.close();
}

describe('the handler sign-up page with a bot challenge', () => {
  it('renders a required Turnstile widget and sends its token with the sign-up', { timeout: 120_000 }, async () => {
    await useChallenge({});
    await signUpThroughThePage('bot-challenge-turnstile', { provider: 'turnstile', size: 'always' });
    expect(standIn.scriptLoads).toBeGreaterThan(0);
  });

  it('runs an invisible hCaptcha widget (size invisible, executed) and sends its token', { timeout: 120_000 }, async () => {
    await useChallenge({ provider: 'hcaptcha', mode: 'invisible' });
    await signUpThroughThePage('bot-challenge-hcaptcha-invisible', { provider: 'hcaptcha', size: 'invisible' });
  });

  it('says the check could not be done when the widget script cannot load and the project fails closed', { timeout: 120_000 }, async () => {
    await useChallenge({});
    const page = await env.browser.newPage();
    // The provider's script cannot be fetched: the form says so (bot_challenge_unavailable) and the project fails closed.
    await page.route('**/turnstile/api.js', (route) => route.abort());
    await page.goto(`${env.platform.url}/handler/sign-up`);
    await expect.poll(() => page.getByRole('heading', { name: 'Create your account' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByLabel('Email', { exact: true }).fill(`no-widget-${randomUUID().slice(0, 8)}@demo.test`);
    await page.getByLabel('Password', { exact: true }).fill('bot-check-password-1');
    await page.getByLabel('Repeat password', { exact: true }).fill('bot-check-password-1');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Sign up' }).click();
          return page.getByRole('alert').textContent();
        },
        { timeout: 30_000 },
      )
      .toBe('The check above was not passed. Try it again.');
    expect(await page.getByTestId('fake-bot-challenge').count()).toBe(0);
    await page.close();
  });
});
