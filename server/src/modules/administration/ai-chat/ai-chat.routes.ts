import { authOf } from '../../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { AiChatService } from './ai-chat.service.ts';

export function aiChatHandlers({ aiChat }: { aiChat: AiChatService }) {
  return {
    sendAiChatMessage: async (request) => ({
      content: await aiChat.answer(authOf(request).project.id, request.params.thread_id, request.body),
    }),
    createAiChatMessage: async (request) => {
      await aiChat.saveMessage(authOf(request).project.id, request.params.thread_id, request.body.message);
      return {};
    },
    listAiChatMessages: async (request) => ({
      messages: await aiChat.listMessages(authOf(request).project.id, request.params.thread_id),
    }),
  } satisfies Partial<OperationHandlers>;
}
