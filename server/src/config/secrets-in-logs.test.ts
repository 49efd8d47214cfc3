import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/create-database.ts';
import { emailModule } from '../modules/messaging/email/index.ts';
import { printStartBanner } from '../start-banner.ts';
import { withTestContext } from '@gatehouse/testing/test-context';
import { readEnv } from './env.ts';
import { requestSerializer, urlForLog } from './secrets-in-logs.ts';

/** Keys, codes and email links reach the log only in development mode, and the banner says which mode runs. */
const env = withTestContext();
afterEach(() => vi.restoreAllMocks());

const keys = {
  publishable_client_key: `pck_${'a'.repeat(41)}pck1`,
  secret_server_key: `ssk_${'b'.repeat(41)}ssk2`,
  super_secret_admin_key: `sak_${'c'.repeat(41)}sak3`,
};
const seeded = { id: 'demo-id', displayName: 'Demo', keys, file: '/data/demo-project.json', anonymousSignUp: true, owned: false };
const database = { kind: 'pglite', location: '/data/pglite' } as DatabaseHandle;

function captureConsole(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    lines.push(parts.map(String).join(' '));
  });
  return lines;
}

describe('secrets in the log', () => {
  it('prints the keys in the banner only in development mode, and says which mode runs', () => {
    const production = captureConsole();
    printStartBanner(readEnv({ DEVELOPMENT_MODE: 'false' }), database, { demo: seeded, internal: { ...seeded, id: 'internal' } });
    const productionText = production.join('\n');
    expect(productionText).toContain('Production mode: no keys, codes or email links in the log');
    for (const key of Object.values(keys)) expect(productionText).not.toContain(key);
    expect(productionText).toContain('pck_…pck1');
    expect(productionText).toContain('/data/demo-project.json');

    const development = captureConsole();
    printStartBanner(readEnv({ DEVELOPMENT_MODE: 'true' }), database, { demo: seeded, internal: { ...seeded, id: 'internal' } });
    const developmentText = development.join('\n');
    expect(developmentText).toContain('Development mode: keys, sign-in codes and email links are logged in clear');
    for (const key of Object.values(keys)) expect(developmentText).toContain(key);
    expect(() => readEnv({ DEVELOPMENT_MODE: 'yes' })).toThrow('DEVELOPMENT_MODE must be true or false');
  });

  it("logs an email's subject and text (its link and code) only in development mode", () => {
    const email = {
      to: 'someone@example.com',
      subject: 'Your Demo sign-in code is RDUFMU',
      text: 'https://app.example.com/magic-link?code=secretcode123',
    };
    const message = 'email to someone@example.com (sign_in_code, outbox 1)';
    const production = captureConsole();
    emailModule.readSettings({ DEVELOPMENT_MODE: 'false' }).log(message, email);
    expect(production.join('\n')).toContain('email to someone@example.com');
    expect(production.join('\n')).not.toContain('RDUFMU');
    expect(production.join('\n')).not.toContain('secretcode123');
    const development = captureConsole();
    emailModule.readSettings({ DEVELOPMENT_MODE: 'true' }).log(message, email);
    expect(development.join('\n')).toContain('RDUFMU');
    expect(development.join('\n')).toContain('secretcode123');
  });

  it('logs request URLs without their query values outside development mode', async () => {
    expect(urlForLog('/api/v1/auth/oauth/callback/google?code=abc&state=def&flag')).toBe(
      '/api/v1/auth/oauth/callback/google?code=[redacted]&state=[redacted]&flag',
    );
    const { buildApp } = await import('../app.ts');
    for (const developmentMode of [false, true]) {
      const logged: string[] = [];
      const app = await buildApp({
        server: env.context.server,
        rateLimits: null,
        logger: {
          level: 'info',
          serializers: { req: requestSerializer(developmentMode) },
          stream: { write: (line: string) => logged.push(line) },
        },
      });
      await app.inject({ url: '/api/v1/auth/oauth/callback/google?code=provider-code-secret&state=some-state' });
      await app.close();
      const text = logged.join('');
      expect(text).toContain('/api/v1/auth/oauth/callback/google');
      if (developmentMode) expect(text).toContain('provider-code-secret');
      else expect(text).not.toContain('provider-code-secret');
    }
  });
});
