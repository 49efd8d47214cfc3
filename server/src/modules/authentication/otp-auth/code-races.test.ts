import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * Issue #12, races on single-use codes (Postgres, 10 connections): 20 concurrent uses of one emailed
 * code give exactly one success, the others a catalogued 4xx, never a 5xx or a second use.
 */
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({ poolSize: 10, projectConfig: { 'auth.otp.allowSignIn': true, 'domains.trustedDomains': trustedDomains } });
const ways = 20;
const post = (url: string, payload: object, headers: Record<string, string> = env.project.headers.client) =>
  env.context.request({ method: 'POST', url: `/api/v1${url}`, headers, payload });

function expectOneSuccess(answers: ContractResponse[], success: number) {
  expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.text)).toEqual([]);
  expect(answers.filter((answer) => answer.status === success)).toHaveLength(1);
  for (const answer of answers.filter((candidate) => candidate.status !== success)) {
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('VERIFICATION_CODE_ALREADY_USED');
  }
}

describe(`${ways} concurrent uses of one code`, () => {
  it('magic-link sign-up: one user signed up once', async () => {
    const email = `race-${randomUUID().slice(0, 8)}@example.com`;
    const sent = await post('/auth/otp/send-sign-in-code', { email, callback_url: 'https://app.example.com/handler/magic-link-callback' });
    expect(sent.status).toBe(200);
    const code = env.context.codeSentTo(email);
    const answers = await Promise.all(Array.from({ length: ways }, () => post('/auth/otp/sign-in', { code })));
    expectOneSuccess(answers, 200);
    const users = await env.context.request({
      url: `/api/v1/users?query=${encodeURIComponent(email)}`,
      headers: env.project.headers.server,
    });
    expect(users.body.items.map((user: { primary_email: string }) => user.primary_email)).toEqual([email]);
  });

  it('team invitation: joined once', async () => {
    const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    const { users, signIn, teams } = env.context.services;
    const team = await teams.create(env.project.project, { display_name: 'Racers' });
    const sent = await post(
      '/team-invitations/send-code',
      { team_id: team.id, email, callback_url: 'https://app.example.com/handler/team-invitation' },
      env.project.headers.server,
    );
    expect(sent.status).toBe(200);
    const code = env.context.codeSentTo(email);
    const user = await users.create(env.project.project, { primary_email: email, primary_email_verified: true }, 'server');
    const headers = {
      ...env.project.headers.client,
      'x-stack-access-token': (await signIn.signIn(env.project.project, user)).access_token,
    };
    const answers = await Promise.all(Array.from({ length: ways }, () => post('/team-invitations/accept', { code }, headers)));
    expectOneSuccess(answers, 200);
    expect(await teams.isMember(env.project.project.id, team.id, user.id)).toBe(true);
  });
});
