import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { ApiHttpError } from '../api-client.ts';
import { EmailRenderingError, RequiresCustomEmailServerError } from '../errors.ts';
import { createAdminApp } from './admin-app.ts';

/**
 * The admin app's emails against the real server over HTTP: themes (and selecting one), templates,
 * drafts and previews with editable markers; failing sources as EmailRenderingError, the shared
 * server as RequiresCustomEmailServerError, unknown ids as a 404.
 */
const ownServer = {
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
const env = withTestContext({ listen: true, projectConfig: ownServer });
const adminApp = () =>
  createAdminApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, superSecretAdminKey: env.project.keys.super_secret_admin_key });

const lightThemeId = '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac';
const darkThemeId = 'a0172b5d-cff0-463b-83bb-85124697373a';
const verificationTemplateId = 'e7d009ce-8d47-4528-b245-5bf119f2ffa3';
const brandTheme = `import { Html, Body } from '@react-email/components';
export function EmailTheme({ children }) { return <Html><Body><div id="brand">{children}</div><p>Brand footer</p></Body></Html>; }`;
const template = `import { Text } from '@react-email/components';
export const subject = 'Hello from the SDK';
export function EmailTemplate({ user }) { return <Text>Hello {user.display_name}</Text>; }`;

describe('admin emails SDK', () => {
  it('lists, creates, reads, changes, selects and deletes themes', async () => {
    const { emails } = adminApp();
    expect((await emails.listThemes()).slice(0, 2)).toEqual([
      { id: lightThemeId, display_name: 'Default Light' },
      { id: darkThemeId, display_name: 'Default Dark' },
    ]);
    const id = await emails.createTheme({ displayName: 'Brand', tsxSource: brandTheme });
    expect(await emails.getTheme(id)).toEqual({ display_name: 'Brand', tsx_source: brandTheme });
    expect(await emails.updateTheme(id, { displayName: 'Brand 2' })).toEqual({ displayName: 'Brand 2' });

    expect(await emails.getSelectedThemeId()).toBe(lightThemeId);
    await emails.selectTheme(id);
    expect(await emails.getSelectedThemeId()).toBe(id);
    const preview = await emails.render({ templateSource: template });
    expect(preview.html).toContain('<div id="brand">');

    await expect(emails.updateTheme(id, { tsxSource: 'export function EmailTheme( {' })).rejects.toBeInstanceOf(EmailRenderingError);
    await emails.deleteTheme(id);
    expect(await emails.getSelectedThemeId()).toBe(lightThemeId);
    const missing = await emails.getTheme(id).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiHttpError);
    expect((missing as ApiHttpError).status).toBe(404);
  });

  it('creates, changes (with the preview) and deletes templates', async () => {
    const { emails } = adminApp();
    const templates = await emails.listTemplates();
    expect(templates.map((entry) => entry.display_name)).toContain('Email Verification');
    const id = await emails.createTemplate({ displayName: 'Welcome', tsxSource: template, themeId: false });
    expect((await emails.listTemplates()).find((entry) => entry.id === id)).toEqual({
      id,
      display_name: 'Welcome',
      tsx_source: template,
      theme_id: false,
    });
    const changed = await emails.updateTemplate(id, { tsxSource: template.replace('Hello {', 'Welcome {'), themeId: darkThemeId });
    expect(changed.renderedHtml).toMatch(/Welcome (<!-- -->)?John Doe/);
    expect(changed.renderedHtml).toContain('#09090b');
    const broken = await emails
      .updateTemplate(id, { tsxSource: 'export function EmailTemplate() { throw new Error("boom"); }' })
      .catch((error: unknown) => error);
    expect(broken).toBeInstanceOf(EmailRenderingError);
    expect((broken as EmailRenderingError).details).toMatchObject({ error: expect.stringContaining('boom') });
    await emails.deleteTemplate(id);
    expect((await emails.listTemplates()).map((entry) => entry.id)).not.toContain(id);

    const shared = await env.context.createProject({});
    const sharedApp = createAdminApp({
      baseUrl: env.baseUrl,
      projectId: shared.project.id,
      superSecretAdminKey: shared.keys.super_secret_admin_key,
    });
    await expect(sharedApp.emails.createTemplate({ displayName: 'No' })).rejects.toBeInstanceOf(RequiresCustomEmailServerError);
  });

  it('creates, reads, changes and deletes drafts', async () => {
    const { emails } = adminApp();
    const id = await emails.createDraft({ displayName: 'Launch', tsxSource: template });
    expect(await emails.getDraft(id)).toEqual({ id, display_name: 'Launch', tsx_source: template, sent_at_millis: null });
    await emails.updateDraft(id, { displayName: 'Launch 2', themeId: false, sentAtMillis: 1_700_000_000_000 });
    expect(await emails.getDraft(id)).toMatchObject({ display_name: 'Launch 2', theme_id: false, sent_at_millis: 1_700_000_000_000 });
    expect((await emails.listDrafts()).map((entry) => entry.id)).toContain(id);
    await emails.deleteDraft(id);
    expect((await emails.listDrafts()).map((entry) => entry.id)).not.toContain(id);
  });

  it('renders previews with editable regions that map to the source', async () => {
    const { emails } = adminApp();
    const preview = await emails.render({ templateId: verificationTemplateId, themeId: lightThemeId, editableMarkers: true });
    expect(preview.subject).toBe('Verify your email for Test project');
    const source = (await emails.listTemplates()).find((entry) => entry.id === verificationTemplateId)!.tsx_source;
    const regions = preview.editable_regions ?? [];
    expect(regions.length).toBeGreaterThan(0);
    for (const region of regions) expect(source.slice(region.start, region.end)).toBe(region.text);
    expect(preview.html).toContain(`<span data-editable-id="${regions[0]!.id}">`);
    const bare = await emails.render({ templateSource: template, themeId: false });
    expect(bare.editable_regions).toBeUndefined();
    await expect(emails.render({ templateSource: 'export const = ;' })).rejects.toBeInstanceOf(EmailRenderingError);
  });
});
