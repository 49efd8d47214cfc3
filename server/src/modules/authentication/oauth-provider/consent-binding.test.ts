import { describe, expect, it } from 'vitest';
import { cookieJar, createApplication, oauthPath, pkcePair, publicHost, signedInUser } from '@gatehouse/testing/oauth-provider-testing';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * The consent step is bound to the browser that started the authorization request: a consent URL leaked to (or
 * phished onto) another signed-in user cannot grant that user's account to the browser that started it. Each
 * "browser" here is its own cookie jar; the consent page's API calls carry the user's session as the page does.
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';

/** A browser opens the application's authorization URL: the provider's cookies and the consent page's interaction. */
async function startAuthorization(clientId: string) {
  const jar = cookieJar();
  const start = await env.context.request({
    method: 'GET',
    url: `${oauthPath(env.project.project.id, '/auth')}?${new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid email',
      state: 'bound',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      prompt: 'consent',
    })}`,
    headers: publicHost,
  });
  expect(start.status, start.text).toBe(303);
  jar.storeSetCookie(start.headers['set-cookie']);
  return { jar, interaction: new URL(start.headers.location as string).searchParams.get('interaction') as string };
}

const answer = (interaction: string, userHeaders: Record<string, string>, allow = true) =>
  env.context.request({
    method: 'POST',
    url: `/api/v1/oauth-provider/interactions/${interaction}`,
    headers: userHeaders,
    payload: { allow },
  });

/** The browser follows a URL on the provider (the return after consent), with its own cookies only. */
const follow = (url: string, cookies: string) => {
  const target = new URL(url);
  return env.context.request({
    method: 'GET',
    url: target.pathname + target.search,
    headers: { ...publicHost, ...(cookies ? { cookie: cookies } : {}) },
  });
};

/** What a fresh request of the application shows the user: whether their consent is remembered. */
async function consentRemembered(clientId: string, userHeaders: Record<string, string>) {
  const { interaction } = await startAuthorization(clientId);
  const described = await env.context.request({
    method: 'GET',
    url: `/api/v1/oauth-provider/interactions/${interaction}`,
    headers: userHeaders,
  });
  expect(described.status, described.text).toBe(200);
  return described.body.remembered as boolean;
}

describe('OpenID provider: the consent is bound to the browser that started the request', () => {
  it('a leaked consent URL allowed by another signed-in user grants nothing, in either browser', async () => {
    const application = await createApplication(env.context, env.project, { name: 'Bound', type: 'public', redirect_uris: [redirectUri] });
    const victim = await signedInUser(env.context, env.project);
    // The attacker starts the request in their browser and sends the consent URL to the victim.
    const attacker = await startAuthorization(application.client_id);

    // The victim's browser (no cookie of the attacker's request) opens it and allows.
    const allowed = await answer(attacker.interaction, victim.headers);
    expect(allowed.status, allowed.text).toBe(200);
    const inVictimsBrowser = await follow(allowed.body.redirect_to, '');
    expect(inVictimsBrowser.status, inVictimsBrowser.text).toBe(404);
    expect(inVictimsBrowser.body.code).toBe('OAUTH_INTERACTION_NOT_FOUND');

    // The attacker's browser comes back to the provider (it holds the request's cookies, not the victim's answer).
    const returnTo = new URL(allowed.body.redirect_to);
    returnTo.search = '';
    const inAttackersBrowser = await follow(returnTo.href, attacker.jar.header());
    expect(inAttackersBrowser.status, inAttackersBrowser.text).toBe(404);
    expect(inAttackersBrowser.body.code).toBe('OAUTH_INTERACTION_NOT_FOUND');
    expect(String(inAttackersBrowser.headers.location ?? '')).not.toContain('code=');

    // Nor with a guessed token; and the answered request cannot be answered again.
    returnTo.searchParams.set('answer', 'guessed');
    expect((await follow(returnTo.href, attacker.jar.header())).status).toBe(404);
    expect((await answer(attacker.interaction, victim.headers)).body.code).toBe('OAUTH_INTERACTION_NOT_FOUND');

    // Nothing was granted: the victim's consent is not remembered for the application.
    expect(await consentRemembered(application.client_id, victim.headers)).toBe(false);
  });

  it('the browser that started the request and answered it gets the code', async () => {
    const application = await createApplication(env.context, env.project, { name: 'Bound', type: 'public', redirect_uris: [redirectUri] });
    const user = await signedInUser(env.context, env.project);
    const browser = await startAuthorization(application.client_id);
    const allowed = await answer(browser.interaction, user.headers);
    expect(allowed.status, allowed.text).toBe(200);
    const back = await follow(allowed.body.redirect_to, browser.jar.header());
    expect(back.status, back.text).toBe(303);
    const location = new URL(back.headers.location as string);
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect(location.searchParams.get('code')).toBeTruthy();
    expect(await consentRemembered(application.client_id, user.headers)).toBe(true);
  });
});
