/**
 * `GET /users?query=` is a case-insensitive substring search (`ilike '%query%'`) of emails and display
 * names, answered by pg_trgm GIN indexes (migration 0075). A GIN probe costs what its trigrams' posting
 * lists cost: a trigram that nearly every value holds (`use`, `ser`, `er ` of `user-…@example.com`) is a
 * posting tree of ~200 pages on 1 000 000 rows that the probe decodes whole, about 20 ms per index, while
 * the query's rare trigrams alone (`432`, `321` of `user-4321`) find a few hundred candidates in 9 pages.
 *
 * So the index is asked for the longest part of the query made only of rare trigrams (the "probe"),
 * and the full pattern is checked on each candidate row. Every value that contains the query contains
 * any part of it, so the answer is the same set of rows. Which trigrams are frequent comes from the
 * planner's statistics of the column (its most common values and its histogram, a sample of the whole
 * table, as the GIN index holds every project's rows). Mistaken statistics cost time, never results.
 */

/**
 * A trigram held by more than this share of a column's rows is left out of the probe. Below it, a
 * posting list is cheap to read (about 30 pages for a fifth of 1 000 000 rows) and narrows the
 * candidates, each of which costs a heap page: on the bench, `-5321` (with `  5`, 11% of rows) finds 111
 * candidates on 6 pages where `5321` finds 300 on 115, and answers in 13 ms instead of 22 (load 15).
 */
export const frequentTrigramShare = 0.2;
/** Longer queries are searched as they are (their probe would be chosen in O(n³)). */
const longestProbedQuery = 64;

/** What `pg_stats` says of a searched column: most common values with their shares, and a histogram sample of the rest. */
export type ColumnStatistics = {
  nullShare: number;
  commonValues: readonly string[];
  commonShares: readonly number[];
  histogram: readonly string[];
};

const isWordCharacter = (character: string) => /[\p{L}\p{N}]/u.test(character);

/** Adds the trigrams of one word as pg_trgm cuts them: padded with two spaces before and one after where the word is bounded. */
function addWordTrigrams(into: Set<string>, word: readonly string[], padStart: boolean, padEnd: boolean): void {
  const padded = [...(padStart ? [' ', ' '] : []), ...word, ...(padEnd ? [' '] : [])];
  for (let index = 0; index + 3 <= padded.length; index++) into.add(padded.slice(index, index + 3).join(''));
}

/** The words of `characters` (runs of letters and digits), each with whether it touches the start or the end. */
function words(characters: readonly string[]): Array<{ word: string[]; atStart: boolean; atEnd: boolean }> {
  const found: Array<{ word: string[]; atStart: boolean; atEnd: boolean }> = [];
  let start = -1;
  for (let index = 0; index <= characters.length; index++) {
    const character = characters[index];
    if (character !== undefined && isWordCharacter(character)) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      found.push({ word: characters.slice(start, index), atStart: start === 0, atEnd: index === characters.length });
      start = -1;
    }
  }
  return found;
}

/** The trigrams the index holds for a value (pg_trgm's `show_trgm`: lower case, every word padded). */
export function valueTrigrams(value: string): Set<string> {
  const trigrams = new Set<string>();
  for (const { word } of words(Array.from(value.toLowerCase()))) addWordTrigrams(trigrams, word, true, true);
  return trigrams;
}

/** The trigrams pg_trgm asks the index for on `ilike '%text%'`: a word cut by a `%` is not padded on that side. */
export function substringTrigrams(text: readonly string[]): Set<string> {
  const trigrams = new Set<string>();
  for (const { word, atStart, atEnd } of words(text.map((character) => character.toLowerCase()))) {
    addWordTrigrams(trigrams, word, !atStart, !atEnd);
  }
  return trigrams;
}

/** The trigrams of more than `frequentTrigramShare` of the column's rows, estimated from its statistics. */
export function frequentTrigrams(statistics: ColumnStatistics): Set<string> {
  const shares = new Map<string, number>();
  const count = (value: string, share: number) => {
    for (const trigram of valueTrigrams(value)) shares.set(trigram, (shares.get(trigram) ?? 0) + share);
  };
  for (const [index, value] of statistics.commonValues.entries()) count(value, statistics.commonShares[index] ?? 0);
  const rest = 1 - statistics.nullShare - statistics.commonShares.reduce((sum, share) => sum + share, 0);
  for (const value of statistics.histogram) count(value, rest / statistics.histogram.length);
  return new Set([...shares].filter(([, share]) => share > frequentTrigramShare).map(([trigram]) => trigram));
}

const disjoint = (trigrams: Set<string>, frequent: Set<string>) => [...trigrams].every((trigram) => !frequent.has(trigram));

/**
 * The part of `query` to ask the trigram index for, or `undefined` to ask with the whole query (it has
 * no frequent trigram, or no part of it is made of rare trigrams only). Only for printable ASCII
 * queries: their lower case is per character in every locale, so a part's lower case is a part of the
 * query's and the probe cannot miss a row (a Greek final sigma, say, lowers by its context).
 */
export function searchProbe(query: string, frequent: Set<string>): string | undefined {
  if (frequent.size === 0 || query.length > longestProbedQuery || !/^[\x20-\x7e]*$/.test(query)) return undefined;
  const characters = Array.from(query);
  if (disjoint(substringTrigrams(characters), frequent)) return undefined;
  let best: string[] | undefined;
  for (let start = 0; start < characters.length; start++) {
    // A longer part holds every trigram of a shorter one: extend until a frequent trigram comes in.
    let end = start;
    let longest: string[] | undefined;
    while (end < characters.length) {
      const part = characters.slice(start, end + 1);
      const trigrams = substringTrigrams(part);
      if (!disjoint(trigrams, frequent)) break;
      if (trigrams.size > 0) longest = part;
      end++;
    }
    if (longest && longest.length > (best?.length ?? 0)) best = longest;
  }
  return best?.join('');
}
