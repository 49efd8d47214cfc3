import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JourneySecrets, runProductionJourney } from '@gatehouse/testing/production-journey';
import { freshDatabase, type ServerProcess, startServerProcess } from '@gatehouse/testing/server-process';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';

/**
 * The secrets-in-logs suite (issue #30): a server process in production mode, logging at `info`
 * (every request), on a Postgres database of its own, runs a whole journey; none of the codes,
 * links, keys, tokens, passwords or secrets the journey created or gave may appear anywhere in what
 * the process printed, and the secrets sealed at rest may not appear in a `pg_dump` of its database.
 */
let sink: SmtpSink;
let server: ServerProcess;
let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let secrets: JourneySecrets;
const serverSecret = `journey server secret ${'x'.repeat(24)}`;

beforeAll(async () => {
  sink = await startSmtpSink();
  const database = await freshDatabase();
  dropDatabase = database.drop;
  databaseUrl = database.url;
  server = await startServerProcess({
    NODE_ENV: 'production',
    DEVELOPMENT_MODE: 'false',
    LOG_LEVEL: 'info',
    DATABASE_URL: database.url,
    SERVER_SECRET: serverSecret,
  });
  secrets = { ...(await runProductionJourney(server, sink)), server_secret: serverSecret };
  // Let the last request lines and email deliveries reach the output.
  await new Promise((resolve) => setTimeout(resolve, 500));
}, 240_000);
afterAll(async () => {
  server?.cleanup();
  await server?.exited;
  await sink?.close();
  await dropDatabase?.();
});

describe('secrets in the production log', () => {
  it('a whole journey leaves none of its codes, links, keys or secrets in the log', () => {
    const log = server.output();
    // The log was captured: the requests and the emails are in it.
    expect(log).toContain('/api/v1/auth/otp/sign-in');
    expect(log).toMatch(/email to journey-[0-9a-f]+@example\.com/);
    const found = Object.entries(secrets).filter(([, value]) => log.includes(value));
    expect(found.map(([name]) => name)).toEqual([]);
  });
});

const pgDump = ['/usr/lib/postgresql/15/bin/pg_dump'].find((path) => existsSync(path)) ?? 'pg_dump';

describe('secrets in a database dump', () => {
  it('holds the webhook secrets, the SMTP password, the OAuth client secret, the emailed codes and the server secret only sealed', () => {
    const dump = execFileSync(pgDump, ['--data-only', '--no-owner', `--dbname=${databaseUrl}`], {
      maxBuffer: 256 * 1024 * 1024,
    }).toString();
    // The dump is the journey's database: its users and endpoints are in it.
    expect(dump).toContain('journey-');
    expect(dump).toContain('http://127.0.0.1:9/journey-hook');
    const sealedAtRest = ['webhook_secret', 'rotated_webhook_secret', 'smtp_password', 'oauth_client_secret', 'server_secret'];
    // The outbox keeps every email it sent, sealed: none of their codes or links is readable.
    sealedAtRest.push('otp', 'magic_link_code', 'verification_code', 'reset_code', 'invitation_code');
    expect(sealedAtRest.filter((name) => dump.includes(secrets[name] as string))).toEqual([]);
    // The configured server secret is the only one: no row in the database derives keys.
    expect(dump).not.toMatch(/COPY public\.server_secret [^\n]*\n(?!\\\.)/);
    // Keys, passwords and tokens were stored as digests or hashes from the start.
    const hashed = Object.keys(secrets).filter((name) => /key|password|token/.test(name) && name !== 'smtp_password');
    expect(hashed.filter((name) => dump.includes(secrets[name] as string))).toEqual([]);
  });
});
