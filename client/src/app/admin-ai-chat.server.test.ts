import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiProviderStandIn } from '@gatehouse/testing/ai-provider-stand-in';
import { withTestContext } from '@gatehouse/testing/test-context';
import { AiChatNotConfiguredError, AiProviderError, AiProviderTimeoutError } from '../errors.ts';
import { createAdminApp } from './admin-app.ts';

/**
 * The admin app's AI chat against the real server over HTTP, its provider a local stand-in of an OpenAI-compatible
 * API: an answer, a saved thread read back, and the provider's failures as their error classes.
 */
const standIn = new AiProviderStandIn();
const aiSettings = { baseUrl: '', model: 'stand-in-model', timeoutMs: 400 };
beforeAll(async () => {
  await standIn.start();
  // Read when the server below is created (its beforeAll runs after this one).
  aiSettings.baseUrl = `${standIn.url}/v1`;
});
const env = withTestContext({ listen: true, settings: { 'ai-chat': aiSettings } });
const off = withTestContext({ listen: true });
afterAll(async () => {
  await standIn.close();
});

const adminApp = (on = env) =>
  createAdminApp({ baseUrl: on.baseUrl, projectId: on.project.project.id, superSecretAdminKey: on.project.keys.super_secret_admin_key });
const question = [{ role: 'user' as const, content: 'A dark theme, please.' }];

describe('admin AI chat SDK', () => {
  it('asks, saves the exchange and reads the thread back', async () => {
    standIn.mode = { kind: 'answer', text: 'A dark theme.' };
    const { aiChat } = adminApp();
    const answer = await aiChat.sendMessage('sdk-thread', 'email-theme', question);
    expect(answer).toEqual({ content: [{ type: 'text', text: 'A dark theme.' }] });
    await aiChat.saveMessage('sdk-thread', { role: 'user', content: question[0]?.content });
    await aiChat.saveMessage('sdk-thread', { role: 'assistant', content: answer.content });
    expect(await aiChat.listMessages('sdk-thread')).toEqual({
      messages: [
        { role: 'user', content: 'A dark theme, please.' },
        { role: 'assistant', content: [{ type: 'text', text: 'A dark theme.' }] },
      ],
    });
  });

  it("rejects with the errors' classes", async () => {
    const { aiChat } = adminApp();
    standIn.mode = { kind: 'error', status: 500 };
    await expect(aiChat.sendMessage('sdk-errors', 'email-draft', question)).rejects.toBeInstanceOf(AiProviderError);
    standIn.mode = { kind: 'hang' };
    await expect(aiChat.sendMessage('sdk-errors', 'email-draft', question)).rejects.toBeInstanceOf(AiProviderTimeoutError);
    await expect(adminApp(off).aiChat.sendMessage('sdk-errors', 'email-draft', question)).rejects.toBeInstanceOf(AiChatNotConfiguredError);
    standIn.mode = { kind: 'answer', text: 'ok' };
  });
});
