import { createServer } from 'node:net';
import { ensureExampleAppBuilt } from '../../../scripts/src/example-app/build-example-app.ts';
import type { OAuthSettings } from '../../../server/src/modules/authentication/oauth/oauth-settings.ts';
import type { PaymentSettings } from '../../../server/src/modules/billing/payments/payment-settings.ts';
import type { WebAppConfig } from '../../../server/src/plugins/web-app.ts';
import type { ServiceOptions } from '../../../server/src/services.ts';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

export type DemoPlatform = {
  /** Where the browser opens the example app (same origin as the API). */
  url: string;
  context: TestContext;
  project: TestProject;
  /** Receives the project's emails over real SMTP. */
  mail: SmtpSink;
  close(): Promise<void>;
};

/**
 * The example app as a newcomer gets it from `pnpm start`: built by Vite, served by the platform on
 * its own port (real HTTP, the run's Postgres), for a project that sends email through a real SMTP
 * server and allows what the app offers (password and magic-link sign-in, client team creation).
 */
export async function startDemoPlatform(
  projectConfig: Record<string, unknown> = {},
  options: { oauth?: OAuthSettings; payments?: PaymentSettings; settings?: ServiceOptions['settings'] } = {},
): Promise<DemoPlatform> {
  const [distDir, mail, port] = await Promise.all([ensureExampleAppBuilt(), startSmtpSink(), freePort()]);
  // Known before the server starts: OAuth callbacks are built from the public URL.
  const url = `http://127.0.0.1:${port}`;
  let config: WebAppConfig | undefined;
  const context = await createTestContext({
    oauth: options.oauth,
    ...(options.payments ? { payments: options.payments } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    publicUrl: url,
    exampleApp: {
      distDir,
      config: () => {
        if (!config) throw new Error('the demo project is not created yet');
        return config;
      },
    },
  });
  const project = await context.createProject({
    'auth.password.allowSignIn': true,
    'auth.otp.allowSignIn': true,
    'domains.allowLocalhost': true,
    'teams.allowClientTeamCreation': true,
    'users.allowClientUserDeletion': true,
    'emails.server': { isShared: false, host: '127.0.0.1', port: mail.port, senderName: 'Demo app', senderEmail: 'auth@demo.test' },
    ...projectConfig,
  });
  config = { projectId: project.project.id, publishableClientKey: project.keys.publishable_client_key };
  await context.app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    context,
    project,
    mail,
    async close() {
      await context.close();
      await mail.close();
    },
  };
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
