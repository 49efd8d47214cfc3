import { randomUUID } from 'node:crypto';
import { EmailAlreadyVerifiedError } from '@gatehouse/protocol/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { supportedLanguages } from '../../../tenancy/project-language.ts';
import { emailCatalogues } from './email-catalogues.ts';

/**
 * The built-in emails in the recipient's language: the user's `language` (Gatehouse's own), else the project's
 * `project.defaultLanguage`, else English; delivered through a real SMTP server (the sink) from the API's operations.
 */
const env = withTestContext();
const callback = 'http://localhost:3000/handler/email-verification';
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
});

/** A project that sends through the sink (its own SMTP server on loopback), with the given default language. */
const projectWith = (config: Record<string, unknown> = {}) =>
  env.context.createProject({
    'domains.allowLocalhost': true,
    'emails.server': {
      isShared: false,
      host: '127.0.0.1',
      port: sink.port,
      username: 'mail',
      password: 'secret',
      senderName: 'Mail',
      senderEmail: 'auth@mail.test',
    },
    ...config,
  });

/** A user created through the API (server access), with a primary email; `language` when given. */
async function createUser(project: TestProject, language?: string) {
  const email = `${randomUUID()}@example.com`;
  const created = await env.context.request({
    method: 'POST',
    url: '/api/v1/users',
    headers: project.headers.server,
    payload: { primary_email: email, ...(language ? { language } : {}) },
  });
  expect(created.status).toBe(201);
  const channels = await env.context.request({
    method: 'GET',
    url: `/api/v1/contact-channels?user_id=${created.body.id}`,
    headers: project.headers.server,
  });
  return { id: created.body.id as string, email, language: created.body.language, channelId: channels.body.items[0].id as string };
}

/** Asks for the verification email of the user's primary email and waits for it in the sink. */
async function verificationEmail(project: TestProject, user: { id: string; email: string; channelId: string }) {
  const answer = await env.context.request({
    method: 'POST',
    url: `/api/v1/contact-channels/${user.id}/${user.channelId}/send-verification-code`,
    headers: project.headers.server,
    payload: { callback_url: callback },
  });
  expect(answer.status).toBe(200);
  return sink.waitFor((message) => message.to.includes(user.email), 30_000);
}

describe('the built-in emails in the recipient language', () => {
  it('renders the verification email in German for a user whose language is de, and in English by default', async () => {
    const project = await projectWith();
    const german = await createUser(project, 'de');
    expect(german.language).toBe('de');
    const message = await verificationEmail(project, german);
    expect(message.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für Test project');
    expect(message.html).toContain('lang="de"');
    expect(message.text).toContain('Bestätigen Sie, dass diese Adresse Ihnen gehört');
    expect(message.text).toContain('E-Mail-Adresse bestätigen');
    expect(message.text).not.toContain('Verify');

    const english = await createUser(project);
    expect(english.language).toBeNull();
    const englishMessage = await verificationEmail(project, english);
    expect(englishMessage.subject).toBe('Verify your email for Test project');
    expect(englishMessage.text).toContain('Confirm that this address belongs to you');
  });

  it("uses the project's default language for a user without one; the user's own language wins over it", async () => {
    const project = await projectWith({ 'project.defaultLanguage': 'fr' });
    const french = await verificationEmail(project, await createUser(project));
    expect(french.subject).toBe('Vérifiez votre adresse e-mail pour Test project');
    expect(french.html).toContain('lang="fr"');
    const japanese = await verificationEmail(project, await createUser(project, 'ja'));
    expect(japanese.subject).toBe('Test project のメールアドレスを確認してください');
  });

  it('lets the user set its language (PATCH /users/me), refuses one Gatehouse lacks, and keeps error messages English', async () => {
    const project = await projectWith();
    const user = await createUser(project);
    const { signIn, users } = env.context.services;
    const tokens = await signIn.signIn(project.project, await users.get(project.project.id, user.id));
    const headers = { ...project.headers.client, 'x-stack-access-token': tokens.access_token };
    const me = (payload: Record<string, unknown>) => env.context.request({ method: 'PATCH', url: '/api/v1/users/me', headers, payload });

    const arabic = await me({ language: 'ar' });
    expect(arabic.status).toBe(200);
    expect(arabic.body.language).toBe('ar');
    const message = await verificationEmail(project, user);
    expect(message.subject).toBe('أكّد بريدك الإلكتروني لدى Test project');
    expect(message.html).toContain('dir="rtl"');

    expectError(await me({ language: 'nl' }), 400, 'SCHEMA_ERROR');
    expectError(await me({ language: 'DE' }), 400, 'SCHEMA_ERROR');
    // The server's own words stay Stack's English whatever the user's language (Stack's SDKs compare them).
    await env.context.request({
      method: 'PATCH',
      url: `/api/v1/users/${user.id}`,
      headers: project.headers.server,
      payload: { primary_email_verified: true },
    });
    const refused = await env.context.request({
      method: 'POST',
      url: `/api/v1/contact-channels/${user.id}/${user.channelId}/send-verification-code`,
      headers: project.headers.server,
      payload: { callback_url: callback },
    });
    expectError(refused, 409, 'EMAIL_ALREADY_VERIFIED');
    expect(refused.body.error).toBe(EmailAlreadyVerifiedError.defaultMessage);

    const cleared = await me({ language: null });
    expect(cleared.body.language).toBeNull();
  });

  it('has a different subject and body in each of the 9 languages, each its catalogue words', async () => {
    const project = await projectWith();
    const { emailContent } = env.context.services;
    const rendered = await Promise.all(
      supportedLanguages.map(async (language) => {
        const { rendered } = await emailContent.renderSystemEmail(
          project.project,
          'email_verification',
          { emailVerificationLink: callback },
          { display_name: 'Ada', primary_email: 'ada@example.com' },
          language,
        );
        return { language, ...rendered };
      }),
    );
    expect(new Set(rendered.map((email) => email.subject)).size).toBe(supportedLanguages.length);
    expect(new Set(rendered.map((email) => email.text)).size).toBe(supportedLanguages.length);
    for (const { language, subject, text } of rendered) {
      const words = emailCatalogues[language];
      expect(subject).toBe(words['emailVerification.subject'].replace('{project}', 'Test project'));
      expect(text).toContain(words['common.greeting'].replace('{name}', 'Ada'));
      expect(text).toContain(words['emailVerification.footnote']);
    }
  });
});
