import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';

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
    expectError(response, 400, 'PROJECT_CHANGE_REFUSED', { reason: 'production_mode_domains' });
    expect(response.body.error).toBe(`${message}\nFix it at /projects/${project.project.id}/domains`);
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
    expectError(change, 400, 'PROJECT_CHANGE_REFUSED', { reason: 'production_mode_domains' });
    expect(change.body.error).toBe(
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

  it('keeps checking the domains on every config override write while on', async () => {
    const { project, response } = await turnOn(domain('https://app.example.com'));
    expect(response.status).toBe(200);
    const refused = { reason: 'production_mode_domains' };
    const url = '/api/v1/internal/config/override/environment';
    const localhost = JSON.stringify({ 'domains.allowLocalhost': true });
    const merged = await env.context.request({
      method: 'PATCH',
      url,
      headers: project.headers.admin,
      payload: { config_override_string: localhost },
    });
    expectError(merged, 400, 'PROJECT_CHANGE_REFUSED', refused);
    expect(merged.body.error).toMatch(/^Localhost is not allowed in production mode.*\nFix it at \/projects\/.+\/domains$/s);
    const replaced = await env.context.request({
      method: 'PUT',
      url,
      headers: project.headers.admin,
      payload: { config_string: localhost },
    });
    expectError(replaced, 400, 'PROJECT_CHANGE_REFUSED', refused);
    expect((await env.context.services.projects.find(project.project.id))?.config.domains.allowLocalhost).toBe(false);

    // A project whose stored config no longer passes (written past the API): removing keys still validates the whole.
    await env.context.services.projects.update(project.project.id, {
      configOverride: { 'domains.allowLocalhost': true, 'auth.password.allowSignIn': true },
    });
    const reset = await env.context.request({
      method: 'POST',
      url: `${url}/reset-keys`,
      headers: project.headers.admin,
      payload: { keys: ['auth.password.allowSignIn'] },
    });
    expectError(reset, 400, 'PROJECT_CHANGE_REFUSED', refused);
  });
});
