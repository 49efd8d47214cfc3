import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * Issue #12 on Postgres: concurrent refreshes of one rotating token answered 500 (duplicate key on
 * replaced_refresh_token), 46 of 50; a refresh racing sign-out answered 500 (foreign key). Now every
 * concurrent refresh within the grace window succeeds with the same new refresh token, reuse after
 * the window ends the session, and a refresh racing sign-out answers 200 or a catalogued 401.
 */
const env = withTestContext({ poolSize: 10 });
let rotating: TestProject;
beforeAll(async () => {
  rotating = await env.context.createProject({ 'auth.sessions.rotateRefreshTokens': true });
});

async function signedIn(project: TestProject) {
  const user = await env.context.services.users.create(project.project, {}, 'server');
  const tokens = await env.context.services.signIn.signIn(project.project, user);
  return { ...tokens, sessionId: decodeJwt(tokens.access_token).refresh_token_id as string };
}
const refresh = (project: TestProject, refreshToken: string) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/sessions/current/refresh',
    headers: { ...project.headers.client, 'x-stack-refresh-token': refreshToken },
  });
const signOut = (project: TestProject, accessToken: string) =>
  env.context.request({
    method: 'DELETE',
    url: '/api/v1/auth/sessions/current',
    headers: { ...project.headers.client, 'x-stack-access-token': accessToken },
    payload: {},
  });
const statuses = (answers: ContractResponse[]) => answers.map((answer) => answer.status);
const serverErrors = (answers: ContractResponse[]) => answers.filter((answer) => answer.status >= 500).length;

describe('concurrent refreshes of one rotating refresh token', () => {
  it('50 at once all succeed with the same new refresh token, for the same session', async () => {
    const { refresh_token, sessionId } = await signedIn(rotating);
    const answers = await Promise.all(Array.from({ length: 50 }, () => refresh(rotating, refresh_token)));
    expect(serverErrors(answers)).toBe(0);
    expect(statuses(answers)).toEqual(answers.map(() => 200));
    const successors = new Set(answers.map((answer) => answer.body.refresh_token));
    expect(successors.size).toBe(1);
    const [successor] = [...successors] as [string];
    expect(successor).toMatch(/^[a-z2-7]{45}$/);
    expect(successor).not.toBe(refresh_token);
    for (const answer of answers) expect(decodeJwt(answer.body.access_token).refresh_token_id).toBe(sessionId);

    // The successor carries on; the replaced token, replayed after the window, ends the session.
    const next = await refresh(rotating, successor);
    expect(next.status).toBe(200);
    await env.context.database.db
      .updateTable('replaced_refresh_token')
      .set({ replaced_at: new Date(Date.now() - 11_000) })
      .where('session_id', '=', sessionId)
      .execute();
    const reuse = await refresh(rotating, refresh_token);
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    expect((await refresh(rotating, next.body.refresh_token)).status).toBe(401);
  });

  it('two generations racing: every answer is 200 or a catalogued 401, none 5xx', async () => {
    const { refresh_token } = await signedIn(rotating);
    const first = await Promise.all(Array.from({ length: 10 }, () => refresh(rotating, refresh_token)));
    const successor = first[0]?.body.refresh_token as string;
    const mixed = await Promise.all(
      Array.from({ length: 30 }, (_, index) => refresh(rotating, index % 2 === 0 ? successor : refresh_token)),
    );
    expect(serverErrors([...first, ...mixed])).toBe(0);
    for (const answer of mixed) {
      expect([200, 401]).toContain(answer.status);
      if (answer.status === 401) expect(answer.body.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    }
  });
});

describe.each([
  ['rotating', () => rotating],
  ['non-rotating', () => env.project],
])('refresh racing sign-out (%s tokens)', (_name, project) => {
  it('answers 200 or REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED, never 5xx, and the session is gone afterwards', async () => {
    const answers: ContractResponse[] = [];
    for (let round = 0; round < 5; round++) {
      const { refresh_token, access_token } = await signedIn(project());
      const racing = await Promise.all([
        ...Array.from({ length: 10 }, () => refresh(project(), refresh_token)),
        signOut(project(), access_token),
        ...Array.from({ length: 10 }, () => refresh(project(), refresh_token)),
      ]);
      answers.push(...racing);
      const after = await refresh(project(), refresh_token);
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    }
    expect(serverErrors(answers)).toBe(0);
    for (const answer of answers) {
      expect([200, 401]).toContain(answer.status);
      if (answer.status === 401) expect(answer.body.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    }
  });
});
