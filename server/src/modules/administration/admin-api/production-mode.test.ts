import { describe, expect, it } from 'vitest';
import { withTestContext } from '../../../testing/test-context.ts';

/** Each production-mode check with its documented message, and a project that passes them all. */
const env = withTestContext();

const turnOn = async (config: Record<string, unknown>) => {
  const project = await env.context.createProject(config);
  const response = await env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/projects/current',
    headers: project.headers.admin,
    payload: { is_production_mode: true },
  });
  return { project, response };
};
const domain = (baseUrl: string) => ({ 'domains.trustedDomains': { main: { baseUrl, handlerPath: '/handler' } } });

describe('turning production mode on', () => {
  it.each([
    [
      'localhost callbacks allowed',
      { 'domains.allowLocalhost': true },
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
    ],
    ['a domain that is not a URL', domain('not a url'), 'Trusted domain is not a valid URL: not a url'],
    [
      'a localhost domain',
      domain('https://localhost:3000'),
      'Localhost domains are not allowed to be trusted in production mode: https://localhost:3000',
    ],
    [
      'a *.localhost domain',
      domain('https://app.localhost'),
      'Localhost domains are not allowed to be trusted in production mode: https://app.localhost',
    ],
    [
      'a 127.x.x.x domain',
      domain('https://127.8.9.10'),
      'Localhost domains are not allowed to be trusted in production mode: https://127.8.9.10',
    ],
    ['a direct IP', domain('https://203.0.113.7'), 'Direct IPs are not valid for trusted domains in production mode: https://203.0.113.7'],
    ['plain HTTP', domain('http://app.example.com'), 'Trusted domains should be HTTPS: http://app.example.com'],
  ])('is refused with %s, with the exact message and fix link', async (_case, config, message) => {
    const { project, response } = await turnOn(config);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toBe(`${message}\nFix it at /projects/${project.project.id}/domains`);
    expect((await env.context.services.projects.find(project.project.id))?.is_production_mode).toBe(false);
  });

  it('succeeds with HTTPS domains (wildcards allowed), and keeps checking domain changes while on', async () => {
    const { project, response } = await turnOn(domain('https://*.example.com'));
    expect(response.status).toBe(200);
    expect(response.body.is_production_mode).toBe(true);
    const change = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/projects/current',
      headers: project.headers.admin,
      payload: { config: { domains: [{ domain: 'http://insecure.example.com', handler_path: '/handler' }] } },
    });
    expect(change.status).toBe(400);
    expect(change.text).toBe(
      `Trusted domains should be HTTPS: http://insecure.example.com\nFix it at /projects/${project.project.id}/domains`,
    );
    const off = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/projects/current',
      headers: project.headers.admin,
      payload: { is_production_mode: false },
    });
    expect(off.body.is_production_mode).toBe(false);
  });
});
