import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../db/schema.ts';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import { handleOf } from '../../../db/handle.ts';
import { deleteExpiredRows, scheduleExpiredRowsCleanup } from './expired-rows-cleanup.ts';

/**
 * The expired-rows cleanup on a database of its own (PGlite): the suite's shared Postgres holds other
 * files' rows, which a cleanup run there would delete under them.
 */
const env = withTestContext({ database: 'pglite' });
const db = () => env.context.database.db;

const minute = 60_000;
const day = 24 * 60 * minute;
const at = (offsetMillis: number) => new Date(Date.now() + offsetMillis);

let user: UserRecord;
beforeAll(async () => {
  user = await env.context.services.users.create(env.project.project, { display_name: 'Expiring' }, 'server');
});

const projectId = () => env.project.project.id;
const insertCode = async (expiresAt: Date) => {
  const id = randomUUID();
  await db()
    .insertInto('verification_code')
    .values({ id, project_id: projectId(), purpose: 'otp_sign_in', nonce: id, code_hash: id, data: '{}', expires_at: expiresAt })
    .execute();
  return id;
};
const insertSession = async (expiresAt: Date) => {
  const id = randomUUID();
  await db()
    .insertInto('refresh_session')
    .values({ id, project_id: projectId(), user_id: user.id, token_hash: id, expires_at: expiresAt })
    .execute();
  return id;
};
const insertCliLogin = async (expiresAt: Date, anonSessionId: string | null = null) => {
  const id = randomUUID();
  await db()
    .insertInto('cli_login_attempt')
    .values({
      id,
      project_id: projectId(),
      polling_code_hash: `poll-${id}`,
      login_code_hash: `login-${id}`,
      anon_session_id: anonSessionId,
      expires_at: expiresAt,
    })
    .execute();
  return id;
};
const insertFlow = async (expiresAt: Date) => {
  const id = randomUUID();
  await db()
    .insertInto('oauth_flow')
    .values({ inner_state: id, project_id: projectId(), provider_config_id: 'google', data: '{}', expires_at: expiresAt })
    .execute();
  return id;
};
const insertAuthorizationCode = async (expiresAt: Date) => {
  const id = randomUUID();
  await db()
    .insertInto('oauth_authorization_code')
    .values({
      code_hash: id,
      project_id: projectId(),
      user_id: user.id,
      redirect_uri: 'https://app.example.com/callback',
      code_challenge: 'challenge',
      is_new_user: false,
      expires_at: expiresAt,
    })
    .execute();
  return id;
};

const remaining = async <T extends keyof Database>(table: T, column: string, ids: string[]) => {
  // biome-ignore lint/suspicious/noExplicitAny: a column chosen per table
  const rows = await (db() as any).selectFrom(table).select(column).where(column, 'in', ids).execute();
  return ids.filter((id) => rows.some((row: Record<string, string>) => row[column] === id));
};

describe('deleteExpiredRows', () => {
  it('deletes expired rows past their grace period and keeps the rest', async () => {
    const codes = { fresh: await insertCode(at(day)), recent: await insertCode(at(-6 * day)), old: await insertCode(at(-8 * day)) };
    const sessions = { fresh: await insertSession(at(day)), expired: await insertSession(at(-minute)) };
    await db()
      .insertInto('replaced_refresh_token')
      .values({ token_hash: `old-${sessions.expired}`, session_id: sessions.expired })
      .execute();
    const cliLogins = {
      fresh: await insertCliLogin(at(minute), sessions.expired),
      recent: await insertCliLogin(at(-day)),
      old: await insertCliLogin(at(-8 * day)),
    };
    const flows = { fresh: await insertFlow(at(minute)), recent: await insertFlow(at(-minute)), old: await insertFlow(at(-2 * day)) };
    const authorizationCodes = { fresh: await insertAuthorizationCode(at(minute)), expired: await insertAuthorizationCode(at(-minute)) };

    const deleted = await deleteExpiredRows(handleOf(db()));

    expect(await remaining('verification_code', 'id', Object.values(codes))).toEqual([codes.fresh, codes.recent]);
    expect(await remaining('refresh_session', 'id', Object.values(sessions))).toEqual([sessions.fresh]);
    expect(await remaining('replaced_refresh_token', 'session_id', [sessions.expired])).toEqual([]);
    expect(await remaining('cli_login_attempt', 'id', Object.values(cliLogins))).toEqual([cliLogins.fresh, cliLogins.recent]);
    const pending = await db()
      .selectFrom('cli_login_attempt')
      .select('anon_session_id')
      .where('id', '=', cliLogins.fresh)
      .executeTakeFirst();
    expect(pending?.anon_session_id).toBeNull();
    expect(await remaining('oauth_flow', 'inner_state', Object.values(flows))).toEqual([flows.fresh, flows.recent]);
    expect(await remaining('oauth_authorization_code', 'code_hash', Object.values(authorizationCodes))).toEqual([authorizationCodes.fresh]);
    expect(deleted).toMatchObject({
      verification_code: 1,
      refresh_session: 1,
      cli_login_attempt: 1,
      oauth_flow: 1,
      oauth_authorization_code: 1,
    });
  });

  it("deletes the OpenID provider's expired codes, tokens and interactions, and keeps the live and the lasting ones", async () => {
    const insertEntity = async (model: string, expiresAt: Date | null) => {
      const id = randomUUID();
      await db()
        .insertInto('oauth_provider_entity')
        .values({ project_id: projectId(), model, id, payload: JSON.stringify({ jti: id }), expires_at: expiresAt })
        .execute();
      return id;
    };
    const entities = {
      expiredCode: await insertEntity('AuthorizationCode', at(-minute)),
      expiredInteraction: await insertEntity('Interaction', at(-day)),
      liveToken: await insertEntity('RefreshToken', at(day)),
      lasting: await insertEntity('Session', null),
    };
    const deleted = await deleteExpiredRows(handleOf(db()));
    expect(await remaining('oauth_provider_entity', 'id', Object.values(entities))).toEqual([entities.liveToken, entities.lasting]);
    expect(deleted.oauth_provider_entity).toBe(2);
  });

  it('deletes expired provider access tokens only when a newer one covers their scopes', async () => {
    const account = await db()
      .insertInto('oauth_account')
      .values({
        id: randomUUID(),
        project_id: projectId(),
        user_id: user.id,
        provider_config_id: 'google',
        provider_type: 'google',
        account_id: randomUUID(),
        email: null,
        allow_sign_in: true,
        allow_connected_accounts: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const insertToken = async (kind: 'access' | 'refresh', scopes: string[], createdAt: Date, expiresAt: Date | null) => {
      const id = randomUUID();
      await db()
        .insertInto('oauth_provider_token')
        .values({ id, oauth_account_id: account.id, kind, sealed_value: 'sealed', scopes, expires_at: expiresAt, created_at: createdAt })
        .execute();
      return id;
    };
    const tokens = {
      superseded: await insertToken('access', ['email'], at(-3 * day), at(-2 * day)),
      otherScope: await insertToken('access', ['drive'], at(-3 * day), at(-2 * day)),
      refresh: await insertToken('refresh', ['email'], at(-3 * day), null),
      newest: await insertToken('access', ['email', 'profile'], at(-2 * day), at(-day)),
    };
    await deleteExpiredRows(handleOf(db()));
    expect(await remaining('oauth_provider_token', 'id', Object.values(tokens))).toEqual([
      tokens.otherScope,
      tokens.refresh,
      tokens.newest,
    ]);
  });

  it('goes through more rows than a batch, a batch at a time', async () => {
    const sessions = await Promise.all([1, 2, 3, 4, 5].map(() => insertSession(at(-minute))));
    const deleted = await deleteExpiredRows(handleOf(db()), { batchSize: 2 });
    expect(deleted.refresh_session).toBe(5);
    expect(await remaining('refresh_session', 'id', sessions)).toEqual([]);
  });

  it('keeps a recently expired row that a later time deletes', async () => {
    const code = await insertCode(at(-minute));
    await deleteExpiredRows(handleOf(db()));
    expect(await remaining('verification_code', 'id', [code])).toEqual([code]);
    await deleteExpiredRows(handleOf(db()), { now: at(7 * day) });
    expect(await remaining('verification_code', 'id', [code])).toEqual([]);
  });
});

describe('scheduleExpiredRowsCleanup', () => {
  it('runs on its interval, logs what it deleted, and stops', async () => {
    const session = await insertSession(at(-minute));
    const log = { info: vi.fn(), error: vi.fn() };
    const cleanup = scheduleExpiredRowsCleanup(handleOf(db()), { intervalMillis: 20, log });
    await vi.waitFor(async () => expect(await remaining('refresh_session', 'id', [session])).toEqual([]), { timeout: 5000 });
    await cleanup.stop();
    expect(log.info).toHaveBeenCalledWith({ deleted: expect.objectContaining({ refresh_session: 1 }) }, 'expired rows deleted');
    expect(log.error).not.toHaveBeenCalled();
    const after = await insertSession(at(-minute));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await remaining('refresh_session', 'id', [after])).toEqual([after]);
  });
});
