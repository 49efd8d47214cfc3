import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { withTestContext } from '@gatehouse/testing/test-context';
import { RedirectUrlNotWhitelistedError } from '../errors.ts';
import { createServerApp } from './server-app.ts';

/** The server app's emails against the real server over HTTP and a real SMTP sink. */
const sink = await startSmtpSink();
afterAll(() => sink.close());
const env = withTestContext({
  listen: true,
  projectConfig: {
    'emails.server': {
      isShared: false,
      host: '127.0.0.1',
      port: sink.port,
      username: 'u',
      password: 'p',
      senderName: 'Acme',
      senderEmail: 'hi@acme.test',
    },
    'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
    // The sink is on loopback, which a project's own SMTP server may use only with allow localhost (the outbound guard).
    'domains.allowLocalhost': true,
  },
});
const server = () =>
  createServerApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, secretServerKey: env.project.keys.secret_server_key });

describe('server emails', () => {
  it('sends an HTML email to a listed user through the outbox to the SMTP server', async () => {
    const email = `sdk-${randomUUID().slice(0, 8)}@example.com`;
    const user = await env.context.services.users.create(env.project.project, { primary_email: email, display_name: 'Ann' }, 'server');
    const results = await server().sendEmail({ userIds: [user.id], html: '<p>Your order shipped</p>', subject: 'Shipped' });
    expect(results).toEqual([{ userId: user.id }]);
    const message = await sink.waitFor((candidate) => candidate.to.includes(email));
    expect(message.subject).toBe('Shipped');
    expect(message.html).toContain('Your order shipped');
  });

  it('sends a sign-in invitation, and refuses an untrusted callback with its typed error', async () => {
    const email = `invite-${randomUUID().slice(0, 8)}@example.com`;
    await server().sendSignInInvitation(email, 'https://app.example.com/handler/sign-up');
    const message = await sink.waitFor((candidate) => candidate.to.includes(email));
    expect(message.html).toContain('https://app.example.com/handler/sign-up');
    await expect(server().sendSignInInvitation(email, 'https://evil.example.net/')).rejects.toBeInstanceOf(RedirectUrlNotWhitelistedError);
  });
});
