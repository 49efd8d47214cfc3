import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * A template's `variablesSchema` is the owner's code too (issue #30, findings 4 and 5): its patterns
 * must not stall the event loop (`^(a|a)*$` backtracked for seconds per send), and one project's
 * schema must not break another's sends (a shared Ajv kept every `$id`: the next send of any project
 * naming it answered 500). An invalid schema is refused when the template is saved.
 */
const env = withTestContext();
let sink: SmtpSink;
let first: TestProject;
let second: TestProject;

const customServer = () => ({
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
const withSchema = (schema: string) =>
  `export const variablesSchema = ${schema};\nexport function EmailTemplate({ variables }) { return <p>Hi {String(variables.name)}</p>; }`;

beforeAll(async () => {
  sink = await startSmtpSink();
  first = await env.context.createProject(customServer());
  second = await env.context.createProject(customServer());
});
afterAll(() => sink?.close());

async function createTemplate(project: TestProject, tsx_source: string) {
  return env.context.request({
    method: 'POST',
    url: '/api/v1/internal/email-templates',
    headers: project.headers.admin,
    payload: { display_name: `T ${randomUUID().slice(0, 6)}`, tsx_source },
  });
}

async function newUserId(project: TestProject): Promise<string> {
  const email = `v-${randomUUID().slice(0, 8)}@example.com`;
  return (await env.context.services.users.create(project.project, { primary_email: email, display_name: 'V' }, 'server')).id;
}

async function sendTemplate(project: TestProject, template_id: string, variables: Record<string, unknown>, userId?: string) {
  const user = { id: userId ?? (await newUserId(project)) };
  return env.context.request({
    method: 'POST',
    url: '/api/v1/emails/send-email',
    headers: project.headers.server,
    payload: { user_ids: [user.id], template_id, variables },
  });
}

/** The longest gap between ticks of a 5 ms timer while `work` runs: how long the event loop stalled. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    return { result: await work(), stallMs };
  } finally {
    clearInterval(timer);
  }
}

describe("a template's variablesSchema", () => {
  it('runs patterns in linear time: ^(a|a)*$ against 28 a and a b answers SCHEMA_ERROR without stalling the event loop', async () => {
    const created = await createTemplate(
      first,
      withSchema("{ type: 'object', properties: { name: { type: 'string', pattern: '^(a|a)*$' } } }"),
    );
    expect(created.status).toBe(200);
    const userId = await newUserId(first);
    const { result, stallMs } = await longestStall(() => sendTemplate(first, created.body.id, { name: `${'a'.repeat(28)}b` }, userId));
    expectError(result, 400, 'SCHEMA_ERROR');
    expect(result.body.details.message).toContain('variables do not match the template: variables/name must match pattern');
    // The backtracking engine took 2^28 steps here, on the event loop: 4 to 20 s (doubling per character).
    expect(stallMs).toBeLessThan(1_000);
    expect((await sendTemplate(first, created.body.id, { name: 'aaaa' })).status).toBe(200);
  });

  it('keeps each schema to itself: the same $id in two templates of two projects sends every time, and a $ref to it resolves nowhere else', async () => {
    const shared = withSchema(
      "{ $id: 'https://schemas.example.com/greeting', type: 'object', required: ['name'], properties: { name: { type: 'string' } } }",
    );
    const [one, two] = [await createTemplate(first, shared), await createTemplate(second, shared)];
    expect([one.status, two.status]).toEqual([200, 200]);
    for (const [project, template] of [
      [first, one],
      [first, one],
      [second, two],
    ] as const) {
      const sent = await sendTemplate(project, template.body.id, { name: 'Ann' });
      expect(sent.status, sent.text).toBe(200);
    }
    expectError(await sendTemplate(second, two.body.id, { name: 7 }), 400, 'SCHEMA_ERROR');
    // Another project's $id is not a schema this one can reach.
    const borrowing = await createTemplate(second, withSchema("{ $ref: 'https://schemas.example.com/greeting' }"));
    expectError(borrowing, 400, 'EMAIL_RENDERING_ERROR');
    expect(borrowing.body.details.error).toMatch(/not a valid JSON Schema: can't resolve reference/);
  });

  it('refuses an invalid schema when the template is saved, and answers a catalogued 400 for one that came in through the config', async () => {
    for (const schema of [
      "{ type: 'nope' }",
      "{ type: 'string', pattern: '(?=a)' }",
      "{ $async: true, type: 'object' }",
      "{ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }",
    ]) {
      const created = await createTemplate(first, withSchema(schema));
      expectError(created, 400, 'EMAIL_RENDERING_ERROR');
      expect(created.body.details.error).toContain("The template's variablesSchema is not a valid JSON Schema");
    }
    // The config override takes template sources as they are: the send refuses the schema (was a 500).
    const id = randomUUID();
    const configured = await env.context.createProject({
      ...customServer(),
      'emails.templates': { [id]: { displayName: 'Broken', tsxSource: withSchema("{ type: 'nope' }") } },
    });
    const sent = await sendTemplate(configured, id, { name: 'Ann' });
    expectError(sent, 400, 'EMAIL_RENDERING_ERROR');
    expect(sent.body.details.error).toContain('not a valid JSON Schema');
  });
});
