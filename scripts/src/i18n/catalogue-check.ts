import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The catalogue check shared by the UI's catalogues (issue #37): a language's file against English's —
 * missing keys, unused keys (English lacks them), differing placeholders, messages left in English — and
 * the code against English (keys it never names, keys it names that English lacks).
 */
export type Catalogue = Record<string, string>;

export const readCatalogue = (dir: string, language: string): Catalogue =>
  JSON.parse(readFileSync(join(dir, `${language}.json`), 'utf8')) as Catalogue;

/** The argument names a message uses (`{name}`, `{count, plural, ...}`), not the words inside its branches. */
export const placeholdersOf = (message: string): string[] =>
  [...new Set([...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((match) => match[1] as string))].sort();

export type LanguageProblems = { missing: string[]; unused: string[]; placeholdersDiffer: string[]; untranslated: string[] };

/**
 * What is wrong with one language's catalogue. `sameAsEnglish` names the keys whose words are rightly the
 * same as English's in this language (a loanword: "Webhooks" in German); any other message equal to
 * English's with a word in it is untranslated.
 */
export function languageProblems(english: Catalogue, catalogue: Catalogue, sameAsEnglish: readonly string[] = []): LanguageProblems {
  return {
    missing: Object.keys(english).filter((key) => !(key in catalogue)),
    unused: Object.keys(catalogue).filter((key) => !(key in english)),
    placeholdersDiffer: Object.keys(english).filter(
      (key) => placeholdersOf(english[key] as string).join() !== placeholdersOf(catalogue[key] ?? '').join(),
    ),
    untranslated: Object.keys(english).filter(
      (key) => catalogue[key] === english[key] && /[a-z]{3}/.test(english[key] as string) && !sameAsEnglish.includes(key),
    ),
  };
}

/** The `.ts`/`.tsx` sources under a folder, tests and generated code aside, as one text. */
export function sourceText(dir: string): string {
  const files = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
      const path = join(at, entry.name);
      if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'testing' ? [] : files(path);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return files(dir)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** Keys the code names literally in a call of one of `functions`: `t('nav.users')`. */
export const namedKeys = (source: string, functions: readonly string[] = ['t']): Set<string> =>
  new Set([...source.matchAll(new RegExp(`\\b(?:${functions.join('|')})\\(\\s*'([\\w.]+)'`, 'g'))].map((match) => match[1] as string));
