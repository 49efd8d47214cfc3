import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { CliAuthError, CliAuthExpiredError, CliAuthUsedError } from '@gatehouse/client';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { type CliLoginOptions, cliLogin } from './cli-login.ts';

/** The example CLI's login against the real server: how it ends when the person never confirms, or another poller took it. */
const env = withTestContext({ listen: true });

async function loginOptions(
  onPoll: (projectId: string, project: TestProject) => Promise<void>,
  extra: Partial<CliLoginOptions> = {},
): Promise<CliLoginOptions> {
  const project = await env.context.createProject();
  return {
    baseUrl: env.baseUrl,
    appUrl: 'http://localhost:3000',
    projectId: project.project.id,
    publishableClientKey: project.keys.publishable_client_key,
    showUrl: () => undefined,
    pollIntervalMs: 0,
    sleep: () => onPoll(project.project.id, project),
    ...extra,
  };
}
const attemptsOf = (projectId: string) =>
  env.context.database.db.updateTable('cli_login_attempt').where('project_id', '=', projectId as never);

describe('the example CLI login', () => {
  it("ends with CliAuthExpiredError in the protocol's words when the login expired", async () => {
    const options = await loginOptions(async (projectId) => {
      await attemptsOf(projectId)
        .set({ expires_at: new Date(Date.now() - 1000) })
        .execute();
    });
    const error = await cliLogin(options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliAuthExpiredError);
    expect((error as Error).message).toBe('CLI authentication request expired. Please try again.');
  });

  it("ends with CliAuthUsedError in the protocol's words when another poller took the session first", async () => {
    // The login's polling code, read off the wire as a second process holding it would know it.
    let pollingCode = '';
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await realFetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/auth/cli')) pollingCode = ((await response.clone().json()) as { polling_code: string }).polling_code;
      return response;
    });
    try {
      let loginCode = '';
      const options = await loginOptions(
        async (_projectId, { project, headers: keys }) => {
          if (pollingCode === '' || loginCode === '') throw new Error('the login was not seen');
          // The person confirms in the browser...
          const user = await env.context.services.users.create(
            project,
            { primary_email: `used-${randomUUID().slice(0, 8)}@example.com` },
            'server',
          );
          const tokens = await env.context.services.signIn.signIn(project, user);
          const headers = { ...keys.client, 'x-stack-access-token': tokens.access_token };
          const completed = await env.context.request({
            method: 'POST',
            url: '/api/v1/auth/cli/complete',
            headers,
            payload: { login_code: loginCode, refresh_token: tokens.refresh_token },
          });
          expect(completed.status, completed.text).toBe(200);
          // ...and another poller with the same code takes the session before this CLI polls.
          const taken = await env.context.request({
            method: 'POST',
            url: '/api/v1/auth/cli/poll',
            headers: keys.client,
            payload: { polling_code: pollingCode },
          });
          expect(taken.status, taken.text).toBe(201);
        },
        { showUrl: (url) => (loginCode = new URL(url).searchParams.get('login_code') ?? '') },
      );
      const error = await cliLogin(options).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CliAuthUsedError);
      expect((error as Error).message).toBe('This authentication token has already been used.');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('gives up with CliAuthError "Timed out waiting for CLI authentication." after its timeout', async () => {
    let clock = 0;
    let polls = 0;
    const options = await loginOptions(
      async () => {
        polls++;
        clock += 4_000;
      },
      { timeoutMs: 10_000, now: () => clock },
    );
    const error = await cliLogin(options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliAuthError);
    expect((error as Error).message).toBe('Timed out waiting for CLI authentication.');
    expect(polls).toBe(3);
  });
});
