import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithin, freePort, freshDatabase, type ServerProcess, startServerProcess } from '@gatehouse/testing/server-process';

/**
 * The main-thread-blocking suite (issue #30): against a real server process, each hostile input
 * (a backtracking pattern in a template's schema, a schema `$id` used twice, renders of huge or deep
 * or looping output, large and deep JSON bodies) is sent while `/health` is asked every 10 ms. Every
 * `/health` answers within 100 ms, and each hostile request gets its catalogued answer, never a 500.
 */
let server: ServerProcess;
const closers: Array<() => Promise<void> | void> = [];
let headers: { admin: Record<string, string>; server: Record<string, string> };
let userId: string;

beforeAll(async () => {
  const database = await freshDatabase();
  closers.push(database.drop);
  // No delivery (EMAIL_POLL_INTERVAL_MS=0): the sends only queue rows.
  server = await startServerProcess({ DATABASE_URL: database.url, EMAIL_POLL_INTERVAL_MS: '0' });
  closers.push(() => server.cleanup());
  const demo = server.demo();
  const base = { 'content-type': 'application/json', 'x-stack-project-id': demo.id };
  headers = {
    admin: { ...base, 'x-stack-access-type': 'admin', 'x-stack-super-secret-admin-key': demo.keys.super_secret_admin_key },
    server: { ...base, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': demo.keys.secret_server_key },
  };
  const emailServer = {
    isShared: false,
    host: '127.0.0.1',
    port: await freePort(),
    username: 'u',
    password: 'p',
    senderName: 'T',
    senderEmail: 't@example.test',
  };
  const configured = await call('PATCH', '/api/v1/internal/config/override/project', headers.admin, {
    config_override_string: JSON.stringify({ 'emails.server': emailServer }),
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  const user = await call('POST', '/api/v1/users', headers.server, { primary_email: `m-${randomUUID().slice(0, 8)}@example.com` });
  userId = user.body.id as string;
  // Warm: the renderer's threads and runtime, and the routes' validators (compiled at their first
  // request), are loaded before any /health is timed.
  expect((await renderEmail(template('return <p>warm</p>;'))).status).toBe(200);
  const warm = await createTemplate(template('return <p>warm</p>;'));
  expect((await sendTemplate(warm.body.id as string, {})).status).toBe(200);
  // And the client's connections: the poller and a request side by side (a new connection is not the server's time).
  await Promise.all([0, 1, 2].map(() => fetchWithin(`${server.baseUrl}/api/v1/health`).then((response) => response.arrayBuffer())));
}, 180_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

type Answer = { status: number; body: { code?: string; id?: string; details?: { error?: string } } & Record<string, unknown> };

async function call(method: string, path: string, requestHeaders: Record<string, string>, body: unknown): Promise<Answer> {
  const response = await fetchWithin(`${server.baseUrl}${path}`, {
    method,
    headers: requestHeaders,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : { text } };
}

/** Runs `work` while `/health` is asked every 10 ms; the slowest answer's time. */
async function withHealthPolled<T>(work: () => Promise<T>): Promise<{ result: T; slowestMs: number; polls: number }> {
  let done = false;
  let slowestMs = 0;
  let polls = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetchWithin(`${server.baseUrl}/api/v1/health`, {}, 10_000);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      polls++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    return { result: await work(), slowestMs, polls };
  } finally {
    done = true;
    await poller;
  }
}

const template = (body: string, schema?: string) =>
  `${schema ? `export const variablesSchema = ${schema};\n` : ''}export function EmailTemplate({ variables }) { ${body} }`;
const rawHtml = (expression: string) => template(`return <div dangerouslySetInnerHTML={{ __html: ${expression} }} />;`);
const createTemplate = (tsx_source: string) =>
  call('POST', '/api/v1/internal/email-templates', headers.admin, { display_name: `M ${randomUUID().slice(0, 6)}`, tsx_source });
const sendTemplate = (template_id: string, variables: object) =>
  call('POST', '/api/v1/emails/send-email', headers.server, { user_ids: [userId], template_id, variables });
const renderEmail = (template_tsx_source: string) =>
  call('POST', '/api/v1/emails/render-email', headers.admin, { template_tsx_source, theme_id: false });
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

const hostile: Array<[string, () => Promise<Answer[]>, Array<[number, string | string[] | undefined]>]> = [
  [
    'a backtracking pattern in variablesSchema, ^(a|a)*$ against 30 a and a b',
    async () => {
      const created = await createTemplate(
        template('return <p>{variables.name}</p>;', "{ type: 'object', properties: { name: { type: 'string', pattern: '^(a|a)*$' } } }"),
      );
      return [created, await sendTemplate(created.body.id as string, { name: `${'a'.repeat(30)}b` })];
    },
    [
      [200, undefined],
      [400, 'SCHEMA_ERROR'],
    ],
  ],
  [
    'a schema $id used by two templates, sent twice each',
    async () => {
      const schema = "{ $id: 'https://schemas.example.com/main-thread', type: 'object' }";
      const [one, two] = [
        await createTemplate(template('return <p>1</p>;', schema)),
        await createTemplate(template('return <p>2</p>;', schema)),
      ];
      const ids = [one.body.id as string, two.body.id as string];
      return [
        one,
        two,
        await sendTemplate(ids[0] as string, {}),
        await sendTemplate(ids[1] as string, {}),
        await sendTemplate(ids[0] as string, {}),
      ];
    },
    [
      [200, undefined],
      [200, undefined],
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ],
  ],
  [
    '100 000 nested <div>s',
    async () => [await renderEmail(rawHtml("'<div>'.repeat(100000) + '</div>'.repeat(100000)"))],
    [[400, 'EMAIL_RENDERED_OUTPUT_TOO_LARGE']],
  ],
  [
    '20 000 nested <i>s (under the length limit)',
    async () => [await renderEmail(rawHtml("'<i>'.repeat(20000) + '</i>'.repeat(20000)"))],
    [[400, 'EMAIL_RENDERED_OUTPUT_TOO_LARGE']],
  ],
  [
    'a million links',
    async () => [await renderEmail(rawHtml("'<a href=#>x</a>'.repeat(1000000)"))],
    // Stopped by the sandbox's time or memory limit (or refused as too large).
    [[400, ['EMAIL_RENDERING_ERROR', 'EMAIL_RENDERED_OUTPUT_TOO_LARGE']]],
  ],
  ['a looping template', async () => [await renderEmail(template('for (;;) {}'))], [[400, 'EMAIL_RENDERING_ERROR']]],
  [
    'a 128 KB template source',
    async () => [await createTemplate(`// ${'x'.repeat(128_000)}\n${template('return null;')}`)],
    // Accepted (a long comment compiles away); what is timed is the server's handling of the body.
    [[200, undefined]],
  ],
  [
    'JSON nested 10 000 levels deep, to a template and to the config',
    async () => [
      await call('POST', '/api/v1/internal/email-templates', headers.admin, `{"display_name":${nested(10_000)}}`),
      await call('PATCH', '/api/v1/internal/config/override/project', headers.admin, {
        config_override_string: `{"emails.templates":${nested(10_000)}}`,
      }),
    ],
    [
      [400, 'SCHEMA_ERROR'],
      // The config's own answer: a plain-text 400 (the protocol's), no longer a 500.
      [400, undefined],
    ],
  ],
];

describe('the event loop under hostile input', () => {
  for (const [name, send, expected] of hostile) {
    // Retried: on a 2-core machine running the whole suite, the OS may hold a poll past 100 ms once;
    // input that blocks the event loop blocks it on every try (seconds, on the old code).
    it(`answers /health within 100 ms while processing ${name}`, { timeout: 120_000, retry: 2 }, async () => {
      const { result, slowestMs, polls } = await withHealthPolled(send);
      expect(result.map((answer) => answer.status)).toEqual(expected.map(([status]) => status));
      for (const [index, [status, code]] of expected.entries()) {
        const answer = result[index] as Answer;
        if (status >= 400 && code) expect([code].flat(), JSON.stringify(answer.body).slice(0, 300)).toContain(answer.body.code);
      }
      expect(polls).toBeGreaterThan(0);
      expect(slowestMs).toBeLessThan(100);
    });
  }
});
