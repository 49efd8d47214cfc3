import { type I18n, setupI18n } from '@lingui/core';
import { createContext, useContext } from 'react';
import type { MessageKey } from '../generated/i18n/keys.ts';
import { loadMessages } from '../generated/i18n/loaders.ts';
import type { Language } from './languages.ts';
import { groupOf, type MessageGroup } from './message-groups.ts';

export type { MessageKey };
export type Translate = (key: MessageKey, values?: Record<string, unknown>) => string;

/** The active language's Lingui instance and which of its message groups have arrived. */
export type Localisation = {
  /** The active language: known at once, or once the project's default language has arrived. */
  language: Language | Promise<Language>;
  i18n: I18n;
  /** A group's promise while it loads; `true` once its messages are in `i18n`. */
  groups: Partial<Record<MessageGroup, Promise<void> | true>>;
  /**
   * Puts another localisation in place (the language the person picked); absent when the provider's `lang`
   * prop fixes the language. The new one is made outside render (its loading must outlive a suspended render).
   */
  choose: ((next: Localisation) => void) | undefined;
};

export function createLocalisation(language: Language | Promise<Language>, choose: Localisation['choose']): Localisation {
  const localisation: Localisation = { language, i18n: setupI18n(), groups: {}, choose };
  void ensureGroup(localisation, 'main');
  return localisation;
}

/** Starts loading a group once (after the language is known); resolves when its messages are in. */
function ensureGroup(localisation: Localisation, group: MessageGroup): Promise<void> | true {
  const known = localisation.groups[group];
  if (known) return known;
  const loading = Promise.resolve(localisation.language).then(async (language) => {
    const { messages } = await loadMessages[language][group]();
    const { i18n } = localisation;
    i18n.load(language, messages);
    if (i18n.locale !== language) i18n.activate(language);
    localisation.groups[group] = true;
  });
  localisation.groups[group] = loading;
  return loading;
}

/** During render: the group's messages, or suspend (throw the promise) until they arrive. */
function requireGroup(localisation: Localisation, group: MessageGroup): void {
  const state = ensureGroup(localisation, group);
  if (state !== true) throw state;
}

export const LocalisationContext = createContext<Localisation | null>(null);

/**
 * The UI's words in the active language: `t('signIn.title')`, `t('signUp.forProject', { project })`.
 * Suspends while the language's main messages load, as data hooks do; a key of another group
 * (`error.*`, the less visited pages) suspends the component calling `t` the first time its group is
 * needed. Dates and numbers go through `Intl` (`{count, number}`, `{when, date}` in the messages).
 */
export function useTranslation(): { t: Translate; i18n: I18n; language: Language } {
  const localisation = useContext(LocalisationContext);
  if (!localisation) throw new Error('Gatehouse components must be rendered inside <GatehouseProvider>');
  requireGroup(localisation, 'main');
  const { i18n } = localisation;
  // The main group has arrived, so the language is known.
  const language = i18n.locale as Language;
  const t: Translate = (key, values) => {
    requireGroup(localisation, groupOf(key));
    return i18n._(key, values);
  };
  return { t, i18n, language };
}

/** Renders an error code's words: reading a key suspends until its group has loaded. */
export function useErrorMessages(): { has(key: string): boolean; t(key: string, values?: Record<string, unknown>): string } {
  const localisation = useContext(LocalisationContext);
  if (!localisation) throw new Error('Gatehouse components must be rendered inside <GatehouseProvider>');
  requireGroup(localisation, 'main');
  const { i18n } = localisation;
  // Each key's group is required when it is read, not up front: the words for a failed network are in `main`
  // and must show while the `errors` chunk cannot be fetched.
  return {
    has: (key) => {
      requireGroup(localisation, groupOf(key));
      return key in i18n.messages;
    },
    t: (key, values) => {
      requireGroup(localisation, groupOf(key));
      return i18n._(key, values);
    },
  };
}
