import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { handlerPages } from '../../../react/src/handler-urls.ts';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';
import { accessibilitySweep } from './accessibility.ts';
import { greetingOf, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * Issue #29: every handler page of `@gatehouse/react` (every name in `handlerPages`, in each state a
 * visitor meets: empty, with field errors, with a request error, sent, with a valid and an incomplete
 * link, signed out and signed in) and every tab of account settings, in light and in dark: axe finds no
 * serious or critical violation. One visitor signs up through the sign-up page and is signed in from
 * then on (no state is planted in the browser); the project offers every sign-in method and section.
 */
const env = withDemoInChromium({
  'auth.passkey.allowSignIn': true,
  'auth.oauth.providers': { google: ownKeys('google') },
  'apiKeys.enabled': { user: true, team: true },
});

type Sweep = ReturnType<typeof accessibilitySweep>;

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().textContent();
const linkIn = (text: string, path: string) => text.match(new RegExp(`https?://\\S+${path}\\?code=[A-Za-z0-9]+`))?.[0];

/** Opens `path` and waits for the page's heading. */
async function open(page: Page, path: string, title: string): Promise<void> {
  await page.goto(`${env.platform.url}${path}`);
  await expect.poll(() => heading(page), { message: path }).toBe(title);
}

/** A second visitor with two-factor on signs in with a password and stops at the mfa page (a context of its own). */
async function mfaStates(sweep: Sweep, browser: Browser): Promise<void> {
  const { platform } = env;
  const user = { email: `totp-${randomUUID().slice(0, 8)}@demo.test`, password: 'totp-password-1' };
  await platform.context.services.users.create(
    platform.project.project,
    {
      primary_email: user.email,
      primary_email_auth_enabled: true,
      primary_email_verified: true,
      password: user.password,
      totp_secret_base64: Buffer.from('12345678901234567890').toString('base64'),
    },
    'server',
  );
  const page = await (await browser.newContext()).newPage();
  await open(page, '/handler/mfa', 'Two-factor authentication');
  await sweep.judge(page, 'mfa', 'without-a-sign-in');
  await page.goto(`${platform.url}/handler/sign-in`);
  await submitPasswordSignIn(page, user);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/mfa');
  await page.getByLabel('Authentication code', { exact: true }).waitFor();
  await sweep.judge(page, 'mfa', 'asked');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect.poll(() => page.getByText('Enter the code from your authenticator app.').isVisible()).toBe(true);
  await sweep.judge(page, 'mfa', 'field-error');
  await page.getByLabel('Authentication code', { exact: true }).fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
  await sweep.judge(page, 'mfa', 'wrong-code');
  await page.context().close();
}

describe('the handler pages in Chromium', () => {
  it('have no serious or critical axe violation, light and dark, in every state', { timeout: 600_000 }, async () => {
    const { platform } = env;
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 } });
    const sweep = accessibilitySweep('handler-pages-accessibility');
    const email = `ada-${randomUUID().slice(0, 8)}@demo.test`;
    const password = 'ada-password-1';

    // Signed out.
    await open(page, '/handler/sign-in', 'Sign in');
    await sweep.judge(page, 'sign-in', 'empty');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await sweep.judge(page, 'sign-in', 'field-errors');
    await page.getByLabel('Email', { exact: true }).fill(`nobody-${randomUUID().slice(0, 8)}@demo.test`);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong e-mail or password.');
    await sweep.judge(page, 'sign-in', 'wrong-password');
    await page.getByRole('tab', { name: 'Email link' }).click();
    await sweep.judge(page, 'sign-in', 'email-link');

    await open(page, '/handler/sign-up', 'Create your account');
    await sweep.judge(page, 'sign-up', 'empty');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await sweep.judge(page, 'sign-up', 'field-errors');

    await open(page, '/handler/forgot-password', 'Reset your password');
    await sweep.judge(page, 'forgot-password', 'empty');
    for (const [name, title] of [
      ['password-reset', 'Choose a new password'],
      ['email-verification', 'Verify your email'],
      ['magic-link-callback', 'Sign in'],
      ['team-invitation', 'Team invitation'],
    ] as const) {
      await open(page, `/handler/${name}`, title);
      await sweep.judge(page, name, 'incomplete-link');
    }
    await open(page, '/handler/password-reset?code=thiscodedoesnotexist', 'Choose a new password');
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    await sweep.judge(page, 'password-reset', 'unknown-code');
    await open(page, '/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=The%20provider%20said%20no.', 'Something went wrong');
    await sweep.judge(page, 'error', 'with-code');
    await open(page, '/handler/oauth-callback?code=stale&state=stale', 'Sign-in failed');
    await sweep.judge(page, 'oauth-callback', 'failed');
    await open(page, '/handler/no-such-page', 'Page not found');
    await sweep.judge(page, 'not-found', 'unknown-page');
    await mfaStates(sweep, env.browser);

    // Signing up through the page signs the visitor in; the verification email's link comes by SMTP.
    await open(page, '/handler/sign-up', 'Create your account');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Repeat password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);
    await page.getByRole('button', { name: email }).click();
    await page.getByRole('menuitem', { name: 'Account settings' }).waitFor();
    await sweep.judge(page, 'user-button', 'menu-open');
    const verification = await platform.mail.waitFor(
      (message) => message.to.includes(email) && message.text.includes('email-verification'),
    );
    const verificationLink = linkIn(verification.text, '/handler/email-verification');
    expect(verificationLink, verification.text).toBeDefined();
    await page.goto(verificationLink!);
    await expect.poll(() => heading(page)).toBe('Verify your email');
    await sweep.judge(page, 'email-verification', 'with-code');
    await page.getByRole('button', { name: 'Verify email' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Your email is verified.');
    await sweep.judge(page, 'email-verification', 'verified');

    // Every tab of account settings, in the order the page shows them.
    await open(page, '/handler/account-settings', 'Account settings');
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual([
      'Profile',
      'Emails',
      'Password',
      'Connected accounts',
      'Two-factor',
      'Passkeys',
      'Sessions',
      'Teams',
      'Connected apps',
      'Notifications',
      'API keys',
      'Delete account',
    ]);
    for (const tab of tabs) {
      await page.getByRole('tab', { name: tab }).click();
      await expect
        .poll(() =>
          page
            .getByRole('tabpanel')
            .getByText(/^Loading/)
            .count(),
        )
        .toBe(0);
      await sweep.judge(page, 'account-settings', tab.toLowerCase().replaceAll(' ', '-'));
    }
    await page.getByRole('tab', { name: 'Two-factor' }).click();
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByLabel('Code from the app', { exact: true }).waitFor();
    await sweep.judge(page, 'account-settings', 'two-factor-setup');
    await page.getByRole('tab', { name: 'Teams' }).click();
    await page.getByLabel('Team name', { exact: true }).fill('Analytical Engines');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByLabel('Invite to Analytical Engines', { exact: true }).waitFor();
    await sweep.judge(page, 'account-settings', 'teams-with-a-team');

    // An invitation to another visitor's team, opened signed in.
    const owner = { email: `owner-${randomUUID().slice(0, 8)}@demo.test` };
    const server = {
      'x-stack-access-type': 'server',
      'x-stack-project-id': platform.project.project.id,
      'x-stack-secret-server-key': platform.project.keys.secret_server_key,
    };
    const call = async <T>(url: string, payload: object) => {
      const response = await platform.context.request({ method: 'POST', url: `/api/v1${url}`, headers: server, payload });
      expect(response.status, `${url}: ${response.text}`).toBeLessThan(300);
      return response.body as T;
    };
    const ownerUser = await call<{ id: string }>('/users', { primary_email: owner.email });
    const team = await call<{ id: string }>('/teams', { display_name: 'Difference Engines', creator_user_id: ownerUser.id });
    await call('/team-invitations/send-code', { team_id: team.id, email, callback_url: `${platform.url}/handler/team-invitation` });
    const invitation = await platform.mail.waitFor((message) => message.to.includes(email) && message.text.includes('team-invitation'));
    await page.goto(linkIn(invitation.text, '/handler/team-invitation')!);
    await expect.poll(() => page.getByRole('button', { name: 'Join Difference Engines' }).isVisible()).toBe(true);
    await sweep.judge(page, 'team-invitation', 'signed-in');
    await page.getByRole('button', { name: 'Join Difference Engines' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('You joined Difference Engines.');
    await sweep.judge(page, 'team-invitation', 'joined');

    // A CLI waiting for its login.
    const cli = await platform.context.request({
      method: 'POST',
      url: '/api/v1/auth/cli',
      headers: {
        'x-stack-access-type': 'client',
        'x-stack-project-id': platform.project.project.id,
        'x-stack-publishable-client-key': platform.project.keys.publishable_client_key,
      },
      payload: {},
    });
    const { login_code: loginCode } = cli.body as { login_code: string };
    await open(page, '/handler/cli-auth-confirm', 'Authorize the CLI');
    await sweep.judge(page, 'cli-auth-confirm', 'incomplete-link');
    await open(page, `/handler/cli-auth-confirm?login_code=${loginCode}`, 'Authorize the CLI');
    await sweep.judge(page, 'cli-auth-confirm', 'asked');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect.poll(() => heading(page)).toBe('CLI authorized');
    await sweep.judge(page, 'cli-auth-confirm', 'authorized');

    // An application waiting for consent (the project as an OpenID provider).
    const oauthApp = await platform.context.request({
      method: 'POST',
      url: '/api/v1/internal/oauth-applications',
      headers: platform.project.headers.admin,
      payload: { name: 'Acme Notes', type: 'public', redirect_uris: ['https://notes.example.com/callback'] },
    });
    const authorizeQuery = new URLSearchParams({
      client_id: (oauthApp.body as { client_id: string }).client_id,
      response_type: 'code',
      redirect_uri: 'https://notes.example.com/callback',
      scope: 'openid email profile',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const started = await platform.context.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${platform.project.project.id}/oauth/auth?${authorizeQuery}`,
      headers: { host: new URL(platform.url).host },
    });
    const consentUrl = new URL(String(started.headers.location));
    await open(page, '/handler/oauth-consent', 'Authorize an application');
    await sweep.judge(page, 'oauth-consent', 'incomplete-link');
    await open(page, `${consentUrl.pathname}${consentUrl.search}`, 'Authorize Acme Notes');
    await sweep.judge(page, 'oauth-consent', 'asked');

    // Signed out again: the emailed sign-in link and the password reset link.
    await page.goto(`${platform.url}/handler/sign-out`);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible()).toBe(true);
    await sweep.judge(page, 'sign-out', 'landed');
    await open(page, '/handler/sign-in', 'Sign in');
    await page.getByRole('tab', { name: 'Email link' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Check your inbox');
    await sweep.judge(page, 'sign-in', 'email-link-sent');
    const magic = await platform.mail.waitFor((message) => message.to.includes(email) && message.text.includes('magic-link-callback'));
    await page.goto(linkIn(magic.text, '/handler/magic-link-callback')!);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    await sweep.judge(page, 'magic-link-callback', 'with-code');
    await page.goto(`${platform.url}/handler/sign-out`);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible()).toBe(true);
    await open(page, '/handler/forgot-password', 'Reset your password');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('we sent it a link');
    await sweep.judge(page, 'forgot-password', 'sent');
    const reset = await platform.mail.waitFor((message) => message.to.includes(email) && message.text.includes('password-reset'));
    await page.goto(linkIn(reset.text, '/handler/password-reset')!);
    await page.getByLabel('New password', { exact: true }).waitFor();
    await sweep.judge(page, 'password-reset', 'with-code');
    await page.getByRole('button', { name: 'Change password' }).click();
    await sweep.judge(page, 'password-reset', 'field-errors');

    // Every page of the handler's route list was judged.
    expect([...Object.values(handlerPages)].filter((name) => !sweep.visited.has(name))).toEqual([]);
    expect(sweep.findings).toEqual([]);
  });
});
