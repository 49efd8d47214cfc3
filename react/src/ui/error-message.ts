import { ConnectionError } from '@gatehouse/client';
import { KnownError } from '@gatehouse/protocol/errors';
import type { useErrorMessages } from '../i18n/i18n-context.ts';
import type { Language } from '../i18n/languages.ts';

type ErrorMessages = ReturnType<typeof useErrorMessages>;

/**
 * What a person should read for an error, in their language: a known error code's message from the
 * catalogue (`error.<CODE>`, with the error's details as values). The wire keeps Stack's English
 * messages (Stack's SDKs compare them); a code the catalogue has no words for shows its server message
 * in English and a generic sentence naming the code in the other languages.
 */
export function errorMessageOf(error: unknown, messages: ErrorMessages, language: Language): string {
  const i18n = { _: messages.t };
  if (error instanceof KnownError) {
    const key = `error.${error.code}`;
    if (messages.has(key)) return i18n._(key, (error.details ?? {}) as Record<string, unknown>);
    return language === 'en' ? error.message : i18n._('error.unknown', { code: error.code });
  }
  if (error instanceof ConnectionError) {
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    return offline ? i18n._('error.offline') : i18n._('error.unreachable', { origin: new URL(error.url).origin });
  }
  if (error instanceof LocalisedError) return i18n._(error.key);
  return i18n._('error.generic');
}

/** An error raised in the browser (not by the server) whose message is a catalogue key. */
export class LocalisedError extends Error {
  constructor(
    readonly key: string,
    options?: ErrorOptions,
  ) {
    super(key, options);
    this.name = 'LocalisedError';
  }
}
