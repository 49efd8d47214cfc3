import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CompiledMessage, compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { groupOf, messageGroups } from '../../react/src/i18n/message-groups.ts';
import type { GeneratedFile } from './generated-file.ts';
import { generatedHeader } from './generated-header.ts';

/** Where translators edit (one JSON file per language, ICU MessageFormat) and where the compiled modules go. */
export const catalogueDir = 'react/src/i18n/catalogues';
const outputDir = 'react/src/generated/i18n';
/** The pseudo-locale: English with every letter accented and each message bracketed, made from `en.json`. */
export const pseudoLanguage = 'en-XA';

type Catalogue = Record<string, string>;

/**
 * Each language's messages compiled by Lingui's own compiler (what `lingui compile` does), so the
 * browser needs only Lingui's small runtime and never an ICU parser, split into the message groups
 * (`<language>.<group>.ts`, one chunk each); `keys.ts` is the type of every key (English's), and
 * `loaders.ts` imports each chunk by a literal path so bundlers split them.
 */
export async function emitCatalogues(repoRoot: string): Promise<GeneratedFile[]> {
  const files = (await readdir(join(repoRoot, catalogueDir))).filter((name) => name.endsWith('.json')).sort();
  const catalogues = new Map<string, Catalogue>();
  for (const file of files) {
    catalogues.set(file.slice(0, -'.json'.length), JSON.parse(await readFile(join(repoRoot, catalogueDir, file), 'utf8')) as Catalogue);
  }
  const english = catalogues.get('en');
  if (!english) throw new Error(`${catalogueDir}/en.json is missing`);
  const compiled = [...catalogues].map(([language, catalogue]) => [language, compileCatalogue(language, catalogue)] as const);
  const pseudo = compileCatalogue('en', english, pseudoText);
  for (const key of Object.keys(pseudo)) pseudo[key] = ['⟦', ...(pseudo[key] as CompiledMessage), '⟧'];
  compiled.push([pseudoLanguage, pseudo]);

  const output: GeneratedFile[] = [];
  for (const [language, messages] of compiled) {
    for (const group of messageGroups) {
      const inGroup = Object.fromEntries(Object.entries(messages).filter(([key]) => groupOf(key) === group));
      output.push({ path: `${outputDir}/${language}.${group}.ts`, content: messagesModule(language, inGroup) });
    }
  }
  output.push({ path: `${outputDir}/keys.ts`, content: keysModule(Object.keys(english)) });
  output.push({ path: `${outputDir}/loaders.ts`, content: loadersModule(compiled.map(([language]) => language)) });
  return output;
}

function compileCatalogue(language: string, catalogue: Catalogue, mapText?: (text: string) => string): Record<string, CompiledMessage> {
  const messages: Record<string, CompiledMessage> = {};
  for (const key of Object.keys(catalogue).sort()) {
    try {
      messages[key] = compileMessageOrThrow(catalogue[key] as string, mapText);
    } catch (error) {
      throw new Error(`${catalogueDir}/${language}.json: "${key}" is not a valid ICU message (${String(error)})`);
    }
  }
  return messages;
}

const header = (language = 'en') => generatedHeader(`${catalogueDir}/${language === pseudoLanguage ? 'en' : language}.json`);

function messagesModule(language: string, messages: Record<string, CompiledMessage>): string {
  // Compiled arrays even for plain text: the production runtime warns about every plain string as uncompiled.
  return `${header(language)}import type { Messages } from '@lingui/core';\n\nexport const messages: Messages = ${JSON.stringify(messages, null, 1)};\n`;
}

function keysModule(keys: string[]): string {
  return `${header()}/** Every message key (English has them all; the catalogue check holds the other languages to them). */\nexport type MessageKey =\n${keys
    .sort()
    .map((key) => `  | ${JSON.stringify(key)}`)
    .join('\n')};\n`;
}

function loadersModule(languages: string[]): string {
  const lines = [
    generatedHeader(`${catalogueDir}/*.json`),
    `import type { Messages } from '@lingui/core';`,
    `import type { Language } from '../../i18n/languages.ts';`,
    `import type { MessageGroup } from '../../i18n/message-groups.ts';`,
    '',
    "/** One chunk per language and message group: a page downloads the active language's groups it shows. */",
    'export const loadMessages: Record<Language, Record<MessageGroup, () => Promise<{ messages: Messages }>>> = {',
  ];
  for (const language of languages) {
    lines.push(`  ${JSON.stringify(language)}: {`);
    for (const group of messageGroups) lines.push(`    ${group}: () => import('./${language}.${group}.ts'),`);
    lines.push('  },');
  }
  lines.push('};', '');
  return lines.join('\n');
}

const accents: Record<string, string> = Object.fromEntries(
  [...'abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ'].map((letter, at) => [letter, [...'åƀçđéĝĥîķĺñöŕšţûýžÅƁÇĐÉĜĤÎĶĹÑÖŔŠŢÛÝŽ'][at] as string]),
);

/** Accents the literal text only (Lingui's compiler maps text, never placeholders or plural keywords). */
export const pseudoText = (value: string): string => [...value].map((letter) => accents[letter] ?? letter).join('');
