import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type EncryptionKeys, readEncryptionKeys } from '../lib/at-rest-cipher.ts';
import { type RateLimits, readRateLimits } from './rate-limits.ts';
import { readDevelopmentMode } from './secrets-in-logs.ts';
import { readIntegerSetting, settingNumber, settingText } from './settings.ts';

const positive = { min: 1, expected: 'a positive integer' };

/**
 * The server's own settings, read once from the environment at start. Each module reads its own
 * (SMTP_*, OAUTH_*, EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS...) in its definition's `settings`.
 */
export type ServerEnv = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** `DATABASE_POOL_SIZE`: connections to Postgres (default 10; PGlite has one). */
  databasePoolSize?: number;
  /** `DATABASE_ACQUIRE_TIMEOUT_MS`: longest wait for a free connection before answering 503 DATABASE_BUSY (default 5000). */
  databaseAcquireTimeoutMs?: number;
  /**
   * `DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`: Postgres ends a pooled session whose transaction sat this
   * long without a statement (default 10000; 0: off, the server's own setting applies).
   */
  databaseIdleInTransactionTimeoutMs?: number;
  /** Base URL clients reach the server at: token issuers and printed URLs are built from it. */
  publicUrl: string;
  /**
   * SERVER_SECRET or the contents of SERVER_SECRET_FILE (any string ≥ 32 chars, or `hex:` + 64 hex digits);
   * otherwise one is generated and kept in the database, which production refuses (db/server-secret.ts).
   */
  serverSecret?: string;
  /** NODE_ENV=production: the server secret must come from the environment. */
  production: boolean;
  /** ENCRYPTION_KEY (or ENCRYPTION_KEY_FILE) and ENCRYPTION_KEYS_PREVIOUS: the key secrets at rest are sealed under (lib/at-rest-cipher.ts). */
  encryptionKeys: EncryptionKeys;
  /**
   * Which proxies may set X-Forwarded-For: `true` (all: only behind a proxy that overwrites it), a hop
   * count, or a comma list of proxy addresses/CIDRs. Off by default, so a client cannot spoof its IP.
   */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  logLevel: string;
  /** `SHUTDOWN_TIMEOUT_SECONDS`: on SIGTERM/SIGINT, the longest wait for in-flight requests and jobs before connections are cut (default 10). */
  shutdownTimeoutMs: number;
  /**
   * `SHUTDOWN_DELAY_SECONDS`: on SIGTERM/SIGINT, how long `/ready` answers 503 while the server still
   * serves as usual, before it stops listening (default 0): time for a load balancer's health check to
   * take the instance out, so no new connection reaches a closed port.
   */
  shutdownDelayMs: number;
  /** Secrets (keys, codes, email links) are logged in clear only in development mode (secrets-in-logs.ts). */
  developmentMode: boolean;
  /** A built example app to serve on the same port (set by `pnpm start`; empty or unset: none). */
  exampleAppDir?: string;
  /** The built dashboard to serve at `/dashboard` (set by `pnpm start`; empty or unset: none). */
  dashboardDir?: string;
  /** The built documentation site to serve at `/docs` (set by `pnpm start`; empty or unset: none). */
  docsDir?: string;
  /** Per-route limits: RATE_LIMITS and RATE_LIMIT_* (see rate-limits.ts; relaxed in development mode); null when RATE_LIMITS=off. */
  rateLimits: RateLimits | null;
  seed: {
    projectId?: string;
    publishableClientKey?: string;
    secretServerKey?: string;
    superSecretAdminKey?: string;
  };
};

export function readEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const developmentMode = readDevelopmentMode(env);
  const port = readIntegerSetting(env, 'PORT', { min: 0, max: 65535, expected: 'a port number' }) ?? settingNumber('PORT');
  return {
    port,
    host: env.HOST ?? settingText('HOST'),
    dataDir: resolve(env.DATA_DIR ?? settingText('DATA_DIR')),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: readIntegerSetting(env, 'DATABASE_POOL_SIZE', positive),
    databaseAcquireTimeoutMs: readIntegerSetting(env, 'DATABASE_ACQUIRE_TIMEOUT_MS', positive),
    databaseIdleInTransactionTimeoutMs: readIntegerSetting(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', {
      min: 0,
      max: 2_147_483_647,
      expected: 'a whole number of milliseconds (0: off)',
    }),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    serverSecret:
      env.SERVER_SECRET || (env.SERVER_SECRET_FILE ? readFileSync(env.SERVER_SECRET_FILE, 'utf8').trim() : undefined) || undefined,
    production: env.NODE_ENV === 'production',
    encryptionKeys: readEncryptionKeys(env, (path) => readFileSync(path, 'utf8')),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL ?? settingText('LOG_LEVEL'),
    shutdownTimeoutMs: (readIntegerSetting(env, 'SHUTDOWN_TIMEOUT_SECONDS', positive) ?? settingNumber('SHUTDOWN_TIMEOUT_SECONDS')) * 1000,
    shutdownDelayMs: (nonNegativeNumber(env, 'SHUTDOWN_DELAY_SECONDS') ?? settingNumber('SHUTDOWN_DELAY_SECONDS')) * 1000,
    developmentMode,
    exampleAppDir: env.EXAMPLE_APP_DIR || undefined,
    dashboardDir: env.DASHBOARD_DIR || undefined,
    docsDir: env.DOCS_DIR || undefined,
    rateLimits: readRateLimits(env, developmentMode),
    seed: {
      projectId: env.SEED_PROJECT_ID || undefined,
      publishableClientKey: env.SEED_PUBLISHABLE_CLIENT_KEY || undefined,
      secretServerKey: env.SEED_SECRET_SERVER_KEY || undefined,
      superSecretAdminKey: env.SEED_SUPER_SECRET_ADMIN_KEY || undefined,
    },
  };
}

function nonNegativeNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 3600)
    throw new Error(`${name} must be a number of seconds from 0 to 3600, got ${value}`);
  return number;
}

function parseTrustProxy(value: string | undefined): ServerEnv['trustProxy'] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}
