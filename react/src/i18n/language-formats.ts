import type { Language, languages } from './languages.ts';

// Apart from languages.ts: the provider (in every page's first chunk) imports that file, and what is used only
// by lazily loaded parts (account settings, the dashboard) would otherwise weigh on the sign-in page.

/**
 * The locale `Intl` formats a language's dates and numbers in: `en-XA` is no locale `Intl` knows, and the
 * pseudo-locale's words are English's, so it formats as English.
 */
export const intlLocaleOf = (language: Language): string => (language === 'en-XA' ? 'en' : language);

/** Each language named in itself, so a person finds theirs whatever language the page speaks now. */
export const languageOwnNames: Record<(typeof languages)[number], string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  'zh-CN': '简体中文',
  ko: '한국어',
  ar: 'العربية',
};
