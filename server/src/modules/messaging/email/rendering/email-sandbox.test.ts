import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import { EmailRenderer } from './email-renderer.ts';

/**
 * Owners' TSX sources are untrusted: each hostile one below answers EMAIL_RENDERING_ERROR within the
 * time limit (1 s; 4 s for the hard stop of a native operation, plus a margin for a loaded machine), and the server goes on answering other requests.
 */
const env = withTestContext();
const render = (template_tsx_source: string) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/emails/render-email',
    headers: env.project.headers.admin,
    payload: { template_tsx_source, theme_id: false },
  });
const healthy = `export function EmailTemplate({ project }) { return <p>Hello from {project.display_name}</p>; }`;

const hostile: [string, string, RegExp][] = [
  ['an endless loop', 'export function EmailTemplate() { while (true) {} }', /longer than 1000 ms/],
  ['an endless loop at import time', 'for (;;) {}\nexport function EmailTemplate() { return null; }', /longer than 1000 ms/],
  ['a memory bomb', "export function EmailTemplate() { return 'x'.repeat(2 ** 28); }", /more than 64 MB/],
  ['a growing array', 'export function EmailTemplate() { const a = []; for (;;) a.push(new Array(1e5).fill(a.length)); }', /64 MB|1000 ms/],
  ['endless recursion', 'const f = (n) => f(n + 1) + 1; export function EmailTemplate() { return f(0); }', /stack/],
  [
    'reading process',
    'export function EmailTemplate() { return <p>{process.env.DATABASE_URL}</p>; }',
    /ReferenceError: 'process' is not defined/,
  ],
  [
    'calling require',
    "export function EmailTemplate() { return <p>{require('fs').readFileSync('/etc/passwd', 'utf8')}</p>; }",
    /Could not resolve "fs"/,
  ],
  [
    'calling require by a computed name',
    "export function EmailTemplate() { const r = require; return <p>{r('f' + 's').readFileSync('/etc/passwd', 'utf8')}</p>; }",
    /Cannot import fs|require is not defined/,
  ],
  [
    'importing a module',
    "import { readFileSync } from 'node:fs';\nexport function EmailTemplate() { return <p>{readFileSync('/etc/passwd')}</p>; }",
    /Cannot import node:fs|Could not resolve/,
  ],
  [
    'calling fetch',
    "export function EmailTemplate() { fetch('http://127.0.0.1/'); return null; }",
    /ReferenceError: 'fetch' is not defined/,
  ],
  [
    'probing globalThis for host objects',
    'export function EmailTemplate() { const g = globalThis; return <p>{(g.process ?? g.Deno ?? g.Bun ?? g.require ?? g.module).toString()}</p>; }',
    /TypeError/,
  ],
  ['a syntax error', 'export function EmailTemplate() {\n  return <p>unclosed;\n}', /^template\.tsx:\d+:\d+: /],
  ['a throwing component', "export function EmailTemplate() { throw new Error('kaboom'); }", /Error: kaboom/],
  ['no component', 'export const subject = "no body";', /must export its component as EmailTemplate/],
];

describe('the sandbox', () => {
  for (const [name, source, message] of hostile) {
    it(`answers EMAIL_RENDERING_ERROR for ${name}, within the limit`, async () => {
      const started = Date.now();
      const response = await render(source);
      expectError(response, 400, 'EMAIL_RENDERING_ERROR');
      expect(response.body.details.error).toMatch(message);
      expect(response.body.error).toBe(response.body.details.error);
      // The 1 s budget, or the hard stop 3 s after it for a native operation that ignores interrupts.
      expect(Date.now() - started).toBeLessThan(8_000);
      // And the next render works: a failed source leaves nothing behind.
      const next = await render(healthy);
      expect(next.status).toBe(200);
      expect(next.body.html).toContain('Hello from Test project');
    });
  }

  it('answers other requests while a loop runs, and the loop is stopped', async () => {
    const finished: string[] = [];
    const track = <T>(name: string, promise: Promise<T>) => promise.finally(() => finished.push(name));
    const loop = track('loop', render('export function EmailTemplate() { for (;;) {} }'));
    const [looped, project, rendered] = await Promise.all([
      loop,
      track('project', env.context.request({ method: 'GET', url: '/api/v1/projects/current', headers: env.project.headers.client })),
      track('render', render(healthy)),
    ]);
    expectError(looped, 400, 'EMAIL_RENDERING_ERROR');
    expect(project.status).toBe(200);
    expect(rendered.status).toBe(200);
    // Renders run on worker threads: the others did not wait for the loop to be stopped.
    expect(finished.at(-1)).toBe('loop');
  });

  it('keeps no state between renders', async () => {
    const leak = 'globalThis.leaked = "secret"; export function EmailTemplate() { return <p>set</p>; }';
    const read = 'export function EmailTemplate() { return <p>{String(globalThis.leaked)}</p>; }';
    expect((await render(leak)).status).toBe(200);
    expect((await render(read)).body.html).toContain('<p>undefined</p>');
  });
});

describe('EmailRenderer', () => {
  it('compiles a source once (cached by its hash) and renders warm in well under the limit', async () => {
    const renderer = new EmailRenderer();
    const request = { templateSource: healthy, themeSource: null, props: { user: { display_name: null }, project: { display_name: 'P' } } };
    await renderer.render(request);
    const compile = renderer.compile.bind(renderer);
    let compiled = 0;
    renderer.compile = async (...args) => {
      compiled++;
      return compile(...args);
    };
    const started = performance.now();
    const again = await renderer.render(request);
    expect(performance.now() - started).toBeLessThan(500);
    expect(again.text).toBe('Hello from P');
    expect(compiled).toBe(1);
    expect(renderer.cachedBundles).toBe(1);
  });
});
