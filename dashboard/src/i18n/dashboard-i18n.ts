import { intlLocaleOf, type Language, pickLanguage } from '@gatehouse/react';
import { type I18n, setupI18n } from '@lingui/core';
import { createContext, useContext } from 'react';
import type { DashboardMessageKey } from '../generated/i18n/keys.ts';
import { loadDashboardMessages } from '../generated/i18n/loaders.ts';

export type { DashboardMessageKey };
export type Translate = (key: DashboardMessageKey, values?: Record<string, unknown>) => string;

const storageKey = 'gatehouse-dashboard-language';

/** The owner's choice from the language menu, else the first of the browser's languages the dashboard has, else English. */
export function initialLanguage(): Language {
  return pickLanguage([localStorage.getItem(storageKey), ...navigator.languages]);
}

export function rememberLanguage(language: Language): void {
  localStorage.setItem(storageKey, language);
}

export const LanguageContext = createContext<{ language: Language; setLanguage: (language: Language) => void }>({
  language: 'en',
  setLanguage: () => {},
});

/** One Lingui instance per language, made when its chunk arrives (only the languages shown are ever downloaded). */
const loaded = new Map<Language, I18n | Promise<void>>();

function languageI18n(language: Language): I18n {
  const known = loaded.get(language);
  if (known && !(known instanceof Promise)) return known;
  if (known) throw known;
  const loading = loadDashboardMessages[language]().then(({ messages }) => {
    loaded.set(language, setupI18n({ locale: language, messages: { [language]: messages } }));
  });
  loaded.set(language, loading);
  throw loading;
}

export type DashboardTranslation = {
  t: Translate;
  language: Language;
  /** A date and time in the active language (`—` for none). */
  formatDate: (millis: number | null | undefined) => string;
  formatNumber: (value: number) => string;
  /** A money string (`"9.99"`) in its ISO currency, as the language writes money (`$9.99`, `9,99 $`); an unknown code as given. */
  formatMoney: (amount: string, currency: string) => string;
};

/**
 * The dashboard's words in the active language: `t('nav.users')`, with values for placeholders (ICU plurals
 * by the language's rules). Suspends, as data hooks do, until the language's messages have arrived.
 */
export function useDashboardTranslation(): DashboardTranslation {
  const { language } = useContext(LanguageContext);
  const i18n = languageI18n(language);
  const intlLocale = intlLocaleOf(language);
  return {
    t: (key, values) => i18n._(key, values),
    language,
    formatDate: (millis) =>
      millis === null || millis === undefined
        ? '—'
        : new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(millis)),
    formatNumber: (value) => new Intl.NumberFormat(intlLocale).format(value),
    formatMoney: (amount, currency) => {
      try {
        return new Intl.NumberFormat(intlLocale, { style: 'currency', currency }).format(Number(amount));
      } catch {
        return `${amount} ${currency}`;
      }
    },
  };
}
