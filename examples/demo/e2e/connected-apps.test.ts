import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, screenshots } from './chromium.ts';
import { createPasswordUser, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * "Connected apps" in account settings (issue #35): a person authorises a third-party app (openid-client, its own
 * callback server) through the consent page, starting from the app's authorization URL; then, in the demo app's
 * account settings, sees it under Connected apps and disconnects it. The app's refresh token is refused from then
 * on (checked at the token endpoint), and the next authorization shows the consent page again.
 */
const env = withDemoInChromium();
const step = { timeout: 180_000 };
const wait = { timeout: 60_000 };
let rp: { server: Server; url: string; callbacks: URL[] };

beforeAll(async () => {
  const callbacks: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    if (url.pathname === '/callback') callbacks.push(url);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Third-party app: signed in</h1>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  rp = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, callbacks };
});
afterAll(() => new Promise<void>((done) => (rp ? rp.server.close(() => done()) : done())));

/** Opens a URL as a person types it: the wait is on what comes next, not on the first document's load. */
const open = (page: Page, url: string) => page.goto(url, { waitUntil: 'commit' });

async function backAtTheApp(page: Page, count: number) {
  await expect.poll(() => rp.callbacks.length, wait).toBeGreaterThanOrEqual(count);
  await expect.poll(() => page.getByRole('heading', { name: 'Third-party app: signed in' }).isVisible(), wait).toBe(true);
}

describe('connected apps, in Chromium', () => {
  it(
    'authorise an app, see it under Connected apps, disconnect it: its refresh token is refused and consent is asked again',
    step,
    async () => {
      const shot = screenshots('connected-apps');
      const registered = await env.platform.context.request({
        method: 'POST',
        url: '/api/v1/internal/oauth-applications',
        headers: env.platform.project.headers.admin,
        payload: { name: 'Acme Journal', type: 'public', redirect_uris: [`${rp.url}/callback`] },
      });
      expect(registered.status, registered.text).toBe(201);
      const clientId = registered.body.client_id as string;
      const user = await createPasswordUser(env.platform, 'ada');
      const issuer = new URL(`${env.platform.url}/api/v1/projects/${env.platform.project.project.id}/oauth`);
      const config = await oidc.discovery(issuer, clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
      const authorizationUrl = async (state: string, verifier: string) =>
        oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${rp.url}/callback`,
          scope: 'openid email offline_access',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          // offline_access needs the consent prompt (OpenID Connect Core §11).
          prompt: 'consent',
        });
      const page = await env.browser.newPage();
      page.setDefaultTimeout(wait.timeout);
      try {
        // The app sends the person to the provider; signed out, they sign in, then allow.
        const verifier = oidc.randomPKCECodeVerifier();
        await open(page, (await authorizationUrl('first', verifier)).href);
        await expect.poll(() => new URL(page.url()).pathname, wait).toBe('/handler/sign-in');
        await submitPasswordSignIn(page, user);
        await expect.poll(() => page.getByRole('heading', { name: 'Authorize Acme Journal' }).isVisible(), wait).toBe(true);
        await page.getByRole('button', { name: 'Allow' }).click();
        await backAtTheApp(page, 1);
        const tokens = await oidc.authorizationCodeGrant(config, rp.callbacks.at(-1) as URL, {
          pkceCodeVerifier: verifier,
          expectedState: 'first',
        });
        expect(tokens.refresh_token).toBeTruthy();

        // In the project's own app: the user menu, account settings, Connected apps.
        await open(page, env.platform.url);
        await page.getByRole('button', { name: user.email }).click();
        await page.getByRole('menuitem', { name: 'Account settings' }).click();
        await page.getByRole('tab', { name: 'Connected apps' }).click();
        const section = page.getByRole('region', { name: 'Connected apps' });
        await expect.poll(() => section.getByText('Acme Journal', { exact: true }).isVisible(), wait).toBe(true);
        expect(await section.getByRole('list', { name: 'What Acme Journal can do' }).getByRole('listitem').allTextContents()).toEqual([
          'Know who you are (your user id)',
          'See your email address',
          'Stay connected when you are not using it',
        ]);
        await shot(page, 'listed');

        await section.getByRole('button', { name: 'Disconnect Acme Journal' }).click();
        await expect
          .poll(() => section.getByText('You have not allowed any application to use your account.').isVisible(), wait)
          .toBe(true);
        await shot(page, 'disconnected');

        // Server-side: the app's refresh token is refused at the token endpoint.
        const refresh = await fetch(`${issuer.href}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId }),
        });
        expect(refresh.status).toBe(400);
        expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');

        // Authorising again asks for consent again (the person is still signed in).
        const second = oidc.randomPKCECodeVerifier();
        await open(page, (await authorizationUrl('second', second)).href);
        await expect.poll(() => page.getByRole('heading', { name: 'Authorize Acme Journal' }).isVisible(), wait).toBe(true);
        await page.getByRole('button', { name: 'Allow' }).click();
        await backAtTheApp(page, 2);
        expect(rp.callbacks.at(-1)?.searchParams.get('state')).toBe('second');
      } finally {
        await closePage(page);
      }
    },
  );
});
