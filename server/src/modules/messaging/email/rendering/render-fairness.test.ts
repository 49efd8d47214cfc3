import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * The render threads are shared by every project (issue #30, finding 7): one project's renders wait
 * in a queue of their own, served in turn with the others', so a flood of looping renders (each
 * stopped at the 1 s limit) delays another project's preview by about one render, not by the flood
 * (16 loops on 2 threads held it for 8 s when all waited in one line).
 */
const env = withTestContext();

const render = (project: TestProject, template_tsx_source: string) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/emails/render-email',
    headers: project.headers.admin,
    payload: { template_tsx_source, theme_id: false },
  });

describe('the render threads', () => {
  it("serve another project's preview in turn while one project floods them with looping renders", async () => {
    const [flooder, other] = [await env.context.createProject(), await env.context.createProject()];
    // Warm: the threads are up and the runtime loaded before the clock starts.
    expect((await render(other, 'export function EmailTemplate() { return <p>warm</p>; }')).status).toBe(200);
    const loops = Array.from({ length: 16 }, (_, index) => render(flooder, `export function EmailTemplate() { for (;;) {} } // ${index}`));
    // The flood is queued first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const preview = await render(other, 'export function EmailTemplate({ project }) { return <p>Hello {project.display_name}</p>; }');
    const waited = performance.now() - started;
    expect(preview.status).toBe(200);
    expect(preview.body.html).toContain('Hello Test project');
    // About one looping render (1 s, more on a loaded machine) and its own; the shared line took 16 / 2 × 1 s at least.
    expect(waited).toBeLessThan(6_000);
    for (const loop of await Promise.all(loops)) expectError(loop, 400, 'EMAIL_RENDERING_ERROR');
  });
});
