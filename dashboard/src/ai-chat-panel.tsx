import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { useProjectScope } from './shell-context.ts';
import { useDashboardTranslation } from './i18n/dashboard-i18n.ts';
import { ErrorMessage, Section } from './ui.tsx';
import './ai-chat-panel.css';

type ContextType = Schema<'AiChatContextType'>;
/** A message as the dashboard saves it to the thread (PATCH) and sends it back with the next question. */
type ChatMessage = { role: 'user' | 'assistant'; content: string };

/** The conversation of one email being edited, per browser: its own thread until "New conversation". */
const threadKey = (projectId: string, contextType: ContextType, subjectId: string) =>
  `gatehouse-dashboard-ai-thread:${projectId}:${contextType}:${subjectId}`;
const threadIdPattern = /[^A-Za-z0-9_-]/g;
const defaultThreadId = (contextType: ContextType, subjectId: string) =>
  `${contextType}-${subjectId}`.replace(threadIdPattern, '_').slice(0, 100);

/**
 * The AI assistant of an email editor (`/internal/ai-chat/{thread_id}`): the thread's saved messages, a
 * question sent with the whole conversation and the editor's current source, the answer shown with its code
 * blocks (each can replace the editor's source, unsaved until the editor's Save). Asking saves the question
 * and the answer to the thread only once the answer came; a refusal (no provider configured on the server,
 * the provider's error or timeout) is shown and the question stays in the box. Keyboard: the box sends on
 * Ctrl+Enter (⌘+Enter), the answer is announced.
 */
export function AiChatPanel({
  contextType,
  subjectId,
  source,
  onUseCode,
}: {
  contextType: ContextType;
  subjectId: string;
  source: string;
  onUseCode: (code: string) => void;
}) {
  const { projectId, request } = useProjectScope();
  const queryClient = useQueryClient();
  const storageKey = threadKey(projectId, contextType, subjectId);
  const [threadId, setThreadId] = useState(() => localStorage.getItem(storageKey) ?? defaultThreadId(contextType, subjectId));
  const thread = api.useListAiChatMessages(threadId, { request });
  const ask = api.useSendAiChatMessage({ request });
  const saveMessage = api.useCreateAiChatMessage({ request });
  const [question, setQuestion] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const questionId = useId();
  const { t } = useDashboardTranslation();

  const saved = (thread.data?.messages ?? []).filter(isChatMessage);

  function send(event?: FormEvent) {
    event?.preventDefault();
    const text = question.trim();
    if (!text || ask.isPending) return;
    setAsked(text);
    setAnnouncement(t('aiChat.waiting'));
    // The question to the model names the source in English (a prompt, not the dashboard's words).
    const withSource = `${text}\n\nThe current source of the ${contextType.replace('email-', 'email ')}:\n\`\`\`tsx\n${source}\n\`\`\``;
    ask.mutate(
      { threadId, data: { context_type: contextType, messages: [...saved, { role: 'user', content: withSource }] } },
      {
        onSuccess: async (answer) => {
          const reply: ChatMessage = { role: 'assistant', content: answer.content.map((block) => block.text).join('\n') };
          const mine: ChatMessage = { role: 'user', content: text };
          // Shown at once; then saved in order (question, answer) and read back.
          queryClient.setQueryData(api.getListAiChatMessagesQueryKey(threadId), { messages: [...saved, mine, reply] });
          setQuestion('');
          setAsked(null);
          setAnnouncement(t('aiChat.answered'));
          try {
            await saveMessage.mutateAsync({ threadId, data: { message: mine } });
            await saveMessage.mutateAsync({ threadId, data: { message: reply } });
          } finally {
            await queryClient.invalidateQueries({ queryKey: api.getListAiChatMessagesQueryKey(threadId) });
          }
        },
        onError: () => {
          setAsked(null);
          setAnnouncement('');
        },
      },
    );
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send();
  }

  function newConversation() {
    const next = `${contextType}-${crypto.randomUUID()}`;
    localStorage.setItem(storageKey, next);
    ask.reset();
    saveMessage.reset();
    setAnnouncement('');
    setThreadId(next);
  }

  return (
    <Section title={t('aiChat.assistant')} description={t('aiChat.description')}>
      <div className="dash-ai-chat dash-stack">
        {thread.isPending ? <p className="dash-muted">{t('aiChat.loading')}</p> : null}
        <ErrorMessage error={thread.error} />
        {thread.isSuccess && saved.length === 0 && !asked ? <p className="dash-muted">{t('aiChat.none')}</p> : null}
        {saved.length > 0 || asked ? (
          <ol className="dash-ai-chat-log" aria-label={t('aiChat.conversation')}>
            {saved.map((message, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: saved messages only grow, in order
              <ChatEntry key={index} message={message} onUseCode={onUseCode} />
            ))}
            {asked ? <ChatEntry message={{ role: 'user', content: asked }} onUseCode={onUseCode} /> : null}
          </ol>
        ) : null}
        <p role="status" className="dash-muted">
          {announcement}
        </p>
        <ErrorMessage error={ask.error ?? saveMessage.error} />
        <form className="dash-stack" onSubmit={send}>
          <div className="dash-field">
            <label htmlFor={questionId}>{t('aiChat.ask')}</label>
            <textarea
              id={questionId}
              rows={3}
              value={question}
              aria-describedby={`${questionId}-hint`}
              onChange={(event) => setQuestion(event.target.value)}
              onKeyDown={onKeyDown}
            />
            <span id={`${questionId}-hint`} className="dash-muted">
              {t('aiChat.sendHint')}
            </span>
          </div>
          <div className="dash-row">
            <button type="submit" className="gh-primary" disabled={ask.isPending || !question.trim()}>
              {ask.isPending ? t('aiChat.waiting') : t('aiChat.send')}
            </button>
            <button type="button" onClick={newConversation} disabled={ask.isPending}>
              {t('aiChat.newConversation')}
            </button>
          </div>
        </form>
      </div>
    </Section>
  );
}

function ChatEntry({ message, onUseCode }: { message: ChatMessage; onUseCode: (code: string) => void }) {
  const { t } = useDashboardTranslation();
  const who = message.role === 'user' ? t('aiChat.you') : t('aiChat.assistant');
  let codeBlocks = 0;
  return (
    <li className="dash-ai-chat-message" data-role={message.role}>
      <div className="dash-ai-chat-who">{who}</div>
      {splitCode(message.content).map((part, index) => {
        if (part.kind === 'text') {
          return part.text.trim() ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a message never change
            <p key={index} className="dash-ai-chat-text">
              {part.text.trim()}
            </p>
          ) : null;
        }
        codeBlocks += 1;
        const label = t('aiChat.useCode', { n: codeBlocks });
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a message never change
          <div key={index} className="dash-stack">
            <pre className="dash-ai-chat-code">
              <code>{part.text}</code>
            </pre>
            {message.role === 'assistant' ? (
              <div>
                <button type="button" onClick={() => onUseCode(part.text)}>
                  {label}
                </button>
              </div>
            ) : null}
          </div>
        );
      })}
    </li>
  );
}

/** A message's text and its fenced code blocks (```lang … ```), in order. */
export function splitCode(text: string): Array<{ kind: 'text'; text: string } | { kind: 'code'; language: string; text: string }> {
  const parts: Array<{ kind: 'text'; text: string } | { kind: 'code'; language: string; text: string }> = [];
  const fence = /```([\w-]*)[^\n]*\n([\s\S]*?)```/g;
  let last = 0;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    parts.push({ kind: 'code', language: match[1] ?? '', text: (match[2] ?? '').replace(/\n$/, '') });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

function isChatMessage(value: unknown): value is ChatMessage {
  if (!value || typeof value !== 'object') return false;
  const { role, content } = value as { role?: unknown; content?: unknown };
  return (role === 'user' || role === 'assistant') && typeof content === 'string';
}
