import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The Emails pages in a real Chromium against the platform on real Postgres and a real SMTP sink: the
 * owner points the project at their own SMTP server, selects the dark theme, opens the email
 * verification template, clicks its heading in the live preview (the editable markers of
 * render-email), types new words and sees the preview change, saves; a new user signs up in the
 * app, and the verification email in the sink carries the new words inside the dark theme. A broken
 * source shows EMAIL_RENDERING_ERROR with its line and column. axe-core on every new page.
 */
const env = withDashboardInChromium();
let mail: SmtpSink;
beforeAll(async () => {
  mail = await startSmtpSink();
});
afterAll(async () => {
  await mail?.close();
});

const darkThemeId = 'a0172b5d-cff0-463b-83bb-85124697373a';
const verificationTemplateId = 'e7d009ce-8d47-4528-b245-5bf119f2ffa3';

describe('the dashboard in Chromium: emails', () => {
  it('edits the verification template in the preview, and the next sign-up gets it in the selected theme', {
    timeout: 240_000,
  }, async () => {
    const shot = screenshots('dashboard-emails');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Mail Co', { newTeam: 'Mail team' });
    const configOf = async () => {
      env.platform.context.services.projects.forget(projectId);
      return (await env.platform.context.services.projects.find(projectId))!.config;
    };

    // Callbacks to the app served on this origin (127.0.0.1).
    await page.getByRole('link', { name: 'Domains and handler', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Allow localhost callbacks (development)' }).check();
    await expect.poll(async () => (await configOf()).domains.allowLocalhost).toBe(true);

    // The Emails page: own SMTP server (the sink), then the dark theme for every email.
    await page.getByRole('link', { name: 'Emails', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Emails', level: 1 }).isVisible()).toBe(true);
    await expectAccessible(page, 'the emails page');
    await page.getByRole('radio', { name: 'Own SMTP server' }).check();
    await page.getByLabel('SMTP host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('SMTP port', { exact: true }).fill(String(mail.port));
    await page.getByLabel('SMTP username', { exact: true }).fill('mailer');
    await page.getByLabel('SMTP password', { exact: true }).fill('mailer-password');
    await page.getByLabel('Sender name', { exact: true }).fill('Mail Co');
    await page.getByLabel('Sender email', { exact: true }).fill('auth@mail.test');
    await page.getByRole('button', { name: 'Save email server' }).click();
    await expect.poll(() => page.getByText('Email server saved.').isVisible()).toBe(true);
    await expect.poll(async () => (await configOf()).emails.server).toMatchObject({ isShared: false, host: '127.0.0.1', port: mail.port });
    await page.getByLabel("Theme of the project's emails", { exact: true }).selectOption({ label: 'Default Dark' });
    await expect.poll(async () => (await configOf()).emails.selectedThemeId).toBe(darkThemeId);
    await shot(page, 'emails');

    // The verification template: its own URL, the live preview, the texts as fields.
    await page.getByRole('link', { name: 'Email Verification', exact: true }).click();
    await expect
      .poll(() => new URL(page.url()).pathname)
      .toBe(`/dashboard/projects/${projectId}/email-templates/${verificationTemplateId}`);
    const preview = page.frameLocator('iframe[title="Email preview"]');
    await expect.poll(() => preview.getByText('Verify your email', { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Subject:' }).textContent())
      .toBe('Subject: Verify your email for Mail Co');
    await shot(page, 'verification-template');
    await expectAccessible(page, 'the template editor');

    // A click on the heading in the preview moves to its field; new words show in the preview.
    await preview.getByText('Verify your email', { exact: true }).click();
    const focused = page.locator(':focus');
    await expect.poll(() => focused.inputValue()).toBe('Verify your email');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Confirm your Mail Co address');
    await expect.poll(() => preview.getByText('Confirm your Mail Co address', { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByLabel('Source (TSX)').inputValue()).toContain('>Confirm your Mail Co address</Heading>');
    await shot(page, 'preview-changed');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText('Saved.', { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    await expect
      .poll(async () => (await configOf()).emails.templates[verificationTemplateId]?.tsxSource ?? '')
      .toContain('Confirm your Mail Co address');

    // A broken source: EMAIL_RENDERING_ERROR with its position, and a button that selects that line.
    const source = page.getByLabel('Source (TSX)');
    const saved = await source.inputValue();
    await source.fill(saved.replace('export function EmailTemplate(', 'export function EmailTemplate(('));
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Line ' }).textContent(), { timeout: 30_000 })
      .toMatch(/^Line \d+, column \d+: template\.tsx:\d+:\d+: /);
    await page.getByRole('button', { name: /^Go to line \d+$/ }).click();
    await expect.poll(() => source.evaluate((area: HTMLTextAreaElement) => area.selectionEnd > area.selectionStart)).toBe(true);
    await shot(page, 'rendering-error');
    await source.fill(saved);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Line ' }).count(), { timeout: 30_000 }).toBe(0);

    // The dark theme's editor: its preview around a sample body.
    await page.getByRole('link', { name: 'All emails' }).click();
    await page.getByRole('link', { name: 'Default Dark', exact: true }).click();
    await expect.poll(() => preview.getByText('This is how your emails look in this theme.').isVisible(), { timeout: 30_000 }).toBe(true);
    await expectAccessible(page, 'the theme editor');
    await shot(page, 'theme-editor');
    // At 1024 px and in the dark theme the editor keeps its layout and passes axe.
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.getByLabel('Source (TSX)').isVisible()).toBe(true);
    await expectAccessible(page, 'the theme editor, dark, 1024 px');
    await shot(page, 'theme-editor-dark-1024');

    // A new draft by name opens its editor, and the list shows it.
    await page.getByRole('link', { name: 'All emails' }).click();
    await page.getByLabel('New draft name', { exact: true }).fill('Launch news');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await expect.poll(() => page.getByLabel('Source (TSX)').isVisible(), { timeout: 30_000 }).toBe(true);
    await expectAccessible(page, 'the draft editor');
    await page.getByRole('link', { name: 'All emails' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Drafts' }).getByRole('link', { name: 'Launch news' }).isVisible()).toBe(true);

    // A new user signs up in the app; the verification email carries the new words in the dark theme.
    await env.platform.serveAppFor(projectId);
    const user = await env.browser.newPage();
    const email = `newcomer-${randomUUID().slice(0, 8)}@mail.test`;
    await user.goto(`${env.platform.url}/handler/sign-up`);
    await user.getByLabel('Email', { exact: true }).fill(email);
    await user.getByLabel('Password', { exact: true }).fill('newcomer-password-1');
    await user.getByLabel('Repeat password', { exact: true }).fill('newcomer-password-1');
    await user.getByRole('button', { name: 'Sign up' }).click();
    const message = await mail.waitFor((candidate) => candidate.to.includes(email), 30_000);
    expect(message.subject).toBe('Verify your email for Mail Co');
    expect(message.html).toContain('Confirm your Mail Co address');
    expect(message.html).not.toContain('data-editable-id');
    expect(message.html).toContain('#09090b');
    expect(message.text).toContain('/handler/email-verification?code=');
    await user.close();
    await page.close();
  });
});
