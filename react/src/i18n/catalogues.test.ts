import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { languages } from './languages.ts';

/**
 * The catalogue check (issue #37): every language has exactly English's keys (no missing, no unused
 * translation), with the same placeholders; every English key is used by the code and every key the
 * code names exists; each `error.<CODE>` names a code of the spec's error catalogue.
 */
const here = dirname(fileURLToPath(import.meta.url));
const catalogueDir = join(here, 'catalogues');
const readCatalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(catalogueDir, `${language}.json`), 'utf8')) as Record<string, string>;
const english = readCatalogue('en');

/** The argument names a message uses (`{name}`, `{count, plural, ...}`), not the words inside its branches. */
const placeholdersOf = (message: string): string[] =>
  [...new Set([...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((match) => match[1] as string))].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
const source = sourceFiles(join(here, '..'))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
/** Keys the code names literally: `t('signIn.title')`, `new LocalisedError('error.oauthOtherTab')`. */
const namedKeys = new Set([...source.matchAll(/\b(?:t|LocalisedError)\(\s*'([\w.]+)'/g)].map((match) => match[1] as string));
const errorCodes = new Set(
  [...readFileSync(join(here, '../../../protocol/src/generated/errors.ts'), 'utf8').matchAll(/^ {2}\| "([A-Z0-9_]+)"$/gm)].map(
    (match) => match[1] as string,
  ),
);

describe('the message catalogues', () => {
  it('has one catalogue file per shipped language and no other', () => {
    const files = readdirSync(catalogueDir).filter((name) => name.endsWith('.json'));
    expect(files.map((name) => name.replace(/\.json$/, '')).sort()).toEqual([...languages].sort());
  });

  it.each(languages.filter((language) => language !== 'en'))(
    '%s has every English key, no other, with the same placeholders',
    (language) => {
      const catalogue = readCatalogue(language);
      expect({ missing: Object.keys(english).filter((key) => !(key in catalogue)) }).toEqual({ missing: [] });
      expect({ unused: Object.keys(catalogue).filter((key) => !(key in english)) }).toEqual({ unused: [] });
      const differing = Object.keys(english).filter(
        (key) => placeholdersOf(english[key] as string).join() !== placeholdersOf(catalogue[key] ?? '').join(),
      );
      expect({ placeholdersDiffer: differing }).toEqual({ placeholdersDiffer: [] });
      expect({
        untranslated: Object.keys(english).filter((key) => catalogue[key] === english[key] && /[a-z]{3}/.test(english[key] as string)),
      }).toEqual({
        untranslated: [],
      });
    },
  );

  it('uses every English key, and every key the code names exists', () => {
    const codeKeys = new Set([
      'error.generic',
      'error.unknown',
      'error.offline',
      'error.unreachable',
      'error.oauthOtherTab',
      'error.oauthCallbackFailed',
    ]);
    const unused = Object.keys(english).filter((key) => {
      if (namedKeys.has(key)) return false;
      // error.<CODE> is looked up by the error's code (ui/error-message.ts).
      return !(key.startsWith('error.') && (errorCodes.has(key.slice('error.'.length)) || codeKeys.has(key)));
    });
    expect({ unused }).toEqual({ unused: [] });
    expect({ unknown: [...namedKeys].filter((key) => !(key in english)) }).toEqual({ unknown: [] });
  });

  it('names only error codes of the spec', () => {
    const notCodes = Object.keys(english)
      .filter((key) => /^error\.[A-Z0-9_]+$/.test(key))
      .filter((key) => !errorCodes.has(key.slice('error.'.length)));
    expect(errorCodes.size).toBeGreaterThan(100);
    expect(notCodes).toEqual([]);
  });
});
