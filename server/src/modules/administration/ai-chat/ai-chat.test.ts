import { AiChatNotConfiguredError } from '@gatehouse/protocol/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiProviderStandIn } from '@gatehouse/testing/ai-provider-stand-in';
import { expectError } from '@gatehouse/testing/expect-response';
import { createTestContext, type TestProject } from '@gatehouse/testing/test-context';
import { readAiChatSettings } from './ai-chat-settings.ts';
import { AiProvider } from './ai-provider.ts';

/**
 * The AI chat (`/internal/ai-chat/{thread_id}`) with the real `openai` SDK against a local stand-in of an
 * OpenAI-compatible provider: the answer, the provider's error statuses, its timeout (no answer, and an answer whose
 * body stalls), an unreadable answer, no provider configured; saved threads kept per project.
 */
const standIn = new AiProviderStandIn();
const timeoutMs = 400;
let context: Awaited<ReturnType<typeof createTestContext>>;
let unconfigured: Awaited<ReturnType<typeof createTestContext>>;
let project: TestProject;

beforeAll(async () => {
  await standIn.start();
  context = await createTestContext({
    settings: { 'ai-chat': { baseUrl: `${standIn.url}/v1`, apiKey: 'sk-stand-in', model: 'stand-in-model', timeoutMs } },
  });
  unconfigured = await createTestContext();
  project = await context.createProject();
}, 60_000);
afterAll(async () => {
  await context?.close();
  await unconfigured?.close();
  await standIn.close();
});

type Headers = Record<string, string>;
const ask = (headers: Headers, threadId: string, payload: object, on = context) =>
  on.request({ method: 'POST', url: `/api/v1/internal/ai-chat/${threadId}`, headers, payload });
const save = (headers: Headers, threadId: string, message: unknown) =>
  context.request({ method: 'PATCH', url: `/api/v1/internal/ai-chat/${threadId}`, headers, payload: { message } });
const list = (headers: Headers, threadId: string) => context.request({ url: `/api/v1/internal/ai-chat/${threadId}`, headers });
const question = { context_type: 'email-theme', messages: [{ role: 'user', content: 'Make the header blue.' }] };

describe('POST /internal/ai-chat/{thread_id}', () => {
  it("answers the provider's reply as a text block, asking it with the context's system prompt and the conversation", async () => {
    standIn.mode = { kind: 'answer', text: 'Here is a blue header.' };
    const before = standIn.requests.length;
    const response = await ask(project.headers.admin, 'thread-answer', {
      context_type: 'email-template',
      messages: [
        { role: 'user', content: 'Write a sign-in email.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Which colours?' },
            { type: 'tool-call', toolName: 'x', args: {} },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', result: 'ok' }] },
        { role: 'user', content: [{ type: 'text', text: 'Blue.' }] },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ content: [{ type: 'text', text: 'Here is a blue header.' }] });

    expect(standIn.requests.length - before).toBe(1);
    const sent = standIn.requests.at(-1);
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-stand-in');
    expect(sent?.body.model).toBe('stand-in-model');
    const messages = sent?.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content).toMatch(/email template/);
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'Write a sign-in email.' },
      { role: 'assistant', content: 'Which colours?\n{"type":"tool-call","toolName":"x","args":{}}' },
      { role: 'user', content: 'Tool result: {"type":"tool-result","result":"ok"}' },
      { role: 'user', content: 'Blue.' },
    ]);
    // The answer is not stored by POST: the SDK saves the question and the answer with PATCH.
    expect((await list(project.headers.admin, 'thread-answer')).body).toEqual({ messages: [] });
  });

  it('maps a 4xx and a 5xx of the provider to AI_PROVIDER_ERROR with its status, asking it once', async () => {
    for (const status of [401, 429, 500, 503]) {
      standIn.mode = { kind: 'error', status };
      const before = standIn.requests.length;
      const response = await ask(project.headers.admin, 'thread-errors', question);
      expectError(response, 502, 'AI_PROVIDER_ERROR', { provider_status: status });
      expect(response.body.error).toBe(`The AI provider answered with an error (HTTP ${status}).`);
      expect(standIn.requests.length - before, String(status)).toBe(1);
    }
  });

  it('maps a 200 that is not a chat completion to AI_PROVIDER_ERROR', async () => {
    standIn.mode = { kind: 'not-a-completion' };
    expectError(await ask(project.headers.admin, 'thread-garbage', question), 502, 'AI_PROVIDER_ERROR', { provider_status: 200 });
  });

  it('answers AI_PROVIDER_TIMEOUT within the bound when the provider does not answer, or stalls in its body', async () => {
    for (const kind of ['hang', 'stall-body'] as const) {
      standIn.mode = { kind };
      const started = Date.now();
      const response = await ask(project.headers.admin, 'thread-timeout', question);
      const elapsed = Date.now() - started;
      expectError(response, 504, 'AI_PROVIDER_TIMEOUT', { timeout_ms: timeoutMs });
      expect(response.body.error).toBe('The AI provider did not answer in time.');
      expect(elapsed, kind).toBeGreaterThanOrEqual(timeoutMs - 50);
      expect(elapsed, kind).toBeLessThan(timeoutMs + 3000);
    }
    standIn.mode = { kind: 'answer', text: 'Back.' };
  });

  it('is AI_CHAT_NOT_CONFIGURED with its message on a server without a provider', async () => {
    const other = await unconfigured.createProject();
    const response = await ask(other.headers.admin, 'thread-off', question, unconfigured);
    expectError(response, 400, 'AI_CHAT_NOT_CONFIGURED');
    expect(response.body.error).toBe(AiChatNotConfiguredError.defaultMessage);
    expect(response.body.error).toBe(
      'AI chat is not configured on this server: set AI_PROVIDER_BASE_URL and AI_PROVIDER_MODEL (and AI_PROVIDER_API_KEY when the provider needs a key).',
    );
  });

  it('refuses bad input with SCHEMA_ERROR and non-admin access, asking the provider nothing', async () => {
    const before = standIn.requests.length;
    expectError(await ask(project.headers.admin, 'thread-bad', { ...question, context_type: 'email-novel' }), 400, 'SCHEMA_ERROR');
    expectError(await ask(project.headers.admin, 'thread-bad', { ...question, messages: [] }), 400, 'SCHEMA_ERROR');
    expectError(
      await ask(project.headers.admin, 'thread-bad', { ...question, messages: [{ role: 'system', content: 'x' }] }),
      400,
      'SCHEMA_ERROR',
    );
    expectError(await ask(project.headers.admin, 'bad%20thread', question), 400, 'SCHEMA_ERROR');
    expectError(await ask(project.headers.server, 'thread-bad', question), 401, 'INSUFFICIENT_ACCESS_TYPE');
    expect(standIn.requests.length).toBe(before);
  });
});

describe('PATCH and GET /internal/ai-chat/{thread_id}', () => {
  it('saves messages of any JSON shape and lists them in order', async () => {
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }], id: 'm2' },
      'a plain string',
      null,
    ];
    for (const message of messages) {
      const saved = await save(project.headers.admin, 'thread-saved', message);
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body).toEqual({});
    }
    expect((await list(project.headers.admin, 'thread-saved')).body).toEqual({ messages });
    expect((await list(project.headers.admin, 'thread-unknown')).body).toEqual({ messages: [] });
  });

  it("keeps threads per project: another project's thread of the same id is its own", async () => {
    const other = await context.createProject();
    await save(project.headers.admin, 'shared-id', { text: 'first project' });
    await save(other.headers.admin, 'shared-id', { text: 'second project' });
    expect((await list(project.headers.admin, 'shared-id')).body.messages).toEqual([{ text: 'first project' }]);
    expect((await list(other.headers.admin, 'shared-id')).body.messages).toEqual([{ text: 'second project' }]);
  });

  it('refuses non-admin access and a message over the JSON limit, storing nothing', async () => {
    expectError(await save(project.headers.server, 'thread-guarded', 'x'), 401, 'INSUFFICIENT_ACCESS_TYPE');
    expectError(await list(project.headers.client, 'thread-guarded'), 401, 'INSUFFICIENT_ACCESS_TYPE');
    expectError(await save(project.headers.admin, 'thread-guarded', 'x'.repeat(100_001)), 400, 'SCHEMA_ERROR');
    expectError(
      await context.request({
        method: 'PATCH',
        url: '/api/v1/internal/ai-chat/thread-guarded',
        headers: project.headers.admin,
        payload: {},
      }),
      400,
      'SCHEMA_ERROR',
    );
    expect((await list(project.headers.admin, 'thread-guarded')).body).toEqual({ messages: [] });
  });
});

describe('AiProvider', () => {
  it('maps a provider that cannot be reached to AI_PROVIDER_ERROR without a status', async () => {
    const closed = await new AiProviderStandIn().start();
    const url = closed.url;
    await closed.close();
    const provider = new AiProvider({ baseUrl: `${url}/v1`, apiKey: null, model: 'm', timeoutMs: 2000 });
    await expect(provider.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
      code: 'AI_PROVIDER_ERROR',
      status: 502,
      details: { provider_status: null },
    });
  });
});

describe('the AI_PROVIDER_* settings', () => {
  it('reads the provider, defaults the timeout to 30 s, and stops the start on a bad URL or timeout', () => {
    expect(readAiChatSettings({})).toEqual({ baseUrl: null, apiKey: null, model: null, timeoutMs: 30_000 });
    expect(
      readAiChatSettings({
        AI_PROVIDER_BASE_URL: 'http://127.0.0.1:11434/v1',
        AI_PROVIDER_MODEL: 'llama',
        AI_PROVIDER_API_KEY: 'k',
        AI_PROVIDER_TIMEOUT_MS: '5000',
      }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'k', model: 'llama', timeoutMs: 5000 });
    expect(() => readAiChatSettings({ AI_PROVIDER_BASE_URL: 'ftp://example.com' })).toThrow(
      /AI_PROVIDER_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => readAiChatSettings({ AI_PROVIDER_BASE_URL: 'not a url' })).toThrow(/AI_PROVIDER_BASE_URL/);
    for (const timeout of ['0', '-1', '1.5', 'soon', '600001'])
      expect(() => readAiChatSettings({ AI_PROVIDER_TIMEOUT_MS: timeout }), timeout).toThrow(/AI_PROVIDER_TIMEOUT_MS/);
  });
});
