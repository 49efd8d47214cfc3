import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * The demo project as an OpenID provider for a third-party app (issue #35). The relying party is `openid-client`
 * with its own callback server; Chromium opens the RP's authorization URL and follows every redirect: the
 * provider, the handler's sign-in, the consent page, back to the provider and on to the RP's callback.
 */
const env = withDemoInChromium();
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

describe('Gatehouse as an OpenID provider, in Chromium', () => {
  it('openid-client completes code + PKCE through sign-in and consent, refreshes and reads userinfo', { timeout: 120_000 }, async () => {
    const shot = screenshots('identity-provider');
    const application = await registerApplication('public');
    const issuer = new URL(`${env.platform.url}/api/v1/projects/${env.platform.project.project.id}/oauth`);
    const config = await oidc.discovery(issuer, application.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${rp.url}/callback`,
      scope: 'openid email profile offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      prompt: 'consent',
    });

    const grace = await createPasswordUser(env.platform, 'grace');
    const page = await env.browser.newPage();
    await page.goto(authorizationUrl.href);
    // Signed out: the consent page sends the person to sign in, and back.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/handler/sign-in');
    await submitPasswordSignIn(page, grace);
    await expect.poll(() => page.getByRole('heading', { name: 'Authorize Acme Notes' }).isVisible(), { timeout: 30_000 }).toBe(true);
    const asked = await page.getByRole('list', { name: 'What the application asks for' }).getByRole('listitem').allTextContents();
    expect(asked).toEqual([
      'Know who you are (your user id)',
      'See your email address',
      'See your name and profile picture',
      'Stay connected when you are not using it',
    ]);
    await shot(page, 'consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => page.url(), { timeout: 30_000 }).toContain(`${rp.url}/callback`);
    await expect.poll(() => page.getByRole('heading', { name: 'Third-party app: signed in' }).isVisible()).toBe(true);

    const callback = rp.callbacks.at(-1) as URL;
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const claims = tokens.claims();
    expect(claims?.iss).toBe(issuer.href);
    expect(claims?.aud).toBe(application.client_id);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
    expect(userinfo.email).toBe(grace.email);
    expect(userinfo.email_verified).toBe(true);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, claims?.sub as string)).sub).toBe(claims?.sub);

    // The consent is remembered: a second sign-in goes straight back to the app.
    const again = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${rp.url}/callback`,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'second',
    });
    const before = rp.callbacks.length;
    await page.goto(again.href);
    await expect.poll(() => rp.callbacks.length, { timeout: 30_000 }).toBe(before + 1);
    expect(rp.callbacks.at(-1)?.searchParams.get('code')).toBeTruthy();
    await page.close();
  });

  it('denied consent sends access_denied to the app', { timeout: 120_000 }, async () => {
    const application = await registerApplication('confidential');
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
    const linus = await createPasswordUser(env.platform, 'linus');
    const page = await env.browser.newPage();
    await page.goto(url.href);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/handler/sign-in');
    await submitPasswordSignIn(page, linus);
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => rp.callbacks.at(-1)?.searchParams.get('state'), { timeout: 30_000 }).toBe('deny');
    expect(rp.callbacks.at(-1)?.searchParams.get('error')).toBe('access_denied');
    await page.close();
  });
});
