import { AiChatNotConfiguredError } from '@gatehouse/protocol/errors';
import type { OperationBody } from '@gatehouse/protocol/operation-types';
import type { DbHandle } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { AiChatSettings } from './ai-chat-settings.ts';
import { insertAiChatMessage, listAiChatMessageContents, touchAiChatThread } from './ai-chat.repository.ts';
import { AiProvider, type ProviderMessage } from './ai-provider.ts';

type ChatRequest = OperationBody<'sendAiChatMessage'>;
type ContextType = ChatRequest['context_type'];

/** What the assistant is told it helps with, per context type. */
const systemPrompts: Record<ContextType, string> = {
  'email-theme':
    'You help the owner of a Gatehouse project write an email theme: a React Email component in TSX that wraps every email of the project (layout, colours, header and footer). Answer concisely; when you propose code, give the whole TSX source.',
  'email-template':
    'You help the owner of a Gatehouse project write an email template: a React Email component in TSX for one kind of email (sign-in code, password reset, ...) rendered inside the theme, using the variables it is given. Answer concisely; when you propose code, give the whole TSX source.',
  'email-draft':
    'You help the owner of a Gatehouse project write an email draft: a React Email component in TSX for a one-off email sent to chosen users. Answer concisely; when you propose code, give the whole TSX source.',
};

/**
 * The AI chat of the dashboard: answers a conversation through the configured OpenAI-compatible provider and
 * keeps the threads of each project (the messages the SDK saves, in order).
 */
export class AiChatService {
  private readonly provider: AiProvider | null;

  constructor(
    private readonly db: DbHandle,
    settings: AiChatSettings,
  ) {
    this.provider =
      settings.baseUrl && settings.model
        ? new AiProvider({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, model: settings.model, timeoutMs: settings.timeoutMs })
        : null;
  }

  /** The assistant's answer as content blocks; the thread is recorded with its context type. */
  async answer(projectId: ProjectId, threadId: string, request: ChatRequest): Promise<Array<{ type: 'text'; text: string }>> {
    if (!this.provider) throw new AiChatNotConfiguredError();
    const messages: ProviderMessage[] = [
      { role: 'system', content: systemPrompts[request.context_type] },
      ...request.messages.map(toProviderMessage),
    ];
    const text = await this.provider.complete(messages);
    await touchAiChatThread(this.db, projectId, threadId, request.context_type);
    return [{ type: 'text', text }];
  }

  async saveMessage(projectId: ProjectId, threadId: string, message: unknown): Promise<void> {
    await touchAiChatThread(this.db, projectId, threadId, undefined);
    await insertAiChatMessage(this.db, projectId, threadId, message);
  }

  listMessages(projectId: ProjectId, threadId: string): Promise<unknown[]> {
    return listAiChatMessageContents(this.db, projectId, threadId);
  }
}

/** A `tool` message becomes a user message (no tools are offered); content parts other than text are sent as JSON. */
function toProviderMessage(message: ChatRequest['messages'][number]): ProviderMessage {
  const text = textOf(message.content);
  if (message.role === 'tool') return { role: 'user', content: `Tool result: ${text}` };
  return { role: message.role, content: text };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join('\n');
  return JSON.stringify(content) ?? '';
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (
    part &&
    typeof part === 'object' &&
    (part as { type?: unknown }).type === 'text' &&
    typeof (part as { text?: unknown }).text === 'string'
  )
    return (part as { text: string }).text;
  return JSON.stringify(part) ?? '';
}
