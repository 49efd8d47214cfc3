import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProductionJourney } from '../testing/production-journey.ts';
import { freshDatabase, type ServerProcess, startServerProcess } from '../testing/server-process.ts';
import { type SmtpSink, startSmtpSink } from '../testing/smtp-sink.ts';

/**
 * The secrets-in-logs suite (issue #30): a server process in production mode, logging at `info`
 * (every request), runs a whole journey; none of the codes, links, keys, tokens, passwords or
 * secrets the journey created or gave may appear anywhere in what the process printed.
 */
let sink: SmtpSink;
let server: ServerProcess;
let dropDatabase: () => Promise<void>;
const serverSecret = `journey server secret ${'x'.repeat(24)}`;

beforeAll(async () => {
  sink = await startSmtpSink();
  const database = await freshDatabase();
  dropDatabase = database.drop;
  server = await startServerProcess({
    NODE_ENV: 'production',
    DEVELOPMENT_MODE: 'false',
    LOG_LEVEL: 'info',
    DATABASE_URL: database.url,
    SERVER_SECRET: serverSecret,
  });
}, 120_000);
afterAll(async () => {
  server?.cleanup();
  await server?.exited;
  await sink?.close();
  await dropDatabase?.();
});

describe('secrets in the production log', () => {
  it('a whole journey leaves none of its codes, links, keys or secrets in the log', { timeout: 120_000 }, async () => {
    const secrets = { ...(await runProductionJourney(server, sink)), server_secret: serverSecret };
    // Let the last request lines and email deliveries reach the output.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const log = server.output();
    // The log was captured: the requests and the emails are in it.
    expect(log).toContain('/api/v1/auth/otp/sign-in');
    expect(log).toMatch(/email to journey-[0-9a-f]+@example\.com/);
    const found = Object.entries(secrets).filter(([, value]) => log.includes(value));
    expect(found.map(([name]) => name)).toEqual([]);
  });
});
