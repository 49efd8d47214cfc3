import { defineModule } from '../../../kernel/module.ts';
import { readAiChatSettings } from './ai-chat-settings.ts';
import { aiChatHandlers } from './ai-chat.routes.ts';
import { AiChatService } from './ai-chat.service.ts';
import * as migration0067 from './migrations/0067-ai-chat.ts';

/** The dashboard's AI chat (`/internal/ai-chat/{thread_id}`): threads per project, answered by an OpenAI-compatible provider (`AI_PROVIDER_*`). */
export const aiChatModule = defineModule({
  name: 'ai-chat',
  migrations: { '0067-ai-chat': migration0067 },
  settings: readAiChatSettings,
  services: (_needs, { db, settings }) => ({ aiChat: new AiChatService(db, settings) }),
  handlers: aiChatHandlers,
});
