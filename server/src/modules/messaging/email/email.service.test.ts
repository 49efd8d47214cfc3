import { smtpFailures } from './smtp-guard.ts';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { handleOf } from '../../../db/handle.ts';
import { withTestContext } from '@gatehouse/testing/test-context';
import { renderConfig } from '../../../tenancy/project-config.ts';
import { type EmailLog, EmailService } from './email.service.ts';
import { resolveSmtpSettings } from './smtp-settings.ts';
import { darkThemeId, systemTemplateIds } from './built-in-emails.ts';

const link = 'https://app.example.com/handler/sign-in?code=abc123&after=%2Fhome';
const escapedLink = 'https://app.example.com/handler/sign-in?code=abc123&amp;after=%2Fhome';

function capturingLog() {
  const lines: { message: string; fields: Record<string, unknown> }[] = [];
  const log: EmailLog = (message, fields) => lines.push({ message, fields });
  return { lines, log };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('EmailService', () => {
  const env = withTestContext();
  let sink: SmtpSink;
  let sharedSink: SmtpSink;
  const services: EmailService[] = [];
  const service = (options: ConstructorParameters<typeof EmailService>[2]) => {
    const created = new EmailService(handleOf(env.context.database.db), env.context.services.emailContent, options);
    services.push(created);
    return created;
  };
  // With credentials, so delivery also goes through SMTP AUTH (the sink accepts any login).
  const ownServer = (port: number) => ({
    // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
    'domains.allowLocalhost': true,
    'emails.server': {
      isShared: false,
      host: '127.0.0.1',
      port,
      username: 'acme',
      password: 'secret',
      senderName: 'Acme Auth',
      senderEmail: 'auth@acme.test',
    },
  });

  beforeAll(async () => {
    [sink, sharedSink] = await Promise.all([startSmtpSink(), startSmtpSink()]);
  });
  afterAll(async () => {
    for (const created of services) await created.close();
    await Promise.all([sink?.close(), sharedSink?.close()]);
  });

  it("delivers through the project's own mail server", async () => {
    const project = await env.context.services.projects.create({ displayName: 'Acme', configOverride: ownServer(sink.port) });
    const emails = service({ sharedSmtp: sharedSink.settings(), log: capturingLog().log });
    const to = `${randomUUID()}@example.com`;

    const result = await emails.send(project, { to, kind: 'sign_in_code', variables: { link, otp: 'K7Q2XZ' } });

    expect(result.delivered).toBe(true);
    const message = await sink.waitFor((candidate) => candidate.to.includes(to));
    expect(message.subject).toBe('Your Acme sign-in code is K7Q2XZ');
    expect(message.from).toBe('"Acme Auth" <auth@acme.test>');
    // A stable Message-ID: the outbox row's id at the sender's domain.
    expect(message.messageId).toBe(`<${result.outboxId}@acme.test>`);
    expect(message.text).toContain(link);
    expect(message.text).toMatch(/Your sign-in code is\s+K7Q2XZ/);
    expect(message.html).toContain(escapedLink);
    expect(message.html).toContain('K7Q2XZ');
    expect(sharedSink.messages.some((candidate) => candidate.to.includes(to))).toBe(false);

    const [row] = await emails.listOutbox(project.id, 10);
    expect(row).toMatchObject({ id: result.outboxId, to_address: to, kind: 'sign_in_code', error: null });
    expect(row?.sent_at).toBeInstanceOf(Date);
  });

  it('uses the shared mail server when the project does', async () => {
    const project = await env.context.services.projects.create({ displayName: 'Shared Co' });
    const emails = service({ sharedSmtp: sharedSink.settings('noreply@gatehouse.test'), log: capturingLog().log });
    const to = `${randomUUID()}@example.com`;

    const result = await emails.send(project, { to, kind: 'email_verification', variables: { link } });

    expect(result.delivered).toBe(true);
    const message = await sharedSink.waitFor((candidate) => candidate.to.includes(to));
    expect(message.subject).toBe('Verify your email for Shared Co');
    expect(message.from).toBe('"Gatehouse Test" <noreply@gatehouse.test>');
    expect(message.text).toContain(link);
  });

  it('without a mail server, keeps the email in the outbox and the log', async () => {
    const project = await env.context.services.projects.create({ displayName: 'Offline' });
    const { lines, log } = capturingLog();
    const emails = service({ log });
    const to = `${randomUUID()}@example.com`;

    const result = await emails.send(project, { to, kind: 'password_reset', variables: { link } });

    expect(result.delivered).toBe(false);
    const [row] = await emails.listOutbox(project.id, 10);
    expect(row).toMatchObject({ id: result.outboxId, to_address: to, sent_at: null, error: null, subject: 'Reset your Offline password' });
    expect(row?.text).toContain(link);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toContain(to);
    expect(lines[0]?.fields).toMatchObject({ to, subject: 'Reset your Offline password' });
    expect(String(lines[0]?.fields.text)).toContain(link);
  });

  it('records a delivery failure on the row instead of throwing', async () => {
    const project = await env.context.services.projects.create({ displayName: 'Broken', configOverride: ownServer(await closedPort()) });
    const { lines, log } = capturingLog();
    const emails = service({ log });

    const result = await emails.send(project, { to: 'someone@example.com', kind: 'password_reset', variables: { link } });

    expect(result.delivered).toBe(false);
    const [row] = await emails.listOutbox(project.id, 10);
    expect(row?.id).toBe(result.outboxId);
    expect(row?.sent_at).toBeNull();
    expect(row?.error).toBe(smtpFailures.notDelivered);
    expect(lines.map((line) => line.message)).toContain('email delivery failed');
  });

  it('HTML-escapes the variables', async () => {
    const project = await env.context.services.projects.create({
      displayName: '<script>alert(1)</script>',
      configOverride: ownServer(sink.port),
    });
    const emails = service({ log: capturingLog().log });
    const to = `${randomUUID()}@example.com`;

    await emails.send(project, { to, kind: 'sign_in_code', variables: { link: 'https://x.test/"><img src=x>', otp: '<b>1</b>' } });

    const message = await sink.waitFor((candidate) => candidate.to.includes(to));
    expect(message.html).not.toContain('<script>');
    expect(message.html).not.toContain('<img');
    expect(message.html).not.toContain('<b>1</b>');
    expect(message.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(message.html).toContain('https://x.test/&quot;&gt;&lt;img src=x&gt;');
    expect(message.text).toContain('Sign in to <script>alert(1)</script>');
  });

  it('lists the outbox newest first, up to the limit', async () => {
    const project = await env.context.services.projects.create({ displayName: 'Busy' });
    const emails = service({ log: capturingLog().log });
    for (const to of ['first@example.com', 'second@example.com', 'third@example.com']) {
      await emails.send(project, { to, kind: 'email_verification', variables: { link } });
    }

    const rows = await emails.listOutbox(project.id, 2);

    expect(rows.map((row) => row.to_address)).toEqual(['third@example.com', 'second@example.com']);
  });
});

describe('system emails through the project templates', () => {
  const env = withTestContext();
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink?.close());

  const ownServer = (port: number) => ({
    // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
    'domains.allowLocalhost': true,
    'emails.server': {
      isShared: false,
      host: '127.0.0.1',
      port,
      username: 'u',
      password: 'p',
      senderName: 'Acme',
      senderEmail: 'auth@acme.test',
    },
  });
  const edited = `import { Text, Link } from '@react-email/components';
export const subject = ({ project }) => 'Please confirm, ' + project.display_name;
export function EmailTemplate({ user, variables }) {
  return <Text>Edited verification for {user.primary_email}: <Link href={variables.emailVerificationLink}>confirm</Link></Text>;
}`;

  it("renders the project's edit of a template inside the selected theme, and the built-in one again once it is deleted", async () => {
    const project = await env.context.services.projects.create({
      displayName: 'Acme',
      configOverride: { ...ownServer(sink.port), 'emails.selectedThemeId': darkThemeId },
    });
    const content = env.context.services.emailContent;
    await content.updateTemplate(project, systemTemplateIds.email_verification, { tsx_source: edited });
    const emails = new EmailService(handleOf(env.context.database.db), content, { log: capturingLog().log });
    const to = `${randomUUID()}@example.com`;

    const changed = (await env.context.services.projects.find(project.id))!;
    await emails.send(changed, { to, kind: 'email_verification', variables: { link } });
    const message = await sink.waitFor((candidate) => candidate.to.includes(to));
    expect(message.subject).toBe('Please confirm, Acme');
    expect(message.text).toContain(`Edited verification for ${to}: confirm [${link}]`);
    expect(message.html).toContain('#09090b');
    expect(message.html).toContain(escapedLink);

    await content.deleteTemplate(changed, systemTemplateIds.email_verification);
    const reset = (await env.context.services.projects.find(project.id))!;
    const again = `${randomUUID()}@example.com`;
    await emails.send(reset, { to: again, kind: 'email_verification', variables: { link } });
    expect((await sink.waitFor((candidate) => candidate.to.includes(again))).subject).toBe('Verify your email for Acme');
  });

  it('falls back to the built-in template when the project template fails, and logs why', async () => {
    const project = await env.context.services.projects.create({ displayName: 'Fragile', configOverride: ownServer(sink.port) });
    const throwing = 'export function EmailTemplate() { throw new Error("broken edit"); }';
    const withBrokenEdit = (await env.context.services.projects.find(project.id))!;
    await env.context.services.projects.update(project.id, {
      configOverride: {
        ...withBrokenEdit.config_override,
        [`emails.templates.${systemTemplateIds.password_reset}`]: { displayName: 'Password Reset', tsxSource: throwing },
      },
    });
    const { lines, log } = capturingLog();
    const emails = new EmailService(handleOf(env.context.database.db), env.context.services.emailContent, { log });
    const to = `${randomUUID()}@example.com`;
    await emails.send((await env.context.services.projects.find(project.id))!, { to, kind: 'password_reset', variables: { link } });
    const message = await sink.waitFor((candidate) => candidate.to.includes(to));
    expect(message.subject).toBe('Reset your Fragile password');
    expect(lines.find((line) => line.message.startsWith('email template failed'))?.fields.error).toBe('Error: broken edit');
  });

  it('keeps line breaks of a variable out of the subject', async () => {
    const project = await env.context.services.projects.create({
      displayName: 'A\r\nBcc: x@evil.test',
      configOverride: ownServer(sink.port),
    });
    const emails = new EmailService(handleOf(env.context.database.db), env.context.services.emailContent, { log: capturingLog().log });
    const result = await emails.send(project, { to: 'someone@example.com', kind: 'password_reset', variables: { link } });
    const [row] = await emails.listOutbox(project.id, 10);
    expect(row?.id).toBe(result.outboxId);
    expect(row?.subject).toBe('Reset your A Bcc: x@evil.test password');
  });
});

describe('resolveSmtpSettings', () => {
  const shared = { host: 'smtp.shared.test', port: 587, senderName: 'Gatehouse', senderEmail: 'noreply@shared.test' };
  const project = (server: Record<string, unknown>) => ({ display_name: 'Acme', config: renderConfig({ 'emails.server': server }) });

  it("uses the project's own server when it opted out of the shared one", () => {
    expect(
      resolveSmtpSettings(
        project({ isShared: false, host: 'mail.acme.test', port: 465, username: 'u', password: 'p', senderEmail: 'a@acme.test' }),
        shared,
      ),
    ).toEqual({
      host: 'mail.acme.test',
      port: 465,
      username: 'u',
      password: 'p',
      secure: true,
      senderName: 'Acme',
      senderEmail: 'a@acme.test',
      // A project's own server is reached under the project's outbound policy (smtp-guard.ts).
      policy: { allowLoopback: false },
    });
  });

  it('falls back to the shared settings (or none) when the project uses them or its own are incomplete', () => {
    expect(resolveSmtpSettings(project({ isShared: true, host: 'mail.acme.test', port: 25, senderEmail: 'a@acme.test' }), shared)).toBe(
      shared,
    );
    expect(resolveSmtpSettings(project({ isShared: false, host: 'mail.acme.test' }), shared)).toBe(shared);
    expect(resolveSmtpSettings(project({ isShared: true }), undefined)).toBeUndefined();
  });
});
