import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { withTestContext } from '@gatehouse/testing/test-context';
import { marketingCategoryId } from '../notification-preferences/notification-categories.ts';

/**
 * `POST /emails/send-email` against a real SMTP sink: preferences honoured (a user who turned
 * Marketing off is skipped and the outbox says why), the unsubscribe link works signed out, the
 * content kinds (html, template + variables, draft) and the catalogued refusals.
 */
let sink: SmtpSink;
const env = withTestContext();
let project: Awaited<ReturnType<typeof env.context.createProject>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  project = await env.context.createProject({
    // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
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
    'domains.trustedDomains': { app: { baseUrl: 'https://invite.example.com', handlerPath: '/handler' } },
  });
});
afterAll(() => sink?.close());

const send = (payload: object, headers: Record<string, string> = project.headers.server) =>
  env.context.request({ method: 'POST', url: '/api/v1/emails/send-email', headers, payload });
const newUser = async (name: string) =>
  env.context.services.users.create(
    project.project,
    { primary_email: `${name}-${randomUUID().slice(0, 8)}@example.com`, display_name: name },
    'server',
  );
const marketing = `import { Text } from '@react-email/components';
export const subject = ({ user }) => 'News for ' + user.display_name;
export const notificationCategory = 'Marketing';
export const variablesSchema = { type: 'object', required: ['offer'], properties: { offer: { type: 'string' } } };
export function EmailTemplate({ user, variables }) { return <Text>Hello {user.display_name}, {variables.offer}</Text>; }`;

describe('send-email', () => {
  it('delivers a Marketing email to two users, skips the one who turned Marketing off, and the unsubscribe link works signed out', async () => {
    const [ann, bob, cy] = [await newUser('Ann'), await newUser('Bob'), await newUser('Cy')];
    await env.context.services.notificationPreferences.update(project.project.id, cy.id, marketingCategoryId, false);
    const created = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/email-templates',
      headers: project.headers.admin,
      payload: { display_name: 'News', tsx_source: marketing },
    });
    expect(created.status).toBe(200);

    const response = await send({ user_ids: [ann.id, bob.id, cy.id], template_id: created.body.id, variables: { offer: '20% off' } });
    expect(response.status).toBe(200);
    expect(response.body.results.map((result: { user_id: string }) => result.user_id).sort()).toEqual([ann.id, bob.id, cy.id].sort());

    const toAnn = await sink.waitFor((message) => message.to.includes(ann.primary_email!));
    expect(toAnn.subject).toBe('News for Ann');
    expect(toAnn.text).toContain('Hello Ann, 20% off');
    await sink.waitFor((message) => message.to.includes(bob.primary_email!));
    expect(sink.messages.some((message) => message.to.includes(cy.primary_email!))).toBe(false);

    const statusOf = async (to: string | null) =>
      (await env.context.services.email.listOutbox(project.project.id, 50)).find((row) => row.to_address === to);
    await expect.poll(async () => (await statusOf(ann.primary_email))?.status).toBe('sent');
    await expect.poll(async () => (await statusOf(bob.primary_email))?.status).toBe('sent');
    expect(await statusOf(ann.primary_email)).toMatchObject({ subject: 'News for Ann', attempts: 1, error: null });
    expect(await statusOf(cy.primary_email)).toMatchObject({
      status: 'skipped',
      skipped_reason: 'The user turned Marketing emails off.',
      sent_at: null,
    });

    // The unsubscribe link, followed with no headers at all.
    const link = toAnn.html.match(/href="([^"]*unsubscribe-link\?code=[^"]+)"/)?.[1]?.replaceAll('&amp;', '&');
    expect(link).toBeDefined();
    const url = new URL(link as string);
    const unsubscribed = await env.context.request({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(unsubscribed.status).toBe(200);
    expect(unsubscribed.text).toContain('You will no longer receive marketing emails');
    expect(await env.context.services.notificationPreferences.isEnabled(project.project.id, ann.id, marketingCategoryId)).toBe(false);

    // Ann is now skipped too.
    await send({ user_ids: [ann.id], template_id: created.body.id, variables: { offer: 'again' } });
    const later = await env.context.services.email.listOutbox(project.project.id, 5);
    expect(later.find((row) => row.to_address === ann.primary_email)?.skipped_reason).toBe('The user turned Marketing emails off.');
  });

  it('sends html inside the selected theme with no unsubscribe link when transactional, and sends to all users', async () => {
    const own = await env.context.createProject({
      // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
      'domains.allowLocalhost': true,
      'emails.server': {
        isShared: false,
        host: '127.0.0.1',
        port: sink.port,
        username: 'u',
        password: 'p',
        senderName: 'Own',
        senderEmail: 'own@acme.test',
      },
    });
    const emails = [];
    for (let index = 0; index < 5; index++) {
      const user = await env.context.services.users.create(
        own.project,
        { primary_email: `all-${index}-${randomUUID().slice(0, 6)}@example.com` },
        'server',
      );
      emails.push(user.primary_email as string);
    }
    const response = await send({ all_users: true, html: '<p>Maintenance <b>tonight</b></p>', subject: 'Maintenance' }, own.headers.server);
    expect(response.status).toBe(200);
    expect(response.body.results).toHaveLength(5);
    for (const to of emails) {
      const message = await sink.waitFor((candidate) => candidate.to.includes(to));
      expect(message.subject).toBe('Maintenance');
      expect(message.html).toContain('<p>Maintenance <b>tonight</b></p>');
      expect(message.html).toContain('#f4f4f5');
      expect(message.html).not.toContain('unsubscribe-link');
    }
  });

  it('sends a draft and marks it sent', async () => {
    const user = await newUser('Dee');
    const draft = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/email-drafts',
      headers: project.headers.admin,
      payload: {
        display_name: 'Draft subject',
        theme_id: false,
        tsx_source: 'export function EmailTemplate({ user }) { return <p>Draft for {user.display_name}</p>; }',
      },
    });
    const response = await send({ user_ids: [user.id], draft_id: draft.body.id }, project.headers.admin);
    expect(response.status).toBe(200);
    const message = await sink.waitFor((candidate) => candidate.to.includes(user.primary_email!));
    expect(message.subject).toBe('Draft subject');
    expect(message.html).toContain('<p>Draft for Dee</p>');
    const read = await env.context.request({
      method: 'GET',
      url: `/api/v1/internal/email-drafts/${draft.body.id}`,
      headers: project.headers.admin,
    });
    expect(read.body.sent_at_millis).toEqual(expect.any(Number));
  });

  it('refuses bad requests with their catalogued errors and sends nothing', async () => {
    const user = await newUser('Eve');
    const before = sink.messages.length;
    expectError(await send({ html: '<p>x</p>', subject: 's' }), 400, 'SCHEMA_ERROR');
    expectError(await send({ user_ids: [user.id], all_users: true, html: '<p>x</p>', subject: 's' }), 400, 'SCHEMA_ERROR');
    expectError(await send({ user_ids: [user.id], html: '<p>x</p>' }), 400, 'SCHEMA_ERROR');
    expectError(await send({ user_ids: [user.id] }), 400, 'SCHEMA_ERROR');
    const unknown = randomUUID();
    expectError(await send({ user_ids: [user.id, unknown], html: '<p>x</p>', subject: 's' }), 400, 'USER_ID_DOES_NOT_EXIST', {
      user_id: unknown,
    });
    const template = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/email-templates',
      headers: project.headers.admin,
      payload: { display_name: 'Needs offer', tsx_source: marketing },
    });
    expectError(await send({ user_ids: [user.id], template_id: template.body.id, variables: { offer: 5 } }), 400, 'SCHEMA_ERROR');
    const draft = await env.context.request({
      method: 'POST',
      url: '/api/v1/internal/email-drafts',
      headers: project.headers.admin,
      payload: { display_name: 'Broken', tsx_source: 'export function EmailTemplate() { throw new Error("draft broke"); }' },
    });
    expectError(await send({ user_ids: [user.id], draft_id: draft.body.id }), 400, 'EMAIL_RENDERING_ERROR', {
      error: 'Error: draft broke',
    });
    expectPlain(await send({ user_ids: [user.id], template_id: randomUUID() }), 404);

    const shared = await env.context.createProject();
    expectError(
      await send({ all_users: true, html: '<p>x</p>', subject: 's' }, shared.headers.server),
      400,
      'REQUIRES_CUSTOM_EMAIL_SERVER',
    );
    expectError(await send({ all_users: true, html: '<p>x</p>', subject: 's' }, project.headers.client), 401, 'INSUFFICIENT_ACCESS_TYPE');
    expect(sink.messages.length).toBe(before);
  });

  it('refuses an unsubscribe code it did not sign', async () => {
    const forged = `${Buffer.from(JSON.stringify([project.project.id, randomUUID(), marketingCategoryId])).toString('base64url')}.AAAA`;
    expectError(
      await env.context.request({ method: 'GET', url: `/api/v1/emails/unsubscribe-link?code=${forged}` }),
      404,
      'VERIFICATION_CODE_NOT_FOUND',
    );
    expectError(
      await env.context.request({ method: 'GET', url: '/api/v1/emails/unsubscribe-link?code=nope' }),
      404,
      'VERIFICATION_CODE_NOT_FOUND',
    );
    expectError(await env.context.request({ method: 'GET', url: '/api/v1/emails/unsubscribe-link' }), 400, 'SCHEMA_ERROR');
  });
});

describe('send-sign-in-invitation', () => {
  const invite = (payload: object, headers: Record<string, string> = project.headers.server) =>
    env.context.request({ method: 'POST', url: '/api/v1/internal/send-sign-in-invitation', headers, payload });

  it('emails the invitation through the project template, linking to the callback URL', async () => {
    const to = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    const response = await invite({ email: to, callback_url: 'https://invite.example.com/handler/sign-up' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    const message = await sink.waitFor((candidate) => candidate.to.includes(to));
    expect(message.html).toContain('https://invite.example.com/handler/sign-up');
  });

  it('refuses an untrusted callback URL and sends nothing', async () => {
    const to = `untrusted-${randomUUID().slice(0, 8)}@example.com`;
    const response = await invite({ email: to, callback_url: 'https://evil.example.net/phish' });
    expectError(response, 400, 'REDIRECT_URL_NOT_WHITELISTED');
    const outbox = await env.context.request({ method: 'GET', url: '/api/v1/emails/outbox', headers: project.headers.server });
    expect(JSON.stringify(outbox.body)).not.toContain(to);
  });
});
