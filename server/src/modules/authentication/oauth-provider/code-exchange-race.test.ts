import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { authorize, createApplication, oauthPath, pkcePair, publicHost, signedInUser } from '@gatehouse/testing/oauth-provider-testing';

/**
 * A code or refresh token sent to the token endpoint several times at once (a replaying attacker racing the
 * application) on the run's real Postgres: exactly one exchange gets tokens, every other one `invalid_grant`, and
 * because the code or token was used twice, the grant is revoked (RFC 6749 §4.1.2, OAuth 2.0 Security BCP): the
 * winner's tokens stop working too. The outcome must not depend on how the requests interleave — whether a
 * replay is caught at oidc-provider's read or at the adapter's consuming update.
 */
const env = withTestContext();
const redirectUri = 'https://rp.example.com/callback';
const rounds = 4;
const exchange = (form: URLSearchParams) =>
  env.context.request({
    method: 'POST',
    url: oauthPath(env.project.project.id, '/token'),
    headers: { ...publicHost, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
const userinfo = (accessToken: string) =>
  env.context.request({
    method: 'GET',
    url: oauthPath(env.project.project.id, '/me'),
    headers: { ...publicHost, authorization: `Bearer ${accessToken}` },
  });

type Tokens = { access_token: string; refresh_token: string };

async function codeFor(clientId: string, headers: Record<string, string>) {
  const pkce = pkcePair();
  const location = await authorize(
    env.context,
    env.project,
    {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid offline_access',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      prompt: 'consent',
    },
    headers,
  );
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code: location.searchParams.get('code') as string,
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: pkce.verifier,
  });
}

function oneWinner(answers: Array<{ status: number; body: unknown }>): Tokens {
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...answers.slice(1).map(() => 400)]);
  for (const refused of answers.filter((answer) => answer.status === 400))
    expect((refused.body as { error: string }).error).toBe('invalid_grant');
  return answers.find((answer) => answer.status === 200)?.body as Tokens;
}

describe('OpenID provider: a code or refresh token exchanged concurrently', () => {
  it('answers tokens to exactly one of five simultaneous exchanges of a code, then revokes them', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Race', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await signedInUser(env.context, env.project);
    for (let round = 0; round < rounds; round += 1) {
      const form = await codeFor(app.client_id, headers);
      const winner = oneWinner(await Promise.all(Array.from({ length: 5 }, () => exchange(form))));
      const refreshed = await exchange(
        new URLSearchParams({ grant_type: 'refresh_token', refresh_token: winner.refresh_token, client_id: app.client_id }),
      );
      expect(refreshed.status).toBe(400);
      expect(refreshed.body.error).toBe('invalid_grant');
      expect((await userinfo(winner.access_token)).status).toBe(401);
    }
  });

  it('rotates a refresh token used by three at once exactly once, then revokes the family', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Refresh race', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await signedInUser(env.context, env.project);
    for (let round = 0; round < rounds; round += 1) {
      const first = await exchange(await codeFor(app.client_id, headers));
      expect(first.status).toBe(200);
      const { refresh_token } = first.body as Tokens;
      const refresh = () => exchange(new URLSearchParams({ grant_type: 'refresh_token', refresh_token, client_id: app.client_id }));
      const winner = oneWinner(await Promise.all(Array.from({ length: 3 }, refresh)));
      const next = await exchange(
        new URLSearchParams({ grant_type: 'refresh_token', refresh_token: winner.refresh_token, client_id: app.client_id }),
      );
      expect(next.status).toBe(400);
      expect((await userinfo(winner.access_token)).status).toBe(401);
    }
  });

  it('still rotates a refresh token used once at a time', async () => {
    const app = await createApplication(env.context, env.project, { name: 'Sequential', type: 'public', redirect_uris: [redirectUri] });
    const { headers } = await signedInUser(env.context, env.project);
    let tokens = (await exchange(await codeFor(app.client_id, headers))).body as Tokens;
    for (let step = 0; step < 3; step += 1) {
      const answer = await exchange(
        new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id }),
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      tokens = answer.body as Tokens;
      expect((await userinfo(tokens.access_token)).status).toBe(200);
    }
  });
});
