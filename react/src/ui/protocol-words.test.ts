import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeDescriptions } from '../../../server/src/modules/authentication/oauth-provider/scopes.ts';
import { notificationCategories } from '../../../server/src/modules/messaging/notification-preferences/notification-categories.ts';
import type { MessageKey, Translate } from '../i18n/i18n-context.ts';
import { languages } from '../i18n/languages.ts';
import { notificationCategoryName, scopeDescription } from './protocol-words.ts';

/**
 * Issue #37: the words the server sends as data in English (the consent page's scope descriptions, the
 * notification categories' names) show in the UI's language: every scope and category the server defines
 * has its own catalogue words (none falls to the by-name wording), the same as the server's in English.
 */
const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../i18n/catalogues', `${language}.json`), 'utf8')) as Record<string, string>;

/** `t` over a catalogue, placeholders filled in plainly. */
const translator =
  (messages: Record<string, string>): Translate =>
  (key: MessageKey, values?: Record<string, unknown>) =>
    (messages[key] ?? `missing ${key}`).replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name]));

describe('scope descriptions and notification category names', () => {
  it('are the server’s words in English', () => {
    const t = translator(catalogue('en'));
    for (const [name, description] of Object.entries(scopeDescriptions)) expect(scopeDescription(t, { name })).toBe(description);
    for (const { name } of notificationCategories) expect(notificationCategoryName(t, { notification_category_name: name })).toBe(name);
    // An application's own scope, worded from its name as the server does.
    expect(scopeDescription(t, { name: 'read:notes' })).toBe('Use read:notes on your behalf');
  });

  it.each(languages.filter((language) => language !== 'en'))('have their own words in %s', (language) => {
    const english = translator(catalogue('en'));
    const t = translator(catalogue(language));
    const words = [
      ...Object.keys(scopeDescriptions).map((name) => [scopeDescription(english, { name }), scopeDescription(t, { name })]),
      ...notificationCategories.map(({ name }) => [
        notificationCategoryName(english, { notification_category_name: name }),
        notificationCategoryName(t, { notification_category_name: name }),
      ]),
    ];
    expect(words.filter(([inEnglish, translated]) => inEnglish === translated || translated?.startsWith('missing'))).toEqual([]);
  });
});
