import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '@gatehouse/testing/server-process';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';
import type { Language } from '../../../tenancy/project-language.ts';
import { emailCatalogues } from './email-catalogues.ts';

/**
 * The theme around every email speaks the recipient's language, delivered through a real SMTP server (the
 * sink): `<html lang dir>` and the unsubscribe footer from the email catalogues. A send-email batch to users of
 * three languages renders its shared shape once per language (twice: see batch-rendering.ts), not per recipient.
 */
let sink: SmtpSink;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let context: TestContext;
let project: TestProject;

beforeAll(async () => {
  sink = await startSmtpSink();
  // A database of its own: the outbox worker claims due rows of every project, and the render count is this server's.
  database = await freshDatabase();
  context = await createTestContext({
    databaseUrl: database.url,
    poolSize: 4,
    settings: {
      email: {
        delivery: {
          pollIntervalMillis: 100,
          leaseMillis: 30_000,
          maxAttempts: 3,
          retryBaseMillis: 100,
          retryMaxMillis: 1_000,
          batchSize: 5,
          smtpConnections: 2,
        },
      },
    },
  });
  project = await context.createProject({
    'domains.allowLocalhost': true,
    'emails.server': {
      isShared: false,
      host: '127.0.0.1',
      port: sink.port,
      username: 'u',
      password: 'p',
      senderName: 'Acme',
      senderEmail: 'news@acme.test',
    },
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await database?.drop();
  await sink?.close();
});

const newUser = (language: Language | undefined, name: string) =>
  context.services.users.create(
    project.project,
    {
      primary_email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
      display_name: name,
      ...(language ? { language } : {}),
    },
    'server',
  );

/** The footer as the built-in theme writes it (en, de and ar start with the link): the link's words, then the sentence's rest. */
function footerOf(language: Language): string {
  const words = emailCatalogues[language];
  const [before, after] = words['theme.unsubscribeSentence'].split('{unsubscribe}') as [string, string];
  expect(before).toBe('');
  return `>${words['theme.unsubscribe']}</a>${after}`;
}

const marketing = `import { Text } from '@react-email/components';
export const subject = 'News';
export const notificationCategory = 'Marketing';
export function EmailTemplate({ user }) { return <Text>Hello {user.display_name}</Text>; }`;

describe('the email themes in the recipient language, through the SMTP sink', () => {
  it('writes a verification email with the recipient lang and dir, and no footer (transactional)', async () => {
    const [arabic, german] = [await newUser('ar', 'Amal'), await newUser('de', 'Dora')];
    for (const user of [arabic, german]) {
      const channels = await context.request({
        method: 'GET',
        url: `/api/v1/contact-channels?user_id=${user.id}`,
        headers: project.headers.server,
      });
      const sent = await context.request({
        method: 'POST',
        url: `/api/v1/contact-channels/${user.id}/${channels.body.items[0].id}/send-verification-code`,
        headers: project.headers.server,
        payload: { callback_url: 'http://localhost:3000/handler/email-verification' },
      });
      expect(sent.status).toBe(200);
    }
    const toArabic = await sink.waitFor((message) => message.to.includes(arabic.primary_email!), 30_000);
    expect(toArabic.html).toMatch(/<html dir="rtl" lang="ar">/);
    expect(toArabic.subject).toBe(emailCatalogues.ar['emailVerification.subject'].replace('{project}', 'Test project'));
    expect(toArabic.html).not.toContain(emailCatalogues.ar['theme.unsubscribe']);
    const toGerman = await sink.waitFor((message) => message.to.includes(german.primary_email!), 30_000);
    expect(toGerman.html).toMatch(/<html dir="ltr" lang="de">/);
  });

  it('gives each recipient of one batch the footer, lang and dir of their language; the renders grow by languages, not recipients', async () => {
    const languages = ['de', 'ar', undefined] as const;
    const users = [];
    for (const language of languages)
      for (let index = 0; index < 4; index++)
        users.push({ language: language ?? 'en', user: await newUser(language, `U${index}${language ?? 'en'}`) });
    const created = await context.request({
      method: 'POST',
      url: '/api/v1/internal/email-templates',
      headers: project.headers.admin,
      payload: { display_name: 'News', tsx_source: marketing },
    });
    expect(created.status).toBe(200);

    const rendersBefore = context.services.emailContent.renderer.renderCount;
    const response = await context.request({
      method: 'POST',
      url: '/api/v1/emails/send-email',
      headers: project.headers.server,
      payload: { user_ids: users.map(({ user }) => user.id), template_id: created.body.id },
    });
    expect(response.status).toBe(200);

    for (const { language, user } of users) {
      const message = await sink.waitFor((candidate) => candidate.to.includes(user.primary_email!), 60_000);
      expect(message.text).toContain(`Hello ${user.display_name}`);
      expect(message.html).toMatch(new RegExp(`<html dir="${language === 'ar' ? 'rtl' : 'ltr'}" lang="${language}">`));
      expect(message.html).toContain(footerOf(language as Language));
      expect(message.html).toContain('/api/v1/emails/unsubscribe-link?code=');
      for (const other of ['en', 'de', 'ar'] as const)
        if (other !== language) expect(message.html).not.toContain(`>${emailCatalogues[other]['theme.unsubscribe']}</a>`);
    }
    const batchRows = async () => (await context.services.email.listOutbox(project.project.id, 50)).filter((row) => row.batch_id !== null);
    await expect
      .poll(async () => (await batchRows()).filter((row) => row.status === 'sent').length, { timeout: 30_000 })
      .toBe(users.length);
    // Exactly once: one message per recipient.
    for (const { user } of users) expect(sink.messages.filter((message) => message.to.includes(user.primary_email!))).toHaveLength(1);
    // One probe render when the batch is sent, then two renders (the shape's check) per language: 7 for 12 recipients.
    expect(context.services.emailContent.renderer.renderCount - rendersBefore).toBe(1 + 2 * languages.length);
  });
});
