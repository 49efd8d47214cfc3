import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestContext, type TestProject, createTestContext } from '@gatehouse/testing/test-context';

/**
 * Issue #12: concurrent membership adds and invitation accepts used to leave every pooled connection
 * idle in a transaction while the code waited for another connection of the same pool (the whole
 * server hung). Now every query inside a transaction uses the transaction's connection, and a wait
 * for a connection ends in 503 DATABASE_BUSY instead of forever. On Postgres (pool of 4, the way
 * 12+ adds on the default pool of 10 hung) and on PGlite (one session).
 */
const callback = 'https://app.example.com/handler/team-invitation';
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const ways = 20;

describe.each(['postgres', 'pglite'] as const)('on %s', (database) => {
  let context: TestContext;
  let project: TestProject;
  beforeAll(async () => {
    context = await createTestContext({ database, poolSize: 4, acquireTimeoutMs: 15_000 });
    project = await context.createProject({ 'domains.trustedDomains': trustedDomains });
  });
  afterAll(() => context.close());

  const newUser = async (email?: string) => {
    const write = email ? { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true } : {};
    const user = await context.services.users.create(project.project, write, 'server');
    const { access_token } = await context.services.signIn.signIn(project.project, user);
    return { id: user.id, client: { ...project.headers.client, 'x-stack-access-token': access_token } };
  };
  const memberIds = async (teamId: string) =>
    (
      await context.request({ method: 'GET', url: `/api/v1/team-member-profiles?team_id=${teamId}`, headers: project.headers.server })
    ).body.items
      .map((item: { user_id: string }) => item.user_id)
      .sort();

  it(`${ways} concurrent membership adds all answer 201 within seconds`, async () => {
    const owner = await newUser();
    const team = await context.services.teams.create(project.project, { display_name: 'Crowd' }, owner.id);
    const users = await Promise.all(Array.from({ length: ways }, () => newUser()));
    const started = Date.now();
    const answers = await Promise.all(
      users.map((user) =>
        context.request({
          method: 'POST',
          url: `/api/v1/team-memberships/${team.id}/${user.id}`,
          headers: project.headers.server,
          payload: {},
        }),
      ),
    );
    const elapsed = Date.now() - started;
    expect(answers.map((answer) => answer.status)).toEqual(users.map(() => 201));
    expect(elapsed).toBeLessThan(10_000);
    expect(await memberIds(team.id)).toEqual([owner.id, ...users.map((user) => user.id)].sort());
  });

  it(`${ways} concurrent invitation accepts all join within seconds`, async () => {
    const owner = await newUser();
    const team = await context.services.teams.create(project.project, { display_name: 'Guests' }, owner.id);
    const invitees = await Promise.all(
      Array.from({ length: ways }, async () => {
        const email = `guest-${randomUUID().slice(0, 8)}@example.com`;
        const sent = await context.request({
          method: 'POST',
          url: '/api/v1/team-invitations/send-code',
          headers: project.headers.server,
          payload: { team_id: team.id, email, callback_url: callback },
        });
        expect(sent.status, sent.text).toBe(200);
        return { ...(await newUser(email)), code: context.codeSentTo(email) };
      }),
    );
    const started = Date.now();
    const answers = await Promise.all(
      invitees.map((invitee) =>
        context.request({
          method: 'POST',
          url: '/api/v1/team-invitations/accept',
          headers: invitee.client,
          payload: { code: invitee.code },
        }),
      ),
    );
    const elapsed = Date.now() - started;
    expect(answers.map((answer) => answer.status)).toEqual(invitees.map(() => 200));
    expect(elapsed).toBeLessThan(10_000);
    expect(await memberIds(team.id)).toEqual([owner.id, ...invitees.map((invitee) => invitee.id)].sort());
  });
});

// On PGlite, db/transaction-scope.test.ts shows the same wait ending in DATABASE_BUSY.
describe('a Postgres pool with no free connection', () => {
  let context: TestContext;
  let project: TestProject;
  beforeAll(async () => {
    context = await createTestContext({ poolSize: 2, acquireTimeoutMs: 300 });
    project = await context.createProject();
  });
  afterAll(() => context.close());

  it('answers 503 DATABASE_BUSY in the envelope with Retry-After, changes nothing, and serves again once a connection is free', async () => {
    const { db } = context.database;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = 0;
    const hold = () =>
      db.connection().execute(async () => {
        holding += 1;
        await held;
      });
    const holders = [hold(), hold()];
    while (holding < holders.length) await new Promise((resolve) => setTimeout(resolve, 10));

    const started = Date.now();
    const busy = await context.request({
      method: 'POST',
      url: '/api/v1/users',
      headers: project.headers.server,
      payload: { display_name: 'Never stored' },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expectError(busy, 503, 'DATABASE_BUSY');
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.body.error).toMatch(/busy/);

    release();
    await Promise.all(holders);
    const users = await context.request({ method: 'GET', url: '/api/v1/users', headers: project.headers.server });
    expect(users.status).toBe(200);
    expect(users.body.items.map((user: { display_name: string }) => user.display_name)).not.toContain('Never stored');
  });
});
