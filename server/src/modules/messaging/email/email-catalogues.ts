import { type CompiledMessage, compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Language } from '../../../tenancy/project-language.ts';
import ar from './catalogues/ar.json' with { type: 'json' };
import de from './catalogues/de.json' with { type: 'json' };
import en from './catalogues/en.json' with { type: 'json' };
import es from './catalogues/es.json' with { type: 'json' };
import fr from './catalogues/fr.json' with { type: 'json' };
import ja from './catalogues/ja.json' with { type: 'json' };
import ko from './catalogues/ko.json' with { type: 'json' };
import ptBR from './catalogues/pt-BR.json' with { type: 'json' };
import zhCN from './catalogues/zh-CN.json' with { type: 'json' };

/**
 * The words of the built-in emails, one catalogue per language (`catalogues/<language>.json`, ICU
 * MessageFormat, as the React package's), for translators to edit. English's keys are the keys;
 * email-catalogues.test.ts finds missing, unused and untranslated keys and placeholders that differ.
 */
export type EmailMessageKey = keyof typeof en;

export const emailCatalogues: Record<Language, Record<EmailMessageKey, string>> = {
  en,
  de,
  fr,
  es,
  'pt-BR': ptBR,
  ja,
  'zh-CN': zhCN,
  ko,
  ar,
};

/** A message's parts: text, or a placeholder by name (`{project}`). */
export type MessagePart = string | { placeholder: string };

/**
 * A message compiled by Lingui's compiler (the React catalogues' own) into text and placeholders. Emails
 * take simple placeholders only: a plural or select (`{n, plural, ...}`) is refused, naming the key.
 */
export function messageParts(language: Language, key: EmailMessageKey): MessagePart[] {
  const source = emailCatalogues[language][key];
  const compiled: CompiledMessage = compileMessageOrThrow(source);
  return (typeof compiled === 'string' ? [compiled] : compiled).map((part) => {
    if (typeof part === 'string') return part;
    const [name, format] = part;
    if (format !== undefined || typeof name !== 'string')
      throw new Error(`catalogues/${language}.json: "${key}" may hold only simple placeholders such as {project}`);
    return { placeholder: name };
  });
}
