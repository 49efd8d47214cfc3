import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import { darkThemeId, lightThemeId, systemTemplateIds } from './built-in-emails.ts';

/**
 * Email themes, templates and drafts (`/internal/email-*`) and previews (`/emails/render-email`):
 * the built-in ones, the project's own in its config, the drafts table, every render-email input
 * combination, and the catalogued refusals.
 */
const ownServer = {
  // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
  'domains.allowLocalhost': true,
  'emails.server': {
    isShared: false,
    host: '127.0.0.1',
    port: 2525,
    username: 'acme',
    password: 'secret',
    senderName: 'Acme',
    senderEmail: 'auth@acme.test',
  },
};
const env = withTestContext({ projectConfig: ownServer });

type Headers = Record<string, string>;
const admin = () => env.project.headers.admin;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Headers = admin()) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : method === 'GET' ? {} : { payload: {} }) });

const customTheme = `import { Html, Body } from '@react-email/components';
export function EmailTheme({ children, unsubscribeLink }) {
  return <Html><Body><div id="custom-theme">{children}</div>{unsubscribeLink ? <a href={unsubscribeLink}>Stop</a> : null}</Body></Html>;
}`;
const customTemplate = `import { Text } from '@react-email/components';
export const subject = ({ project }) => 'Custom for ' + project.display_name;
export const notificationCategory = 'Marketing';
export const previewVariables = { name: 'preview name' };
export function EmailTemplate({ user, variables }) {
  return <Text>Custom body for {user.display_name}, {variables.name}</Text>;
}`;

describe('themes', () => {
  it('lists the two built-in themes, creates, reads, changes and deletes a theme', async () => {
    const list = await call('GET', '/internal/email-themes');
    expect(list.status).toBe(200);
    expect(list.body.themes.slice(0, 2)).toEqual([
      { id: lightThemeId, display_name: 'Default Light' },
      { id: darkThemeId, display_name: 'Default Dark' },
    ]);

    const created = await call('POST', '/internal/email-themes', { display_name: 'Brand' });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const read = await call('GET', `/internal/email-themes/${id}`);
    expect(read.body).toEqual({
      display_name: 'Brand',
      tsx_source: (await call('GET', `/internal/email-themes/${lightThemeId}`)).body.tsx_source,
    });

    const patched = await call('PATCH', `/internal/email-themes/${id}`, { tsx_source: customTheme, display_name: 'Brand 2' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ display_name: 'Brand 2' });
    expect((await call('GET', `/internal/email-themes/${id}`)).body).toEqual({ display_name: 'Brand 2', tsx_source: customTheme });
    expect((await call('GET', '/internal/email-themes')).body.themes).toContainEqual({ id, display_name: 'Brand 2' });

    expect((await call('DELETE', `/internal/email-themes/${id}`)).body).toEqual({});
    expectPlain(await call('GET', `/internal/email-themes/${id}`), 404);
    expectPlain(await call('DELETE', `/internal/email-themes/${id}`), 404);
    expectPlain(await call('PATCH', `/internal/email-themes/${id}`, { display_name: 'x' }), 404);
  });

  it('refuses a theme source that does not render, and keeps the old one', async () => {
    const { body } = await call('POST', '/internal/email-themes', { display_name: 'Broken' });
    const response = await call('PATCH', `/internal/email-themes/${body.id}`, { tsx_source: 'export function EmailTheme( {' });
    expectError(response, 400, 'EMAIL_RENDERING_ERROR');
    expect(response.body.details.error).toMatch(/^theme\.tsx:1:\d+: /);
    expect((await call('GET', `/internal/email-themes/${body.id}`)).body.display_name).toBe('Broken');
    expectError(
      await call('POST', '/internal/email-themes', { display_name: 'Bad', tsx_source: 'export const x = 1;' }),
      400,
      'EMAIL_RENDERING_ERROR',
    );
  });

  it('selects the default theme again when the selected theme is deleted, and lets a built-in theme be changed and reset', async () => {
    const { body } = await call('POST', '/internal/email-themes', { display_name: 'Selected' });
    const selected = await call('PATCH', '/internal/config/override/project', {
      config_override_string: JSON.stringify({ 'emails.selectedThemeId': body.id }),
    });
    expect(selected.status, selected.text).toBe(200);
    await call('DELETE', `/internal/email-themes/${body.id}`);
    const config = JSON.parse((await call('GET', '/internal/config')).body.config_string);
    expect(config.emails.selectedThemeId).toBe(lightThemeId);

    const builtIn = (await call('GET', `/internal/email-themes/${darkThemeId}`)).body.tsx_source;
    await call('PATCH', `/internal/email-themes/${darkThemeId}`, { tsx_source: customTheme });
    expect((await call('GET', `/internal/email-themes/${darkThemeId}`)).body.tsx_source).toBe(customTheme);
    await call('DELETE', `/internal/email-themes/${darkThemeId}`);
    expect((await call('GET', `/internal/email-themes/${darkThemeId}`)).body).toEqual({
      display_name: 'Default Dark',
      tsx_source: builtIn,
    });
  });
});

describe('templates', () => {
  it('lists templates whose stored data predates the config checks, instead of answering 500 (issue #30)', async () => {
    const project = await env.context.createProject(ownServer);
    const themed = '0b3b1d9e-6a2c-4d7f-9c7e-1a2b3c4d5e6f';
    // Written past the checks, as an older server could have stored it.
    await env.context.services.projects.update(project.project.id, {
      configOverride: {
        ...ownServer,
        [`emails.templates.${themed}`]: {
          displayName: 'Unknown theme',
          tsxSource: 'export function EmailTemplate() { return null; }',
          themeId: 'nope',
        },
        'emails.templates.5d0f3c1e-0000-4000-8000-000000000001': { displayName: 'No source' },
      },
    });
    const listed = await env.context.request({ url: '/api/v1/internal/email-templates', headers: project.headers.admin });
    expect(listed.status, listed.text).toBe(200);
    const entry = listed.body.templates.find((template: { id: string }) => template.id === themed);
    expect(entry).toMatchObject({ id: themed, display_name: 'Unknown theme' });
    expect(entry.theme_id).toBeUndefined();
    expect(listed.body.templates.some((template: { id: string }) => template.id.startsWith('5d0f3c1e'))).toBe(false);
  });

  it('lists a built-in template for every email the platform sends', async () => {
    const { body } = await call('GET', '/internal/email-templates');
    const ids = body.templates.map((template: { id: string }) => template.id);
    for (const id of Object.values(systemTemplateIds)) expect(ids).toContain(id);
    expect(body.templates.find((template: { id: string }) => template.id === systemTemplateIds.email_verification).display_name).toBe(
      'Email Verification',
    );
  });

  it('creates, changes (answering the preview) and deletes a template', async () => {
    const created = await call('POST', '/internal/email-templates', { display_name: 'Newsletter' });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const patched = await call('PATCH', `/internal/email-templates/${id}`, { tsx_source: customTemplate, theme_id: false });
    expect(patched.status).toBe(200);
    expect(patched.body.rendered_html).toContain('Custom body for John Doe, preview name');
    expect(patched.body.rendered_html).not.toContain('<body');
    const listed = (await call('GET', '/internal/email-templates')).body.templates.find((template: { id: string }) => template.id === id);
    expect(listed).toEqual({ id, display_name: 'Newsletter', tsx_source: customTemplate, theme_id: false });

    const themed = await call('PATCH', `/internal/email-templates/${id}`, { theme_id: null });
    expect(themed.body.rendered_html).toContain('<body');
    const relisted = (await call('GET', '/internal/email-templates')).body.templates.find((template: { id: string }) => template.id === id);
    expect(relisted.theme_id).toBeUndefined();

    expect((await call('DELETE', `/internal/email-templates/${id}`)).body).toEqual({});
    expectPlain(await call('DELETE', `/internal/email-templates/${id}`), 404);
    expectPlain(await call('PATCH', `/internal/email-templates/${id}`, { tsx_source: customTemplate }), 404);
  });

  it('refuses a template that does not render and a theme that does not exist', async () => {
    const id = systemTemplateIds.password_reset;
    const failing = await call('PATCH', `/internal/email-templates/${id}`, {
      tsx_source: 'export function EmailTemplate() { throw new Error("nope"); }',
    });
    expectError(failing, 400, 'EMAIL_RENDERING_ERROR', { error: 'Error: nope' });
    const created = await call('POST', '/internal/email-templates', {
      display_name: 'Broken',
      tsx_source: 'export function EmailTemplate() { return <p>; }',
    });
    expectError(created, 400, 'EMAIL_RENDERING_ERROR');
    expect(created.body.details.error).toMatch(/^template\.tsx:1:\d+: /);
    expectPlain(await call('PATCH', `/internal/email-templates/${id}`, { theme_id: '6a0b3e0c-86c8-4bd7-8b6f-2f0f7bb3a7c1' }), 404);
    expectError(await call('PATCH', `/internal/email-templates/${id}`, { theme_id: 'light' }), 400, 'SCHEMA_ERROR');
  });

  it('needs the project’s own email server to create or change a template', async () => {
    const shared = await env.context.createProject();
    expectError(
      await call('POST', '/internal/email-templates', { display_name: 'x' }, shared.headers.admin),
      400,
      'REQUIRES_CUSTOM_EMAIL_SERVER',
    );
    const patch = await call(
      'PATCH',
      `/internal/email-templates/${systemTemplateIds.email_verification}`,
      { tsx_source: customTemplate },
      shared.headers.admin,
    );
    expectError(patch, 400, 'REQUIRES_CUSTOM_EMAIL_SERVER');
    // Reading them needs no mail server.
    expect((await call('GET', '/internal/email-templates', undefined, shared.headers.admin)).status).toBe(200);
  });

  it('is admin only', async () => {
    expectError(await call('GET', '/internal/email-templates', undefined, env.project.headers.server), 401, 'INSUFFICIENT_ACCESS_TYPE');
  });
});

describe('drafts', () => {
  it('creates, lists, reads, changes, marks sent and deletes a draft', async () => {
    const created = await call('POST', '/internal/email-drafts', { display_name: 'Launch', theme_id: darkThemeId });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const read = await call('GET', `/internal/email-drafts/${id}`);
    expect(read.body).toMatchObject({ id, display_name: 'Launch', theme_id: darkThemeId, sent_at_millis: null });
    expect(read.body.tsx_source).toContain('EmailTemplate');

    const sentAt = Date.now();
    expect(
      (await call('PATCH', `/internal/email-drafts/${id}`, { tsx_source: customTemplate, theme_id: false, sent_at_millis: sentAt })).body,
    ).toEqual({ ok: 'ok' });
    expect((await call('GET', `/internal/email-drafts/${id}`)).body).toEqual({
      id,
      display_name: 'Launch',
      tsx_source: customTemplate,
      theme_id: false,
      sent_at_millis: sentAt,
    });
    await call('PATCH', `/internal/email-drafts/${id}`, { theme_id: null });
    expect((await call('GET', `/internal/email-drafts/${id}`)).body.theme_id).toBeUndefined();

    const list = await call('GET', '/internal/email-drafts');
    expect(list.body.drafts.map((draft: { id: string }) => draft.id)).toContain(id);

    expect((await call('DELETE', `/internal/email-drafts/${id}`)).body).toEqual({ ok: 'ok' });
    expectPlain(await call('GET', `/internal/email-drafts/${id}`), 404);
    expectPlain(await call('PATCH', `/internal/email-drafts/${id}`, { display_name: 'x' }), 404);
    expectPlain(await call('DELETE', `/internal/email-drafts/${id}`), 404);
  });

  it('keeps drafts to their project', async () => {
    const other = await env.context.createProject();
    const { body } = await call('POST', '/internal/email-drafts', { display_name: 'Mine' });
    expectPlain(await call('GET', `/internal/email-drafts/${body.id}`, undefined, other.headers.admin), 404);
    expect((await call('GET', '/internal/email-drafts', undefined, other.headers.admin)).body.drafts).toEqual([]);
  });
});

describe('render-email', () => {
  const render = (payload: object) => call('POST', '/emails/render-email', payload);

  it('renders a template by id inside a theme by id', async () => {
    const response = await render({ template_id: systemTemplateIds.email_verification, theme_id: darkThemeId });
    expect(response.status).toBe(200);
    expect(response.body.subject).toBe('Verify your email for Test project');
    expect(response.body.notification_category).toBe('Transactional');
    expect(response.body.html).toContain('Verify your email');
    expect(response.body.html).toContain('#09090b');
  });

  it('renders a template by id inside a theme by source', async () => {
    const response = await render({ template_id: systemTemplateIds.magic_link, theme_tsx_source: customTheme });
    expect(response.status).toBe(200);
    expect(response.body.html).toContain('id="custom-theme"');
    expect(response.body.html).toContain('3SLSWZ');
  });

  it('renders a template by source inside a theme by id, or with no theme', async () => {
    const themed = await render({ template_tsx_source: customTemplate, theme_id: lightThemeId });
    expect(themed.status).toBe(200);
    expect(themed.body).toMatchObject({ subject: 'Custom for Test project', notification_category: 'Marketing' });
    expect(themed.body.html).toContain('Custom body for John Doe, preview name');
    expect(themed.body.html).toContain('#f4f4f5');
    const bare = await render({ template_tsx_source: customTemplate, theme_id: false });
    expect(bare.body.html).not.toContain('<body');
    const selected = await render({ template_tsx_source: customTemplate });
    expect(selected.body.html).toContain('#f4f4f5');
  });

  it('renders a template by source inside a theme by source', async () => {
    const response = await render({ template_tsx_source: customTemplate, theme_tsx_source: customTheme });
    expect(response.status).toBe(200);
    expect(response.body.html).toMatch(/<div id="custom-theme"><p[^>]*>Custom body for John Doe, preview name<\/p><\/div>/);
  });

  it('reads Subject and NotificationCategory components', async () => {
    const source = `import { Subject, NotificationCategory } from '@stackframe/emails';
export function EmailTemplate() { return <><Subject value="From a component" /><NotificationCategory value="Marketing" /><p>x</p></>; }`;
    const response = await render({ template_tsx_source: source, theme_id: false });
    expect(response.body).toMatchObject({ subject: 'From a component', notification_category: 'Marketing' });
  });

  it("marks the template's texts as editable regions that map back to the source", async () => {
    const template = `import { Text, Preview } from '@react-email/components';
export const subject = 'Plain subject';
export function EmailTemplate({ user }) {
  return (
    <>
      <Preview>Preview text</Preview>
      <Text title="not marked">
        Hello &amp; welcome, {user.display_name}!
      </Text>
      {false ? <Text>Never shown</Text> : null}
    </>
  );
}`;
    const response = await render({ template_tsx_source: template, theme_id: lightThemeId, editable_markers: true });
    expect(response.status).toBe(200);
    const regions = response.body.editable_regions as {
      id: string;
      source: string;
      start: number;
      end: number;
      line: number;
      column: number;
      text: string;
    }[];
    expect(regions.map((region) => region.text)).toEqual(['Preview text', 'Hello &amp; welcome,', '!', 'Never shown']);
    for (const region of regions) {
      expect(region.source).toBe('template');
      expect(template.slice(region.start, region.end)).toBe(region.text);
    }
    expect(regions[1]).toMatchObject({ id: 'template:1', line: 8, column: 9 });
    const html = response.body.html as string;
    // The text in the body is wrapped in its span; the entity and the expression render as they would unmarked.
    expect(html).toMatch(
      /<p title="not marked"[^>]*><span data-editable-id="template:1">(<!-- -->)?Hello &amp; welcome,(<!-- -->)?<\/span>(<!-- -->)? (<!-- -->)?John Doe(<!-- -->)?<span data-editable-id="template:2">!<\/span><\/p>/,
    );
    expect(html).toContain('<span data-editable-id="template:0">Preview text</span>');
    expect(html).not.toContain('data-editable-id="template:3"');
    // The theme is not marked by default; no marker character is left anywhere.
    expect(html).not.toContain('data-editable-id="theme:');
    expect(html).not.toMatch(/[\uE000-\uE002]/);
    expect(response.body.subject).toBe('Plain subject');
    // Unmarked, the same template renders no span and lists no region.
    const plain = await render({ template_tsx_source: template, theme_id: lightThemeId });
    expect(plain.body.editable_regions).toBeUndefined();
    expect(plain.body.html).not.toContain('data-editable-id');
  });

  it('marks the theme or both with editable_source, also for sources given by id', async () => {
    const both = await render({
      template_id: systemTemplateIds.email_verification,
      theme_id: lightThemeId,
      editable_markers: true,
      editable_source: 'both',
    });
    expect(both.status).toBe(200);
    const regions = both.body.editable_regions as { id: string; source: string; start: number; end: number; text: string }[];
    const templateSource = (await call('GET', '/internal/email-templates')).body.templates.find(
      (template: { id: string }) => template.id === systemTemplateIds.email_verification,
    ).tsx_source as string;
    const themeSource = (await call('GET', `/internal/email-themes/${lightThemeId}`)).body.tsx_source as string;
    const fromTemplate = regions.filter((region) => region.source === 'template');
    const fromTheme = regions.filter((region) => region.source === 'theme');
    expect(fromTemplate.length).toBeGreaterThan(0);
    // The built-in theme's own words are the recipient's, from the catalogues (its `footer` prop): no text to edit in its source.
    expect(fromTheme).toEqual([]);
    expect(themeSource).toContain('{footer.unsubscribe}');
    for (const region of fromTemplate) expect(templateSource.slice(region.start, region.end)).toBe(region.text);
    const heading = fromTemplate.find((region) => region.text === 'Verify your email');
    expect(heading).toBeDefined();
    expect(both.body.html).toContain(`<span data-editable-id="${heading!.id}">Verify your email</span>`);

    const themeOnly = await render({
      template_tsx_source: customTemplate,
      theme_tsx_source: customTheme,
      editable_markers: true,
      editable_source: 'theme',
    });
    expect((themeOnly.body.editable_regions as { source: string; text: string }[]).map((region) => [region.source, region.text])).toEqual([
      ['theme', 'Stop'],
    ]);
    expect(themeOnly.body.html).toContain('Custom body for John Doe, preview name');
    expect(themeOnly.body.html).not.toContain('data-editable-id="template:');
  });

  it('reports a source that does not compile at its own position, markers or not', async () => {
    const broken = `export function EmailTemplate() {\n  return <p>Text</p>;\n  const = 1;\n}`;
    const plain = await render({ template_tsx_source: broken, theme_id: false });
    const marked = await render({ template_tsx_source: broken, theme_id: false, editable_markers: true });
    expectError(plain, 400, 'EMAIL_RENDERING_ERROR');
    expectError(marked, 400, 'EMAIL_RENDERING_ERROR');
    expect(marked.body.details.error).toBe(plain.body.details.error);
    expect(marked.body.details.error).toContain('template.tsx:3:');
    expectError(await render({ template_tsx_source: customTemplate, editable_markers: true, editable_source: 'all' }), 400, 'SCHEMA_ERROR');
  });

  it('refuses ambiguous or missing inputs, and unknown ids', async () => {
    expectError(await render({}), 400, 'SCHEMA_ERROR');
    expectError(
      await render({ template_id: systemTemplateIds.email_verification, template_tsx_source: customTemplate }),
      400,
      'SCHEMA_ERROR',
    );
    expectError(
      await render({ template_tsx_source: customTemplate, theme_id: lightThemeId, theme_tsx_source: customTheme }),
      400,
      'SCHEMA_ERROR',
    );
    expectPlain(await render({ template_id: '6a0b3e0c-86c8-4bd7-8b6f-2f0f7bb3a7c1' }), 404);
    expectPlain(await render({ template_tsx_source: customTemplate, theme_id: '6a0b3e0c-86c8-4bd7-8b6f-2f0f7bb3a7c1' }), 404);
  });
});
