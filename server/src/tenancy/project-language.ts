import { LanguageNotSupportedError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import type { ProjectConfig } from './project-config.ts';

/** A language the UI and the built-in emails ship in: the spec's `Language`. */
export type Language = Schema<'Language'>;

/** The spec's `Language` tags, in its order (languages.test.ts checks they are the spec's and the React package's). */
export const supportedLanguages = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ko', 'ar'] as const satisfies readonly Language[];

export const isSupportedLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value);

/** The project's default language (`project.defaultLanguage`), English when it sets none. */
export const projectLanguageOf = (config: ProjectConfig): Language => config.project.defaultLanguage ?? 'en';

/** `project.defaultLanguage` about to be saved: absent, or one of the supported tags exactly as written. */
export function assertValidDefaultLanguage(config: ProjectConfig): void {
  const value: unknown = config.project.defaultLanguage;
  if (value === undefined || isSupportedLanguage(value)) return;
  const path = 'project.defaultLanguage';
  throw new LanguageNotSupportedError(
    { path, supported: [...supportedLanguages] },
    `${path} must be one of ${supportedLanguages.join(', ')}; got ${JSON.stringify(value).slice(0, 100)}.`,
  );
}
