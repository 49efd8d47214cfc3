/**
 * A translated sentence split around one placeholder, for a link or other element in the middle of it:
 * `const [before, after] = around((mark) => t('apiKeys.intro', { page: mark }))` (each language puts the
 * placeholder where its grammar wants it).
 */
export function around(translate: (mark: string) => string): [string, string] {
  const mark = '\u0000';
  const text = translate(mark);
  const at = text.indexOf(mark);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + mark.length)];
}
