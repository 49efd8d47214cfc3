import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { oauthFlowFixture } from '@gatehouse/testing/oauth-flow-fixture';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';

/** The provider's way back (GET, and Apple's form POST): the redirect to the app, and the failures the flow meets there. */
const { env, flows, mock, baseConfig, newEmail, googleProfile, projectWith, callbackBy } = oauthFlowFixture();

describe.each(['GET', 'POST'] as const)('%s /auth/oauth/callback/{provider_id}', (method) => {
  const callback = callbackBy(method);

  it('redirects to the app with a code', async () => {
    googleProfile(newEmail(`callback-${method}`));
    const started = await flows.toProvider();
    const answer = await callback(started.callback, started.cookie);
    expect(answer.status).toBe(303);
    expect(new URL(String(answer.headers.location)).searchParams.get('code')).toMatch(/^[a-z2-7]{45}$/);
  });

  it('answers plain 400 without the flow cookie or for an unknown state, and SCHEMA_ERROR for a bad parameter', async () => {
    const started = await flows.toProvider();
    expectPlain(await callback(started.callback, undefined), 400);
    const unknown = new URL(started.callback);
    unknown.searchParams.set('state', 'unknown-state');
    expectPlain(await callback(unknown, started.cookie), 400);
    const long = new URL(started.callback);
    long.searchParams.set('state', 's'.repeat(513));
    expectError(await callback(long, started.cookie), 400, 'SCHEMA_ERROR');
  });

  it('answers the provider denial, or redirects it to the flow error URL', async () => {
    const started = await flows.toProvider();
    const denied = new URL(started.callback);
    denied.searchParams.delete('code');
    denied.searchParams.set('error', 'access_denied');
    expectError(await callback(denied, started.cookie), 400, 'OAUTH_PROVIDER_ACCESS_DENIED');
    const withErrorUrl = await flows.toProvider({ errorRedirectUri: 'https://app.example.com/handler/error' });
    const redirected = new URL(withErrorUrl.callback);
    redirected.searchParams.delete('code');
    redirected.searchParams.set('error', 'access_denied');
    const answer = await callback(redirected, withErrorUrl.cookie);
    expect(answer.status).toBe(303);
    const location = new URL(String(answer.headers.location));
    expect(location.searchParams.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
    expect(location.searchParams.get('error')).toBe('access_denied');
  });

  it('answers OUTER_OAUTH_TIMEOUT after the outer flow expired', async () => {
    const started = await flows.toProvider();
    const state = started.callback.searchParams.get('state') as string;
    await env.context.database.db
      .updateTable('oauth_flow')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('inner_state', '=', state)
      .execute();
    const timedOut = await callback(started.callback, started.cookie);
    expectError(timedOut, 408, 'OUTER_OAUTH_TIMEOUT');
    expect(timedOut.body.error).toBe('The OAuth flow has timed out. Please sign in again.');
  });

  it('answers OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE when the provider is down', async () => {
    const started = await flows.toProvider();
    mock.state.tokenHook = (answer) => {
      answer.statusCode = 503;
      answer.body = { error: 'temporarily_unavailable' };
    };
    try {
      expectError(await callback(started.callback, started.cookie), 503, 'OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE');
    } finally {
      mock.state.tokenHook = undefined;
    }
  });

  it('re-checks the project between authorize and callback: provider off, sign-up off, redirect no longer trusted', async () => {
    const project = await projectWith({});
    const change = (config: Record<string, unknown>) =>
      env.context.services.projects.replaceConfigOverride(project.project.id, { ...baseConfig, ...config });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ 'auth.oauth.providers': { google: ownKeys('google', { allowSignIn: false }) } }, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED'],
      [{ 'auth.allowSignUp': false }, 'SIGN_UP_NOT_ENABLED'],
      [{ 'domains.trustedDomains': {} }, 'REDIRECT_URL_NOT_WHITELISTED'],
    ];
    for (const [config, code] of cases) {
      await change({});
      googleProfile(newEmail('recheck'));
      const started = await flows.toProvider({ project });
      await change(config);
      expectError(await callback(started.callback, started.cookie), 400, code);
    }
  });

  it('answers OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER and CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', async () => {
    const sub = googleProfile(newEmail('taken'));
    await flows.signIn();
    googleProfile(newEmail('linking'));
    const other = (await flows.signIn()).body;
    googleProfile(null, false, sub);
    const linking = await flows.toProvider({ type: 'link', token: other.access_token });
    expectError(await callback(linking.callback, linking.cookie), 409, 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
    const email = newEmail('channel');
    await env.context.services.users.create(env.project.project, { primary_email: email, primary_email_auth_enabled: true }, 'password');
    googleProfile(email, true);
    const merging = await flows.toProvider();
    expectError(await callback(merging.callback, merging.cookie), 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
  });
});
