import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { oauthFlowFixture } from '@gatehouse/testing/oauth-flow-fixture';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';

/**
 * Gatehouse's own failures of the OAuth callback (once plain text, now catalogued): the provider failing the
 * sign-in, keys the provider can no longer use, and the flow's user or project deleted meanwhile. Each is
 * answered with its code, or redirected with it to the flow's error URL.
 */
const { env, flows, mock, baseConfig, newEmail, googleProfile, subOf, projectWith, callbackBy } = oauthFlowFixture();
const errorPage = 'https://app.example.com/handler/error';

/** The error code and details the callback's redirect to the flow's error URL carries. */
const redirectedError = (answer: { status: number; text: string; headers: Record<string, unknown> }) => {
  expect(answer.status, answer.text).toBe(303);
  const location = new URL(String(answer.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(errorPage);
  return { code: location.searchParams.get('errorCode'), details: JSON.parse(location.searchParams.get('details') ?? '{}') };
};

describe.each(['GET', 'POST'] as const)('%s /auth/oauth/callback/{provider_id}: Gatehouse-own failures', (method) => {
  const callback = callbackBy(method);

  it('answers OAUTH_PROVIDER_SIGN_IN_FAILED for each way the provider fails the sign-in', async () => {
    const cases: Array<[string, () => void, object]> = [
      [
        'a refused code',
        () => {
          mock.state.tokenHook = (answer) => Object.assign(answer, { statusCode: 400, body: { error: 'invalid_grant' } });
        },
        { reason: 'code_refused' },
      ],
      [
        'another OAuth error',
        () => {
          mock.state.tokenHook = (answer) =>
            Object.assign(answer, { statusCode: 401, body: { error: 'invalid_client', error_description: 'Unknown client.' } });
        },
        { reason: 'sign_in_refused', provider_error: 'invalid_client' },
      ],
      [
        'an answer without an access token',
        () => {
          mock.state.tokenHook = (answer) => Object.assign(answer, { statusCode: 200, body: { token_type: 'Bearer' } });
        },
        { reason: 'answer_not_accepted' },
      ],
      [
        'a refused userinfo request',
        () => {
          mock.state.userinfoHook = (answer) => Object.assign(answer, { statusCode: 401, body: { error: 'invalid_token' } });
        },
        { reason: 'account_description_refused' },
      ],
      [
        'a profile without an account id',
        () => {
          mock.state.profile = { email: newEmail('no-sub'), email_verified: true };
        },
        { reason: 'profile_unreadable' },
      ],
    ];
    for (const [label, breakProvider, details] of cases) {
      googleProfile(newEmail('provider-fails'));
      const started = await flows.toProvider();
      breakProvider();
      try {
        const answer = await callback(started.callback, started.cookie);
        expect(answer.body.details, label).toEqual(details);
        expectError(answer, 400, 'OAUTH_PROVIDER_SIGN_IN_FAILED', details);
      } finally {
        mock.state.tokenHook = undefined;
        mock.state.userinfoHook = undefined;
      }
    }
    // With an error URL the browser is sent there with the code (the provider refuses its code once more).
    const redirected = await flows.toProvider({ errorRedirectUri: errorPage });
    mock.state.tokenHook = (answer) => Object.assign(answer, { statusCode: 400, body: { error: 'invalid_grant' } });
    try {
      expect(redirectedError(await callback(redirected.callback, redirected.cookie))).toEqual({
        code: 'OAUTH_PROVIDER_SIGN_IN_FAILED',
        details: { reason: 'code_refused' },
      });
    } finally {
      mock.state.tokenHook = undefined;
    }
  });

  it('answers OAUTH_PROVIDER_KEYS_MISSING when the provider lost its secret between authorize and callback', async () => {
    const project = await projectWith({});
    const withoutSecret = { ...baseConfig, 'auth.oauth.providers': { google: ownKeys('google', { clientSecret: undefined }) } };
    const details = { reason: 'no_client_credentials', provider_id: 'google' };
    googleProfile(newEmail('keys'));
    const started = await flows.toProvider({ project });
    await env.context.services.projects.replaceConfigOverride(project.project.id, withoutSecret);
    expectError(await callback(started.callback, started.cookie), 400, 'OAUTH_PROVIDER_KEYS_MISSING', details);

    await env.context.services.projects.replaceConfigOverride(project.project.id, baseConfig);
    const redirected = await flows.toProvider({ project, errorRedirectUri: errorPage });
    await env.context.services.projects.replaceConfigOverride(project.project.id, withoutSecret);
    expect(redirectedError(await callback(redirected.callback, redirected.cookie))).toEqual({
      code: 'OAUTH_PROVIDER_KEYS_MISSING',
      details,
    });
  });

  it('answers OAUTH_FLOW_TARGET_DELETED when the user to link to was deleted meanwhile', async () => {
    googleProfile(newEmail('linker-gone'));
    const user = (await flows.signIn()).body;
    mock.state.profile = { id: 880001, login: 'gone-octo', email: null };
    mock.state.emails = [];
    const started = await flows.toProvider({ provider: 'github', type: 'link', token: user.access_token });
    await env.context.services.users.delete(env.project.project, subOf({ body: user }));
    expectError(await callback(started.callback, started.cookie), 400, 'OAUTH_FLOW_TARGET_DELETED', { reason: 'user_deleted' });
  });

  it('answers OAUTH_FLOW_TARGET_DELETED when the project was deleted while the flow was being taken', async () => {
    const project = await projectWith({});
    googleProfile(newEmail('project-gone'));
    const started = await flows.toProvider({ project, errorRedirectUri: errorPage });
    const projectId = project.project.id;
    // The race: the project goes right after the callback took its flow (deleting it first deletes the flow too).
    await sql
      .raw(
        `create function delete_project_after_flow() returns trigger language plpgsql as $$ begin
           if old.project_id = '${projectId}' then delete from project where id = old.project_id; end if;
           return old;
         end $$;
         create trigger delete_project_after_flow after delete on oauth_flow for each row execute function delete_project_after_flow();`,
      )
      .execute(env.context.database.db);
    try {
      await env.context.services.projects.forget(projectId);
      // Not redirected: the error URL was trusted by the project's domains, which are gone with it.
      expectError(await callback(started.callback, started.cookie), 400, 'OAUTH_FLOW_TARGET_DELETED', { reason: 'project_deleted' });
    } finally {
      await sql
        .raw('drop trigger delete_project_after_flow on oauth_flow; drop function delete_project_after_flow();')
        .execute(env.context.database.db);
    }
  });
});
