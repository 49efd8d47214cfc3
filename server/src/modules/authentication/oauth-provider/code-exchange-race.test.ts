import { describe, expect, it } from 'vitest';
import { withTestContext } from '../../../testing/test-context.ts';
import { authorize, createApplication, oauthPath, pkcePair, publicHost, signedInUser } from '../../../testing/oauth-provider-testing.ts';

/**
 * One authorization code sent to the token endpoint several times at once (a replaying attacker racing the
 * application) on the run's real Postgres: exactly one exchange gets tokens, every other one `invalid_grant`.
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';
const exchange = (form: URLSearchParams) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(env.project.project.id, '/token'),
    headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });

describe('OpenID provider: a code exchanged concurrently', () => {
  it('answers tokens to exactly one of five simultaneous exchanges of a code, and one of three refreshes', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Race', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await signedInUser(env.context, env.project);
    const pkce = pkcePair();
    const location = await authorize(
      env.context,
      env.project,
      {
        client_id: app.client_id,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid offline_access',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        prompt: 'consent',
      },
      headers,
    );
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code') as string,
      redirect_uri: redirectUri,
      client_id: app.client_id,
      code_verifier: pkce.verifier,
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => exchange(form)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const refused of answers.filter((answer) => answer.status === 400)) expect(refused.body.error).toBe('invalid_grant');

    // The refresh token rotates: used by three at once, it is exchanged once too.
    const winner = answers.find((answer) => answer.status === 200)?.body as { refresh_token: string };
    const refreshes = await Promise.all(
      Array.from({ length: 3 }, () =>
        exchange(new URLSearchParams({ grant_type: 'refresh_token', refresh_token: winner.refresh_token, client_id: app.client_id })),
      ),
    );
    expect(refreshes.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
  });
});
