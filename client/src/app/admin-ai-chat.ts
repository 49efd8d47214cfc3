import type { Schema } from '@gatehouse/protocol/operation-types';
import type { AppCall } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

export type AiChatContextType = Schema<'AiChatContextType'>;
export type AiChatMessage = Schema<'AiChatMessage'>;
export type AiChatContent = Schema<'AiChatAnswer'>['content'];

/**
 * The dashboard's AI assistant (admin app), as Stack's admin interface has it (`sendChatMessage`,
 * `saveChatMessage`, `listChatMessages`): a thread is an id the caller picks; the server keeps its saved
 * messages per project. A server without a provider rejects `sendMessage` with AiChatNotConfiguredError; a
 * failing provider with AiProviderError, a slow one with AiProviderTimeoutError.
 */
export type AdminAiChat = {
  /** The assistant's answer to the conversation (oldest message first); the messages are not saved by it. */
  sendMessage(
    threadId: string,
    contextType: AiChatContextType,
    messages: AiChatMessage[],
    options?: { signal?: AbortSignal },
  ): Promise<{ content: AiChatContent }>;
  /** Appends a message (any JSON value) to the thread. */
  saveMessage(threadId: string, message: unknown): Promise<void>;
  /** The thread's saved messages, oldest first (none for an unknown thread). */
  listMessages(threadId: string): Promise<{ messages: unknown[] }>;
};

export function adminAiChat(call: AppCall): AdminAiChat {
  const thread = (thread_id: string) => ({ params: { thread_id } });
  return {
    sendMessage: (threadId, contextType, messages, options = {}) =>
      call(op.sendAiChatMessage, { ...thread(threadId), body: { context_type: contextType, messages }, signal: options.signal }),
    saveMessage: async (threadId, message) => {
      await call(op.createAiChatMessage, { ...thread(threadId), body: { message } });
    },
    listMessages: (threadId) => call(op.listAiChatMessages, thread(threadId)),
  };
}
