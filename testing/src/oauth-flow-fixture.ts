import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll } from 'vitest';
import type { OAuthSettings } from '@gatehouse/server/src/modules/authentication/oauth/oauth-settings.ts';
import { type MockProvider, startMockProvider } from './mock-oauth-provider.ts';
import { oauthFlows, ownKeys, trustedDomains } from './oauth-test-flow.ts';
import { type TestProject, withTestContext } from './test-context.ts';

/**
 * The setup the OAuth sign-in test files share: a real OpenID provider on 127.0.0.1 standing in for
 * google, github, spotify and gitlab (spotify also with the operator's shared keys), a project with
 * google and github on (gitlab listed but off), and helpers to set the provider's profile. Call once
 * per file, at its top level (it registers beforeAll/afterAll).
 */
export function oauthFlowFixture() {
  let provider: MockProvider | undefined;
  const settings: OAuthSettings = { endpoints: {}, sharedKeys: {} };
  beforeAll(async () => {
    provider = await startMockProvider();
    settings.endpoints = {
      google: provider.endpoints(),
      github: provider.endpoints(true),
      spotify: provider.endpoints(),
      gitlab: provider.endpoints(),
    };
    settings.sharedKeys = { spotify: { clientId: 'sharedspotify', clientSecret: 'sharedsecret' } };
  });
  afterAll(() => provider?.stop());

  const providers = { google: ownKeys('google'), github: ownKeys('github'), gitlab: ownKeys('gitlab', { allowSignIn: false }) };
  const baseConfig = { 'auth.oauth.providers': providers, 'domains.trustedDomains': trustedDomains, 'auth.allowAnonymousSignUp': true };
  const env = withTestContext({ projectConfig: baseConfig, oauth: settings });
  const flows = oauthFlows(env);
  /** The mock provider, read inside tests (it starts in beforeAll). */
  const mock = {
    get state() {
      if (!provider) throw new Error('the mock provider starts in beforeAll');
      return provider.state;
    },
    get issuer() {
      if (!provider) throw new Error('the mock provider starts in beforeAll');
      return provider.issuer;
    },
  };

  const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
  /** Sets the provider's OpenID profile for the next sign-ins; answers its `sub`. */
  const googleProfile = (email: string | null, verified = true, sub = randomUUID()) => {
    mock.state.profile = { sub, email, email_verified: verified, name: 'Ada Lovelace', picture: 'https://example.com/ada.png' };
    return sub;
  };
  /** The user of a token endpoint answer (it carries no user_id). */
  const subOf = (answer: { body: { access_token: string } }) => decodeJwt(answer.body.access_token).sub as string;
  const me = (accessToken: string, project: TestProject = env.project) =>
    env.context.request({
      url: '/api/v1/users/me',
      headers: { ...project.headers.client, 'x-stack-access-token': accessToken },
      operation: 'getCurrentUser',
    });
  /** A new project with the base config and these keys; `development` makes it a development environment. */
  const projectWith = (config: Record<string, unknown>, development = false) =>
    env.context.createProject({ ...baseConfig, ...config }).then(async (project) => {
      if (development) {
        await env.context.database.db
          .updateTable('project')
          .set({ is_development_environment: true })
          .where('id', '=', project.project.id)
          .execute();
        // Writing the config drops the cached project row.
        await env.context.services.projects.replaceConfigOverride(project.project.id, { ...baseConfig, ...config });
      }
      return project;
    });

  /** The provider's redirect back to our callback, as a GET (most providers) or a form POST (Apple). */
  const callbackBy = (method: 'GET' | 'POST') => (url: URL, cookie: string | undefined) =>
    method === 'GET'
      ? flows.callback(url, cookie)
      : env.context.request({
          method: 'POST',
          url: url.pathname,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
          payload: url.searchParams.toString(),
        });

  return { env, flows, mock, baseConfig, newEmail, googleProfile, subOf, me, projectWith, callbackBy };
}
