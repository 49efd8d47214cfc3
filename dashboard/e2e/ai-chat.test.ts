import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { AiProviderStandIn } from '@gatehouse/testing/ai-provider-stand-in';
import { createProject, expectAccessible, signUpOwner, startDashboardPlatform, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The AI assistant of the email editors in a real Chromium against the platform on real Postgres, whose
 * OpenAI-compatible provider is a local stand-in (the server's real `openai` SDK talks to it): a question
 * asked from the keyboard goes to the provider with the email-theme prompt, the conversation and the editor's
 * source; the answer's code replaces the source and the live preview shows it; the thread is saved and read
 * back after a reload; the provider's error and timeout are shown with the question kept; a new conversation
 * starts empty; a server without a provider says how to configure one. axe light and dark.
 */
const standIn = new AiProviderStandIn();
beforeAll(async () => {
  await standIn.start();
});
const env = withDashboardInChromium({
  settings: () => ({ 'ai-chat': { baseUrl: `${standIn.url}/v1`, apiKey: 'sk-stand-in', model: 'stand-in-model', timeoutMs: 1500 } }),
});
afterAll(async () => {
  await standIn.close();
});

const darkThemeId = 'a0172b5d-cff0-463b-83bb-85124697373a';

describe('the dashboard in Chromium: AI assistant', () => {
  it('asks about the theme being edited, uses the answer’s code, keeps the thread and shows the provider’s failures', {
    timeout: 180_000,
  }, async () => {
    const shot = screenshots('dashboard-ai-chat');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Chat Co', { newTeam: 'Chat team' });
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/email-themes/${darkThemeId}`);
    const preview = page.frameLocator('iframe[title="Email preview"]');
    const sourceBox = page.getByLabel('Source (TSX)', { exact: true });
    await expect.poll(() => sourceBox.inputValue(), { timeout: 30_000 }).toContain('export function EmailTheme');
    await expect.poll(() => page.getByText('No messages yet.').isVisible()).toBe(true);
    const source = await sourceBox.inputValue();
    const proposed = source.replace('{children}', '<Text>Blue header by the assistant</Text>\n          {children}');
    expect(proposed).not.toBe(source);
    standIn.mode = {
      kind: 'answer',
      text: `Here is the theme with a blue header:\n\`\`\`tsx\n${proposed}\n\`\`\`\nSave it when it looks right.`,
    };

    // Asked from the keyboard: Ctrl+Enter in the box.
    const box = page.getByLabel('Ask the assistant', { exact: true });
    await box.focus();
    await page.keyboard.type('Make the header blue.');
    const before = standIn.requests.length;
    await page.keyboard.press('Control+Enter');
    const conversation = page.getByRole('list', { name: 'Conversation' });
    await expect.poll(() => conversation.getByText('Save it when it looks right.').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'The assistant answered.' }).count()).toBe(1);
    expect(await box.inputValue()).toBe('');
    const asked = standIn.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'stand-in-model' } });
    const messages = asked[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toMatchObject({ role: 'system' });
    expect(messages[0]!.content).toContain('email theme');
    expect(messages).toHaveLength(2);
    expect(messages[1]!.role).toBe('user');
    expect(messages[1]!.content).toContain('Make the header blue.');
    expect(messages[1]!.content).toContain(source);
    await shot(page, 'answer');
    await expectAccessible(page, 'the theme editor with the assistant');

    // The answer's code goes into the editor (not saved yet) and the preview shows it.
    await page.getByRole('button', { name: 'Use code 1 in the editor' }).click();
    expect(await sourceBox.inputValue()).toBe(proposed);
    await expect.poll(() => preview.getByText('Blue header by the assistant').isVisible(), { timeout: 30_000 }).toBe(true);

    // Saved to the thread: read back after a reload (question as typed, then the answer).
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    const threadId = `email-theme-${darkThemeId}`;
    await expect
      .poll(async () => services.aiChat.listMessages(project.id, threadId))
      .toEqual([
        { role: 'user', content: 'Make the header blue.' },
        { role: 'assistant', content: expect.stringContaining('Save it when it looks right.') },
      ]);
    await page.reload();
    await expect.poll(() => conversation.getByText('Make the header blue.').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => conversation.getByText('Save it when it looks right.').isVisible()).toBe(true);

    // The provider fails: its error is shown, the question stays in the box, nothing is saved.
    standIn.mode = { kind: 'error', status: 500 };
    await box.fill('And the footer?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
      .toBe('The AI provider answered with an error (HTTP 500).');
    expect(await box.inputValue()).toBe('And the footer?');
    // The next question carries the conversation so far.
    const sent = standIn.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent[1]!.content).toBe('Make the header blue.');

    // The provider does not answer: the timeout, in the dark theme.
    standIn.mode = { kind: 'hang' };
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Waiting for the answer…' }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toBe('The AI provider did not answer in time.');
    expect(await box.inputValue()).toBe('And the footer?');
    await shot(page, 'timeout-dark');
    await expectAccessible(page, 'the assistant with an error, dark');
    expect(await services.aiChat.listMessages(project.id, threadId)).toHaveLength(2);

    // A new conversation starts empty and is its own thread.
    standIn.mode = { kind: 'answer', text: 'A fresh start.' };
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect.poll(() => page.getByText('No messages yet.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => conversation.getByText('A fresh start.').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await conversation.getByRole('listitem').count()).toBe(2);
    expect(await services.aiChat.listMessages(project.id, threadId)).toHaveLength(2);
    await page.close();
  });

  it('says how to configure a provider on a server without one', { timeout: 120_000 }, async () => {
    const bare = await startDashboardPlatform();
    try {
      const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
      await signUpOwner(page, bare.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
      const projectId = await createProject(page, 'No AI Co', { newTeam: 'No AI team' });
      await page.goto(`${bare.url}/dashboard/projects/${projectId}/email-themes/${darkThemeId}`);
      const box = page.getByLabel('Ask the assistant', { exact: true });
      await box.fill('Make it blue.');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
        .toBe(
          'AI chat is not configured on this server: set AI_PROVIDER_BASE_URL and AI_PROVIDER_MODEL (and AI_PROVIDER_API_KEY when the provider needs a key).',
        );
      expect(await box.inputValue()).toBe('Make it blue.');
      await page.close();
    } finally {
      await bare.close();
    }
  });
});
