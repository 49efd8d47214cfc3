import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CompiledMessage, compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { pseudoLanguage, pseudoText } from './emit-catalogues.ts';
import type { GeneratedFile } from './generated-file.ts';
import { generatedHeader } from './generated-header.ts';

/** The dashboard's own catalogues (one JSON file per language), apart from the handler's so each bundle carries only its words. */
export const dashboardCatalogueDir = 'dashboard/src/i18n/catalogues';
const outputDir = 'dashboard/src/generated/i18n';

type Catalogue = Record<string, string>;

/**
 * Each language's dashboard messages compiled by Lingui's compiler (as the handler's are) into one module
 * per language, the `en-XA` pseudo-locale made from English, `keys.ts` (the type of every key) and
 * `loaders.ts`, which imports each language by a literal path so Vite makes one chunk per language.
 */
export async function emitDashboardCatalogues(repoRoot: string): Promise<GeneratedFile[]> {
  const files = (await readdir(join(repoRoot, dashboardCatalogueDir))).filter((name) => name.endsWith('.json')).sort();
  const compiled: Array<[string, Record<string, CompiledMessage>]> = [];
  let english: Catalogue | undefined;
  for (const file of files) {
    const language = file.slice(0, -'.json'.length);
    const catalogue = JSON.parse(await readFile(join(repoRoot, dashboardCatalogueDir, file), 'utf8')) as Catalogue;
    if (language === 'en') english = catalogue;
    compiled.push([language, compile(language, catalogue)]);
  }
  if (!english) throw new Error(`${dashboardCatalogueDir}/en.json is missing`);
  const pseudo = compile('en', english, pseudoText);
  for (const key of Object.keys(pseudo)) pseudo[key] = ['⟦', ...(pseudo[key] as CompiledMessage), '⟧'];
  compiled.push([pseudoLanguage, pseudo]);

  const header = (language: string) => generatedHeader(`${dashboardCatalogueDir}/${language === pseudoLanguage ? 'en' : language}.json`);
  const output: GeneratedFile[] = compiled.map(([language, messages]) => ({
    path: `${outputDir}/${language}.ts`,
    content: `${header(language)}import type { Messages } from '@lingui/core';\n\nexport const messages: Messages = ${JSON.stringify(messages, null, 1)};\n`,
  }));
  output.push({
    path: `${outputDir}/keys.ts`,
    content: `${header('en')}/** Every dashboard message key (English has them all; the catalogue check holds the other languages to them). */\nexport type DashboardMessageKey =\n${Object.keys(
      english,
    )
      .sort()
      .map((key) => `  | ${JSON.stringify(key)}`)
      .join('\n')};\n`,
  });
  output.push({
    path: `${outputDir}/loaders.ts`,
    content: [
      generatedHeader(`${dashboardCatalogueDir}/*.json`),
      `import type { Messages } from '@lingui/core';`,
      `import type { Language } from '@gatehouse/react';`,
      '',
      "/** One chunk per language: the dashboard downloads only the active language's messages. */",
      'export const loadDashboardMessages: Record<Language, () => Promise<{ messages: Messages }>> = {',
      ...compiled.map(([language]) => `  ${JSON.stringify(language)}: () => import('./${language}.ts'),`),
      '};',
      '',
    ].join('\n'),
  });
  return output;
}

function compile(language: string, catalogue: Catalogue, mapText?: (text: string) => string): Record<string, CompiledMessage> {
  const messages: Record<string, CompiledMessage> = {};
  for (const key of Object.keys(catalogue).sort()) {
    try {
      messages[key] = compileMessageOrThrow(catalogue[key] as string, mapText);
    } catch (error) {
      throw new Error(`${dashboardCatalogueDir}/${language}.json: "${key}" is not a valid ICU message (${String(error)})`);
    }
  }
  return messages;
}
