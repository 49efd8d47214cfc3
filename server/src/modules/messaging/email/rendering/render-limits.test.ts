import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * What a source renders is limited, and finished on the render thread (issue #30, finding 6):
 * 100 000 nested `<div>`s answered 500 (html-to-text overflowed the stack on the event loop) and a
 * million links took seconds of the event loop. Each operation that renders an owner's source
 * answers EMAIL_RENDERED_OUTPUT_TOO_LARGE for such output.
 */
const env = withTestContext();
let sink: SmtpSink;
let project: TestProject;

beforeAll(async () => {
  sink = await startSmtpSink();
  project = await env.context.createProject({
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
});
afterAll(() => sink?.close());

const rawHtml = (expression: string) => `<div dangerouslySetInnerHTML={{ __html: ${expression} }} />`;
const templateOf = (expression: string) => `export function EmailTemplate() { return ${rawHtml(expression)}; }`;
const themeOf = (expression: string) => `export function EmailTheme({ children }) { return <div>{children}${rawHtml(expression)}</div>; }`;
const nestedDivs = "'<div>'.repeat(100000) + 'x' + '</div>'.repeat(100000)";
// 1.2 MB; a million links is stopped inside the sandbox already (its time or memory limit).
const manyLinks = `'<a href="https://example.com/">link</a>'.repeat(30000)`;
const deeplyNested = "'<i>'.repeat(20000) + 'x' + '</i>'.repeat(20000)";

const request = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  env.context.request({ method, url, headers: project.headers.admin, payload });
const renderEmail = (template_tsx_source: string) =>
  request('POST', '/api/v1/emails/render-email', { template_tsx_source, theme_id: false });

function expectTooLarge(response: Awaited<ReturnType<typeof request>>, message: RegExp) {
  expectError(response, 400, 'EMAIL_RENDERED_OUTPUT_TOO_LARGE');
  expect(response.body.details.error).toMatch(message);
  expect(response.body.error).toBe(response.body.details.error);
}

// The default limit, 1 MiB.
const overLength = /more than the limit of 1048576/;

describe('the output limits of a render', () => {
  it('answers 100 000 nested <div>s and 30 000 links with EMAIL_RENDERED_OUTPUT_TOO_LARGE (a 500, and the event loop turning links into text)', async () => {
    expectTooLarge(await renderEmail(templateOf(nestedDivs)), overLength);
    expectTooLarge(await renderEmail(templateOf(manyLinks)), overLength);
  });

  it('answers HTML nested too deeply for the plain-text part with EMAIL_RENDERED_OUTPUT_TOO_LARGE, and renders what is within the limits', async () => {
    expectTooLarge(await renderEmail(templateOf(deeplyNested)), /more than 1000 levels deep/);
    const within = await renderEmail(templateOf(`'<p><a href="https://example.com/">link</a></p>'.repeat(1000)`));
    expect(within.status).toBe(200);
    expect(within.body.html.split('link</a>')).toHaveLength(1001);
  });

  it('refuses such output from every operation that renders an owner source', async () => {
    expectTooLarge(
      await request('POST', '/api/v1/internal/email-themes', { display_name: 'T', tsx_source: themeOf(manyLinks) }),
      overLength,
    );
    const theme = await request('POST', '/api/v1/internal/email-themes', { display_name: 'T' });
    expectTooLarge(
      await request('PATCH', `/api/v1/internal/email-themes/${theme.body.id}`, { tsx_source: themeOf(deeplyNested) }),
      /levels deep/,
    );
    expectTooLarge(
      await request('POST', '/api/v1/internal/email-templates', { display_name: 'T', tsx_source: templateOf(nestedDivs) }),
      overLength,
    );
    const template = await request('POST', '/api/v1/internal/email-templates', { display_name: 'T' });
    expectTooLarge(
      await request('PATCH', `/api/v1/internal/email-templates/${template.body.id}`, { tsx_source: templateOf(manyLinks) }),
      overLength,
    );
    const user = await env.context.services.users.create(
      project.project,
      { primary_email: `big-${randomUUID().slice(0, 8)}@example.com`, display_name: 'Big' },
      'server',
    );
    // A draft is rendered only when it is sent.
    const draft = await request('POST', '/api/v1/internal/email-drafts', { display_name: 'D', tsx_source: templateOf(nestedDivs) });
    expect(draft.status).toBe(200);
    const sent = await env.context.request({
      method: 'POST',
      url: '/api/v1/emails/send-email',
      headers: project.headers.server,
      payload: { user_ids: [user.id], draft_id: draft.body.id },
    });
    expectTooLarge(sent, overLength);
  });
});
