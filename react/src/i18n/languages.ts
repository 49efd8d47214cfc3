/** The languages the UI ships in (BCP 47 tags); `en-XA` is the pseudo-locale that shows hard-coded strings. */
export const languages = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ko', 'ar'] as const;
export type Language = (typeof languages)[number] | 'en-XA';

/** Written right to left: the provider puts `dir="rtl"` on the document. */
const rightToLeft = new Set<string>(['ar']);
export const directionOf = (language: Language): 'ltr' | 'rtl' => (rightToLeft.has(language) ? 'rtl' : 'ltr');

/**
 * The first of the wanted tags that the UI has: exactly (`pt-BR`, case aside), else by its primary language
 * (`de-AT` → `de`, `pt` → `pt-BR`, `zh-Hans-CN` → `zh-CN`); undefined when none matches.
 */
export function matchLanguage(wanted: readonly (string | null | undefined)[]): Language | undefined {
  const known: readonly Language[] = [...languages, 'en-XA'];
  for (const tag of wanted) {
    if (!tag) continue;
    const exact = known.find((language) => language.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const primary = tag.split(/[-_]/)[0]?.toLowerCase();
    const sameLanguage = languages.find((language) => language.split('-')[0] === primary);
    if (sameLanguage) return sameLanguage;
  }
  return undefined;
}

/** The first of the wanted languages the UI has (see matchLanguage); English when none matches. */
export const pickLanguage = (wanted: readonly (string | null | undefined)[]): Language => matchLanguage(wanted) ?? 'en';
