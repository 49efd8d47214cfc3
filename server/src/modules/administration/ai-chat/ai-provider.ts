import { AiProviderError, AiProviderTimeoutError } from '@gatehouse/protocol/errors';
import type OpenAI from 'openai';

/** A message as the provider's chat completions API takes it. */
export type ProviderMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type AiProviderOptions = { baseUrl: string; apiKey: string | null; model: string; timeoutMs: number };

/**
 * An OpenAI-compatible provider (`POST {base}/chat/completions`) through the `openai` SDK, asked once (no retries)
 * with one deadline for the whole exchange: the SDK's own timeout stops waiting for the answer's headers only, so
 * a signal that aborts at the deadline also bounds reading the body. Every failure becomes a catalogued error:
 * the deadline `AI_PROVIDER_TIMEOUT`, anything else (an error status, no connection, an answer that is not a chat
 * completion) `AI_PROVIDER_ERROR` with the provider's status.
 */
export class AiProvider {
  private client: OpenAI | undefined;

  constructor(private readonly options: AiProviderOptions) {}

  async complete(messages: ProviderMessage[]): Promise<string> {
    const { default: OpenAISdk } = await import('openai');
    const client = this.clientOf(OpenAISdk);
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.create({ model: this.options.model, messages }, { signal: deadline });
    } catch (error) {
      if (deadline.aborted || error instanceof OpenAISdk.APIConnectionTimeoutError)
        throw new AiProviderTimeoutError({ timeout_ms: this.options.timeoutMs });
      if (error instanceof OpenAISdk.APIError && typeof error.status === 'number')
        throw new AiProviderError({ provider_status: error.status }, `The AI provider answered with an error (HTTP ${error.status}).`);
      throw new AiProviderError({ provider_status: null }, 'The AI provider could not be reached or its answer could not be read.');
    }
    const text = (completion as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
    if (typeof text !== 'string')
      throw new AiProviderError({ provider_status: 200 }, 'The AI provider answered something that is not a chat completion.');
    return text;
  }

  private clientOf(OpenAISdk: typeof OpenAI): OpenAI {
    this.client ??= new OpenAISdk({
      baseURL: this.options.baseUrl,
      // Providers that need no key (a local model server) get a placeholder: the SDK requires one.
      apiKey: this.options.apiKey ?? 'no-key',
      timeout: this.options.timeoutMs,
      maxRetries: 0,
      // Never the SDK's defaults from OPENAI_* variables: only the AI_PROVIDER_* settings apply.
      organization: null,
      project: null,
    });
    return this.client;
  }
}
