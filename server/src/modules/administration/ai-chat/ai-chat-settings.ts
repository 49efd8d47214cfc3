import { readIntegerSetting, settingNumber } from '../../../config/settings.ts';

/** The AI provider, read from the environment at start (a bad value stops it), or given by a test. */
export type AiChatSettings = {
  /** Base URL of an OpenAI-compatible API (AI_PROVIDER_BASE_URL, e.g. `https://api.openai.com/v1`); the chat goes to `{base}/chat/completions`. */
  baseUrl: string | null;
  /** Bearer key of the provider (AI_PROVIDER_API_KEY); optional, for providers that need none (a local model server). */
  apiKey: string | null;
  /** Model name sent with every request (AI_PROVIDER_MODEL). */
  model: string | null;
  /** Longest wait for the provider's answer, in milliseconds (AI_PROVIDER_TIMEOUT_MS, default 30 000). */
  timeoutMs: number;
};

export const defaultAiProviderTimeoutMs = settingNumber('AI_PROVIDER_TIMEOUT_MS');

export function readAiChatSettings(environment: NodeJS.ProcessEnv): AiChatSettings {
  const baseUrl = environment.AI_PROVIDER_BASE_URL || null;
  if (baseUrl !== null) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(baseUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      throw new Error(`AI_PROVIDER_BASE_URL must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  }
  const timeoutMs =
    readIntegerSetting(environment, 'AI_PROVIDER_TIMEOUT_MS', {
      min: 1,
      max: 600_000,
      expected: 'a whole number of milliseconds from 1 to 600000',
    }) ?? defaultAiProviderTimeoutMs;
  return {
    baseUrl,
    apiKey: environment.AI_PROVIDER_API_KEY || null,
    model: environment.AI_PROVIDER_MODEL || null,
    timeoutMs,
  };
}
