import { describe, expect, it } from 'vitest';
import { CliAuthError, CliAuthExpiredError, CliAuthUsedError } from '@gatehouse/client';
import { withTestContext } from '../../../server/src/testing/test-context.ts';
import { type CliLoginOptions, cliLogin } from './cli-login.ts';

/** The example CLI's login against the real server: how it ends when the person never confirms. */
const env = withTestContext({ listen: true });

async function loginOptions(onPoll: (projectId: string) => Promise<void>, extra: Partial<CliLoginOptions> = {}): Promise<CliLoginOptions> {
  const project = await env.context.createProject();
  return {
    baseUrl: env.baseUrl,
    appUrl: 'http://localhost:3000',
    projectId: project.project.id,
    publishableClientKey: project.keys.publishable_client_key,
    showUrl: () => undefined,
    pollIntervalMs: 0,
    sleep: () => onPoll(project.project.id),
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

  it("ends with CliAuthUsedError in the protocol's words when the login was used already", async () => {
    const options = await loginOptions(async (projectId) => {
      await attemptsOf(projectId).set({ completed_at: new Date(), used_at: new Date() }).execute();
    });
    const error = await cliLogin(options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliAuthUsedError);
    expect((error as Error).message).toBe('This authentication token has already been used.');
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
