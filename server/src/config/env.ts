import { resolve } from 'node:path';
import { type RateLimits, readRateLimits } from './rate-limits.ts';
import type { SmtpSettings } from '../modules/email/smtp-settings.ts';
import { type OAuthSettings, readOAuthSettings } from '../modules/oauth/oauth-settings.ts';

/** Everything a run is configured with; read once from the environment at start. */
export type ServerEnv = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Base URL clients reach the server at: token issuers and printed URLs are built from it. */
  publicUrl: string;
  /** Optional fixed secret (hex or any string ≥ 32 chars); otherwise one is generated and kept in the database. */
  serverSecret?: string;
  /**
   * Which proxies may set X-Forwarded-For: `true` (all: only behind a proxy that overwrites it), a hop
   * count, or a comma list of proxy addresses/CIDRs. Off by default, so a client cannot spoof its IP.
   */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  logLevel: string;
  /** A built example app to serve on the same port (set by `pnpm start`; empty or unset: none). */
  exampleAppDir?: string;
  /** Per-route limits (see rate-limits.ts); null when RATE_LIMITS=off. */
  rateLimits: RateLimits | null;
  /** The shared mail server (SMTP_*), used by projects on the shared server; without it emails only reach the outbox and the log. */
  smtp?: SmtpSettings;
  /** OAuth provider endpoint overrides and shared (development) keys (OAUTH_*; see oauth-settings.ts). */
  oauth: OAuthSettings;
  /** How often expired rows are deleted (EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS, default 600); 0: never. */
  expiredRowsCleanupIntervalMillis: number;
  seed: {
    projectId?: string;
    publishableClientKey?: string;
    secretServerKey?: string;
    superSecretAdminKey?: string;
  };
};

export function readEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const port = Number(env.PORT ?? 8102);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    serverSecret: env.SERVER_SECRET || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL ?? 'info',
    exampleAppDir: env.EXAMPLE_APP_DIR || undefined,
    rateLimits: readRateLimits(env),
    smtp: parseSmtp(env),
    oauth: readOAuthSettings(env),
    expiredRowsCleanupIntervalMillis: parseCleanupInterval(env.EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS),
    seed: {
      projectId: env.SEED_PROJECT_ID || undefined,
      publishableClientKey: env.SEED_PUBLISHABLE_CLIENT_KEY || undefined,
      secretServerKey: env.SEED_SECRET_SERVER_KEY || undefined,
      superSecretAdminKey: env.SEED_SUPER_SECRET_ADMIN_KEY || undefined,
    },
  };
}

function parseSmtp(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  if (!env.SMTP_HOST) return undefined;
  const port = Number(env.SMTP_PORT || 587);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`SMTP_PORT must be a port number, got ${env.SMTP_PORT}`);
  return {
    host: env.SMTP_HOST,
    port,
    username: env.SMTP_USERNAME || undefined,
    password: env.SMTP_PASSWORD || undefined,
    secure: env.SMTP_SECURE === 'true',
    senderName: env.SMTP_SENDER_NAME || 'Gatehouse',
    senderEmail: env.SMTP_SENDER_EMAIL || 'noreply@localhost',
  };
}

function parseCleanupInterval(value: string | undefined): number {
  if (value === undefined || value === '') return 600_000;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 86_400) {
    throw new Error(`EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS must be a whole number of seconds from 0 (off) to 86400, got ${value}`);
  }
  return seconds * 1000;
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
