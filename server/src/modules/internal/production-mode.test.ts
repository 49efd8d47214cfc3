import { describe, expect, it } from 'vitest';
import { withTestContext } from '../../testing/test-context.ts';

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
      'Production mode does not allow localhost callbacks: turn off "allow localhost" at /projects/{id}/domains.',
    ],
    ['a domain that is not a URL', domain('not a url'), 'Trusted domain not a url is not a valid URL: fix it at /projects/{id}/domains.'],
    [
      'a localhost domain',
      domain('https://localhost:3000'),
      'Trusted domain https://localhost:3000 points to localhost, which production mode does not allow: remove it at /projects/{id}/domains.',
    ],
    [
      'a direct IP',
      domain('https://203.0.113.7'),
      'Trusted domain https://203.0.113.7 is an IP address; production mode needs a domain name: change it at /projects/{id}/domains.',
    ],
    [
      'plain HTTP',
      domain('http://app.example.com'),
      'Trusted domain http://app.example.com must use HTTPS in production mode: change it at /projects/{id}/domains.',
    ],
  ])('is refused with %s, with the exact message and fix link', async (_case, config, message) => {
    const { project, response } = await turnOn(config);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toBe(message.replace('{id}', project.project.id));
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
    expect(change.text).toContain('must use HTTPS in production mode');
    const off = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/projects/current',
      headers: project.headers.admin,
      payload: { is_production_mode: false },
    });
    expect(off.body.is_production_mode).toBe(false);
  });
});
