import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationName } from '@gatehouse/protocol';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, inject } from 'vitest';
import type { WebAppOptions } from '@gatehouse/server/src/plugins/web-app.ts';
import type { OAuthSettings } from '@gatehouse/server/src/modules/authentication/oauth/oauth-settings.ts';
import type { PaymentSettings } from '@gatehouse/server/src/modules/billing/payments/payment-settings.ts';
import { buildApp } from '@gatehouse/server/src/app.ts';
import type { RateLimits } from '@gatehouse/server/src/config/rate-limits.ts';
import { createDatabase, type DatabaseHandle } from '@gatehouse/server/src/db/create-database.ts';
import { migrateToLatest } from '@gatehouse/server/src/db/migrate.ts';
import type { ProjectKeyKind } from '@gatehouse/server/src/modules/platform/project-keys/key-format.ts';
import { createServer, migrations, type ServiceOptions } from '@gatehouse/server/src/services.ts';
import { type ContractRequest, contractRequest } from './contract.ts';

/** A fixed secret: tokens a test signs verify in any test file. */
export const testServerSecret = createHash('sha256').update('gatehouse test secret').digest();
export const testPublicUrl = 'http://localhost:8102';

export type TestProject = Awaited<ReturnType<TestContext['createProject']>>;
export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/**
 * An app on the run's shared Postgres (or, for the smoke subset, on its own PGlite), requests
 * through the contract checker, and a factory for isolated projects with keys.
 */
export async function createTestContext(
  options: {
    database?: 'postgres' | 'pglite';
    rateLimits?: RateLimits | null;
    /** Contexts with the same namespace share rate-limit counters (instances of one deployment); default: its own. */
    rateLimitNamespace?: string;
    exampleApp?: WebAppOptions;
    dashboard?: WebAppOptions;
    /** OAuth endpoint overrides and shared keys (tests point providers at a local OIDC server). */
    oauth?: OAuthSettings;
    /** Stripe mode (tests point the SDK at a local stand-in of Stripe's API). */
    payments?: PaymentSettings;
    /** The URL the server tells others to reach it at (OAuth callbacks, email links' defaults). */
    publicUrl?: string;
    /**
     * A Postgres database of its own (migrated here) instead of the run's shared one: for a test of a
     * worker that claims due rows of every project (the email outbox), where another file's rows and
     * workers on the shared database would take part.
     */
    databaseUrl?: string;
    /** Postgres connections (default 4) and the longest wait for one (default: the server's). */
    poolSize?: number;
    acquireTimeoutMs?: number;
    /** Settings of other modules, by module name (as the environment would give them). */
    settings?: ServiceOptions['settings'];
  } = {},
) {
  let pgliteDir: string | undefined;
  let database: DatabaseHandle;
  if (options.database === 'pglite') {
    pgliteDir = mkdtempSync(join(tmpdir(), 'gatehouse-pglite-'));
    database = await createDatabase({ dataDir: pgliteDir, acquireTimeoutMs: options.acquireTimeoutMs });
    await migrateToLatest(database.db, migrations);
  } else {
    database = await createDatabase({
      databaseUrl: options.databaseUrl ?? inject('databaseUrl'),
      dataDir: '',
      poolSize: options.poolSize ?? 4,
      acquireTimeoutMs: options.acquireTimeoutMs,
    });
    if (options.databaseUrl) await migrateToLatest(database.db, migrations);
  }
  /** Every email the server wrote to its outbox log, newest last (recipient, subject, text with the link). */
  const sentEmails: Array<{ to: string; subject: string; text: string }> = [];
  const server = createServer(database.db, {
    publicUrl: options.publicUrl ?? testPublicUrl,
    serverSecret: testServerSecret,
    settings: {
      ...options.settings,
      email: {
        ...options.settings?.email,
        log: (_message, fields) => sentEmails.push(fields as { to: string; subject: string; text: string }),
      },
      ...(options.oauth ? { oauth: options.oauth } : {}),
      ...(options.payments ? { payments: options.payments } : {}),
    },
  });
  const { services } = server;
  // Rate limits are off unless a test is about them: the suite signs in far more often than a person.
  const app = await buildApp({
    server,
    rateLimits: options.rateLimits ?? null,
    rateLimitNamespace: options.rateLimitNamespace ?? randomUUID(),
    exampleApp: options.exampleApp,
    dashboard: options.dashboard,
  });
  await app.ready();

  async function createProject(configOverride: Record<string, unknown> = {}) {
    const project = await services.projects.create({ id: randomUUID(), displayName: 'Test project', configOverride });
    const { row: keySet, keys } = await services.apiKeys.createKeySet({
      projectId: project.id,
      description: 'test keys',
      expiresAt: new Date(Date.now() + 3_600_000),
      keys: { publishable_client_key: true, secret_server_key: true, super_secret_admin_key: true },
    });
    const fullKeys = keys as Record<ProjectKeyKind, string>;
    return {
      project,
      keySet,
      keys: fullKeys,
      /** Headers of a correctly authenticated call with that access type. */
      headers: {
        client: {
          'x-stack-access-type': 'client',
          'x-stack-project-id': project.id,
          'x-stack-publishable-client-key': fullKeys.publishable_client_key,
        },
        server: {
          'x-stack-access-type': 'server',
          'x-stack-project-id': project.id,
          'x-stack-secret-server-key': fullKeys.secret_server_key,
        },
        admin: {
          'x-stack-access-type': 'admin',
          'x-stack-project-id': project.id,
          'x-stack-super-secret-admin-key': fullKeys.super_secret_admin_key,
        },
      },
    };
  }

  return {
    app,
    server,
    services,
    database,
    sentEmails,
    /** Moves a verification code's expiry into the past. */
    async expireCode(code: string): Promise<void> {
      await database.db
        .updateTable('verification_code')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('nonce', '=', code.toLowerCase().slice(6))
        .execute();
    },
    /** The `code` query parameter of the link in the newest email to `to`. */
    codeSentTo(to: string): string {
      const email = sentEmails.filter((candidate) => candidate.to === to).at(-1);
      const code = email?.text.match(/[?&]code=([a-z2-7]{45})/)?.[1];
      if (!code) throw new Error(`no email with a code was sent to ${to}`);
      return code;
    },
    /** A request checked against the spec (see contract.ts). */
    request: async <Id extends OperationName | undefined = undefined>(request: ContractRequest<Id>) => {
      const response = await contractRequest(app, request);
      // Work done after the answer (the password reset email, the sign-in alert) is finished before a test looks for it.
      await services.passwordReset.settled();
      await services.signInAlerts.settled();
      return response;
    },
    createProject,
    async close() {
      await services.passwordReset.settled();
      await services.signInAlerts.settled();
      await app.close();
      await database.close();
      if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
    },
  };
}

/** Claims of a signed-in test user; override to make it anonymous, restricted, of another project... */
export function tokenSubject(
  projectId: string,
  overrides: Partial<import('@gatehouse/server/src/request-context/access-token-claims.ts').AccessTokenSubject> = {},
) {
  return {
    sub: randomUUID(),
    project_id: projectId,
    refresh_token_id: randomUUID(),
    name: 'Test User',
    email: 'test@example.com',
    email_verified: true,
    selected_team_id: null,
    signed_up_at: Math.floor(Date.now() / 1000),
    is_anonymous: false,
    is_restricted: false,
    restricted_reason: null,
    requires_totp_mfa: false,
    ...overrides,
  };
}

export type TestEnvironment = { context: TestContext; project: TestProject; baseUrl: string };

/**
 * Registers beforeAll/afterAll for a file: a test context, one project (with the given config
 * override) and, with `listen`, a real HTTP port for clients. Read the fields inside tests.
 */
export function withTestContext(
  options: {
    database?: 'postgres' | 'pglite';
    listen?: boolean;
    projectConfig?: Record<string, unknown>;
    oauth?: OAuthSettings;
    poolSize?: number;
    acquireTimeoutMs?: number;
    settings?: ServiceOptions['settings'];
  } = {},
): TestEnvironment {
  const environment = {} as TestEnvironment;
  beforeAll(async () => {
    const { database, oauth, poolSize, acquireTimeoutMs, settings } = options;
    environment.context = await createTestContext({ database, oauth, poolSize, acquireTimeoutMs, settings });
    environment.project = await environment.context.createProject(options.projectConfig);
    if (options.listen) {
      await environment.context.app.listen({ port: 0, host: '127.0.0.1' });
      environment.baseUrl = `http://127.0.0.1:${(environment.context.app.server.address() as AddressInfo).port}`;
    }
  });
  afterAll(() => environment.context.close());
  return environment;
}
