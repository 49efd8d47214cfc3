import { describe, expect, it } from 'vitest';
import openapi from '../../../generated/openapi.json' with { type: 'json' };
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { supportedLanguages } from '../../../tenancy/project-language.ts';

/** The project's default language (`project.defaultLanguage`, Gatehouse's own): validated when saved, shown to clients. */
const env = withTestContext();

const patch = (project: TestProject, entries: Record<string, unknown>) =>
  env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/config/override/project',
    headers: project.headers.admin,
    payload: { config_override_string: JSON.stringify(entries) },
  });
const put = (project: TestProject, override: Record<string, unknown>) =>
  env.context.request({
    method: 'PUT',
    url: '/api/v1/internal/config/override/project',
    headers: project.headers.admin,
    payload: { config_string: JSON.stringify(override) },
  });
const clientView = (project: TestProject) =>
  env.context.request({ method: 'GET', url: '/api/v1/projects/current', headers: project.headers.client });

describe("the project's default language", () => {
  it('is absent by default: the client view has no default_language', async () => {
    const project = await env.context.createProject();
    const answer = await clientView(project);
    expect(answer.status).toBe(200);
    expect(answer.body.config).not.toHaveProperty('default_language');
  });

  it('is saved by PATCH and PUT and shown to clients as config.default_language', async () => {
    const project = await env.context.createProject();
    expect((await patch(project, { 'project.defaultLanguage': 'pt-BR' })).status).toBe(200);
    expect((await clientView(project)).body.config.default_language).toBe('pt-BR');
    const rendered = await put(project, { project: { defaultLanguage: 'ar' } });
    expect(rendered.status).toBe(200);
    expect(JSON.parse(rendered.body.config_string).project.defaultLanguage).toBe('ar');
    expect((await clientView(project)).body.config.default_language).toBe('ar');
  });

  it.each([
    ['a language Gatehouse does not ship', 'nl'],
    ['a tag in another case', 'PT-br'],
    ['a tag with a region the UI lacks', 'de-AT'],
    ['an empty string', ''],
    ['null', null],
    ['a number', 42],
    ['an object', { tag: 'de' }],
  ])('refuses %s with LANGUAGE_NOT_SUPPORTED (PATCH and PUT); nothing is saved', async (_what, value) => {
    const project = await env.context.createProject();
    expect((await patch(project, { 'project.defaultLanguage': 'de' })).status).toBe(200);
    const patched = await patch(project, { 'project.defaultLanguage': value });
    expectError(patched, 400, 'LANGUAGE_NOT_SUPPORTED');
    expect(patched.body.details).toEqual({ path: 'project.defaultLanguage', supported: [...supportedLanguages] });
    const replaced = await put(project, { 'project.defaultLanguage': value });
    expectError(replaced, 400, 'LANGUAGE_NOT_SUPPORTED');
    expect((await clientView(project)).body.config.default_language).toBe('de');
  });

  it("accepts exactly the spec's Language tags (react/src/i18n/languages.test.ts checks the UI's against them)", () => {
    const spec = openapi.components.schemas.Language as { enum: string[] };
    expect([...supportedLanguages]).toEqual(spec.enum);
  });
});
