import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { generate, ScureBase32Plugin } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, screenshots } from './chromium.ts';
import { createPasswordUser, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * The demo project as an OpenID provider for a third-party app (issue #35). The relying party is `openid-client`
 * with its own callback server; Chromium opens the RP's authorization URL and follows every redirect: the
 * provider, the handler's sign-in, the consent page, back to the provider and on to the RP's callback.
 *
 * Under a loaded CI machine each page of that chain can take many seconds, so the journey is split into steps with
 * a budget each, every wait is a poll on what the person would see (never a fixed sleep, never a navigation's load
 * event: the chain is redirects and script-driven moves), and Playwright's own waits get the same generous bound.
 */
const env = withDemoInChromium();
const step = { timeout: 120_000 };
const wait = { timeout: 60_000 };
let rp: { server: Server; url: string; callbacks: URL[] };

beforeAll(async () => {
  const callbacks: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    // Only the redirects (Chromium also asks for /favicon.ico).
    if (url.pathname === '/callback') callbacks.push(url);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Third-party app: signed in</h1>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  rp = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, callbacks };
});
afterAll(() => new Promise<void>((done) => (rp ? rp.server.close(() => done()) : done())));

async function registerApplication(type: 'public' | 'confidential') {
  const response = await env.platform.context.request({
    method: 'POST',
    url: '/api/v1/internal/oauth-applications',
    headers: env.platform.project.headers.admin,
    payload: { name: 'Acme Notes', type, redirect_uris: [`${rp.url}/callback`] },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { client_id: string; client_secret: string | null };
}

/** A page whose actions (fill, click) wait as long as the polls do. */
async function newPage(): Promise<Page> {
  const page = await env.browser.newPage();
  page.setDefaultTimeout(wait.timeout);
  return page;
}

/** Opens a URL as a person types it: the wait is on what comes next, not on the first document's load. */
const open = (page: Page, url: string) => page.goto(url, { waitUntil: 'commit' });

/**
 * The browser is back at the app: its callback was asked for `count` times in all, and the page shows the app (the
 * request reaching the app's server comes before Chromium commits the page: closing it in between is a race).
 */
async function backAtTheApp(page: Page, count: number) {
  await expect.poll(() => rp.callbacks.length, wait).toBeGreaterThanOrEqual(count);
  await expect.poll(() => page.getByRole('heading', { name: 'Third-party app: signed in' }).isVisible(), wait).toBe(true);
}

describe('Gatehouse as an OpenID provider, in Chromium: openid-client with code + PKCE', () => {
  const shot = screenshots('identity-provider');
  const flow = {} as {
    page: Page;
    issuer: URL;
    application: { client_id: string };
    config: oidc.Configuration;
    verifier: string;
    state: string;
    user: { email: string; password: string };
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
  };
  afterAll(() => flow.page && closePage(flow.page));

  it('the authorization URL leads a signed-out person through sign-in to the consent page', step, async () => {
    const [application, user, page] = await Promise.all([
      registerApplication('public'),
      createPasswordUser(env.platform, 'grace'),
      newPage(),
    ]);
    const issuer = new URL(`${env.platform.url}/api/v1/projects/${env.platform.project.project.id}/oauth`);
    const config = await oidc.discovery(issuer, application.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    Object.assign(flow, { page, issuer, application, config, user, verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState() });
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${rp.url}/callback`,
      scope: 'openid email profile offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      prompt: 'consent',
    });

    await open(page, authorizationUrl.href);
    // Signed out: the consent page sends the person to sign in, and back.
    await expect.poll(() => new URL(page.url()).pathname, wait).toBe('/handler/sign-in');
    await submitPasswordSignIn(page, user);
    await expect.poll(() => page.getByRole('heading', { name: 'Authorize Acme Notes' }).isVisible(), wait).toBe(true);
    const asked = await page.getByRole('list', { name: 'What the application asks for' }).getByRole('listitem').allTextContents();
    expect(asked).toEqual([
      'Know who you are (your user id)',
      'See your email address',
      'See your name and profile picture',
      'Stay connected when you are not using it',
    ]);
    await shot(page, 'consent');
  });

  it('Allow sends a code to the app, which exchanges it with its verifier and reads userinfo', step, async () => {
    const { page, config, issuer, application, user } = flow;
    const before = rp.callbacks.length;
    await page.getByRole('button', { name: 'Allow' }).click();
    await backAtTheApp(page, before + 1);

    const callback = rp.callbacks.at(-1) as URL;
    flow.tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    const claims = flow.tokens.claims();
    expect(claims?.iss).toBe(issuer.href);
    expect(claims?.aud).toBe(application.client_id);
    const userinfo = await oidc.fetchUserInfo(config, flow.tokens.access_token, claims?.sub as string);
    expect(userinfo.email).toBe(user.email);
    expect(userinfo.email_verified).toBe(true);
  });

  it('the refresh token rotates and the new access token reads userinfo', step, async () => {
    const { config, tokens } = flow;
    const sub = tokens.claims()?.sub as string;
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, sub)).sub).toBe(sub);
  });

  it('the consent is remembered: a second sign-in goes straight back to the app', step, async () => {
    const { page, config } = flow;
    const again = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${rp.url}/callback`,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: 'second',
    });
    const before = rp.callbacks.length;
    await open(page, again.href);
    await backAtTheApp(page, before + 1);
    expect(rp.callbacks.at(-1)?.searchParams.get('state')).toBe('second');
    expect(rp.callbacks.at(-1)?.searchParams.get('code')).toBeTruthy();
  });
});

describe('Gatehouse as an OpenID provider, in Chromium: a user with two-factor authentication', () => {
  it('signs in with password and authenticator code, consents, and the app validates, refreshes and reads userinfo', step, async () => {
    // The user's authenticator app holds the same secret the project stores (base32 in the app, base64 in the API).
    const secret = randomBytes(20);
    const authenticatorKey = new ScureBase32Plugin().encode(secret);
    const user = { email: `ada-${randomBytes(4).toString('hex')}@demo.test`, password: 'ada-password-1' };
    const [application, , page] = await Promise.all([
      registerApplication('confidential'),
      env.platform.context.services.users.create(
        env.platform.project.project,
        {
          primary_email: user.email,
          primary_email_auth_enabled: true,
          primary_email_verified: true,
          password: user.password,
          totp_secret_base64: secret.toString('base64'),
        },
        'server',
      ),
      newPage(),
    ]);
    const issuer = new URL(`${env.platform.url}/api/v1/projects/${env.platform.project.project.id}/oauth`);
    const config = await oidc.discovery(issuer, application.client_id, application.client_secret as string, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${rp.url}/callback`,
      scope: 'openid email profile offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      prompt: 'consent',
    });
    try {
      await open(page, url.href);
      await expect.poll(() => new URL(page.url()).pathname, wait).toBe('/handler/sign-in');
      await submitPasswordSignIn(page, user);
      // The password alone does not sign in: the MFA step asks for the authenticator's current code.
      const codeField = page.getByLabel('Authentication code', { exact: true });
      await expect.poll(() => codeField.isVisible(), wait).toBe(true);
      await codeField.fill(await generate({ secret: authenticatorKey }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Authorize Acme Notes' }).isVisible(), wait).toBe(true);
      const before = rp.callbacks.length;
      await page.getByRole('button', { name: 'Allow' }).click();
      await expect.poll(() => rp.callbacks.filter((callback) => callback.searchParams.get('state') === state).length, wait).toBe(1);
      await backAtTheApp(page, before + 1);
    } finally {
      await closePage(page);
    }

    const callback = rp.callbacks.find((candidate) => candidate.searchParams.get('state') === state) as URL;
    // openid-client checks the ID token: ES256 signature against the JWKS, issuer, audience, nonce, expiry.
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const claims = tokens.claims();
    expect(claims).toMatchObject({ iss: issuer.href, aud: application.client_id, nonce });
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
    expect(userinfo).toMatchObject({ sub: claims?.sub, email: user.email, email_verified: true });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, claims?.sub as string)).email).toBe(user.email);
  });
});

describe('Gatehouse as an OpenID provider, in Chromium: refusals', () => {
  it('denied consent sends access_denied to the app', step, async () => {
    const [application, linus, page] = await Promise.all([
      registerApplication('confidential'),
      createPasswordUser(env.platform, 'linus'),
      newPage(),
    ]);
    const issuer = new URL(`${env.platform.url}/api/v1/projects/${env.platform.project.project.id}/oauth`);
    const config = await oidc.discovery(issuer, application.client_id, application.client_secret as string, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${rp.url}/callback`,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'deny',
    });
    try {
      await open(page, url.href);
      await expect.poll(() => new URL(page.url()).pathname, wait).toBe('/handler/sign-in');
      await submitPasswordSignIn(page, linus);
      await page.getByRole('button', { name: 'Deny' }).click();
      await expect.poll(() => rp.callbacks.at(-1)?.searchParams.get('state'), wait).toBe('deny');
      await backAtTheApp(page, 1);
      expect(rp.callbacks.at(-1)?.searchParams.get('error')).toBe('access_denied');
    } finally {
      await closePage(page);
    }
  });
});
