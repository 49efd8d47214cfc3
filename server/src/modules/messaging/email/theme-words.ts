import type { Language } from '../../../tenancy/project-language.ts';
import { messageParts } from './email-catalogues.ts';

const rightToLeft = new Set<Language>(['ar']);

/** How a language is written: `rtl` for Arabic, `ltr` otherwise (the `dir` of an email's `<html>`). */
export const directionOf = (language: Language): 'ltr' | 'rtl' => (rightToLeft.has(language) ? 'rtl' : 'ltr');

/**
 * The theme's own words in the recipient's language (the `theme.*` keys of `catalogues/<language>.json`),
 * given to every theme as its `footer` prop. The unsubscribe sentence is split at its link so a theme
 * can put the link where the language puts it: `{footer.beforeUnsubscribe}<Link>{footer.unsubscribe}</Link>{footer.afterUnsubscribe}`.
 */
export type ThemeFooter = { unsubscribe: string; beforeUnsubscribe: string; afterUnsubscribe: string };

/** What a theme component is given besides `children` and `unsubscribeLink`. */
export type ThemeLanguageProps = { lang: Language; dir: 'ltr' | 'rtl'; footer: ThemeFooter };

const made = new Map<Language, ThemeLanguageProps>();

/** The theme's language props (made once per language). */
export function themeLanguageProps(language: Language): ThemeLanguageProps {
  let props = made.get(language);
  if (props) return props;
  const [unsubscribe] = messageParts(language, 'theme.unsubscribe');
  const sentence = messageParts(language, 'theme.unsubscribeSentence');
  const at = sentence.findIndex((part) => typeof part !== 'string' && part.placeholder === 'unsubscribe');
  const text = (parts: typeof sentence) => parts.map((part) => (typeof part === 'string' ? part : '')).join('');
  if (typeof unsubscribe !== 'string' || at < 0)
    throw new Error(`catalogues/${language}.json: "theme.unsubscribeSentence" must hold {unsubscribe}, "theme.unsubscribe" only text`);
  props = {
    lang: language,
    dir: directionOf(language),
    footer: { unsubscribe, beforeUnsubscribe: text(sentence.slice(0, at)), afterUnsubscribe: text(sentence.slice(at + 1)) },
  };
  made.set(language, props);
  return props;
}
