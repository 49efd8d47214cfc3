import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { supportedLanguages } from '../../../tenancy/project-language.ts';
import { type EmailMessageKey, emailCatalogues, messageParts } from './email-catalogues.ts';
import { newDeviceSignInTemplateSource } from './new-device-sign-in-template.ts';
import { themeLanguageProps } from './theme-words.ts';
import { type CatalogueEmailKind, systemTemplateSource } from './system-templates.ts';

/**
 * The catalogue check of the built-in emails (as react/src/i18n/catalogues.test.ts is the UI's): one catalogue per
 * language, exactly English's keys (none missing, none unused), the same placeholders, no sentence left in English,
 * only simple placeholders; and the templates use every key.
 */
const english = emailCatalogues.en;
const keys = Object.keys(english) as EmailMessageKey[];
const kinds: CatalogueEmailKind[] = ['email_verification', 'password_reset', 'magic_link', 'team_invitation', 'sign_in_invitation'];
const placeholdersOf = (language: (typeof supportedLanguages)[number], key: EmailMessageKey) =>
  messageParts(language, key)
    .flatMap((part) => (typeof part === 'string' ? [] : [part.placeholder]))
    .sort();

describe('the email catalogues', () => {
  it('has one catalogue file per supported language and no other', () => {
    const files = readdirSync(new URL('./catalogues', import.meta.url)).filter((name) => name.endsWith('.json'));
    expect(files.map((name) => name.slice(0, -'.json'.length)).sort()).toEqual([...supportedLanguages].sort());
  });

  it.each(supportedLanguages.filter((language) => language !== 'en'))(
    '%s has every key, no other, the same placeholders, no English left',
    (language) => {
      const catalogue = emailCatalogues[language] as Record<string, string>;
      expect({ missing: keys.filter((key) => !(key in catalogue)) }).toEqual({ missing: [] });
      expect({ unused: Object.keys(catalogue).filter((key) => !(key in english)) }).toEqual({ unused: [] });
      expect({
        placeholdersDiffer: keys.filter((key) => placeholdersOf(language, key).join() !== placeholdersOf('en', key).join()),
      }).toEqual({ placeholdersDiffer: [] });
      expect({ untranslated: keys.filter((key) => catalogue[key] === english[key] && /[a-z]{3}/.test(english[key])) }).toEqual({
        untranslated: [],
      });
    },
  );

  it('refuses a plural or select in an email message, naming the language and key', () => {
    const saved = emailCatalogues.de['signInCode.paragraph'];
    emailCatalogues.de['signInCode.paragraph'] = '{count, plural, one {# Code} other {# Codes}}';
    try {
      expect(() => systemTemplateSource('magic_link', 'de')).toThrow(
        'catalogues/de.json: "signInCode.paragraph" may hold only simple placeholders',
      );
    } finally {
      emailCatalogues.de['signInCode.paragraph'] = saved;
    }
  });

  it('is used whole: every English message is in a built-in template, and every language makes every template', () => {
    const sources = [...kinds.map((kind) => systemTemplateSource(kind, 'en')), newDeviceSignInTemplateSource('en')].join('\n');
    const expressions: Record<string, string> = {
      project: 'project.display_name',
      name: 'user.display_name',
      team: 'variables.teamDisplayName',
      otp: 'variables.otp',
      device: 'variables.deviceName',
      place: 'variables.placeName',
      time: 'variables.signInTime',
    };
    // The theme's words are its `footer` prop (theme-words.ts, checked below), not a template's text.
    const unused = keys
      .filter((key) => !key.startsWith('theme.'))
      .filter((key) => {
        const jsx = messageParts('en', key)
          .map((part) => (typeof part === 'string' ? part : `{${expressions[part.placeholder]}}`))
          .join('');
        const literal = messageParts('en', key)
          .map((part) => (typeof part === 'string' ? part : `\${${expressions[part.placeholder]}}`))
          .join('');
        return !sources.includes(jsx) && !sources.includes(literal);
      });
    expect({ unused }).toEqual({ unused: [] });
    for (const language of supportedLanguages) {
      for (const kind of kinds) expect(systemTemplateSource(kind, language)).toContain('EmailTemplate');
      expect(newDeviceSignInTemplateSource(language)).toContain('EmailTemplate');
    }
  });

  it("gives every theme its footer words in each language: the sentence split at its link, each language's own", () => {
    const footers = supportedLanguages.map((language) => themeLanguageProps(language).footer);
    expect(footers[0]).toEqual({ unsubscribe: 'Unsubscribe', beforeUnsubscribe: '', afterUnsubscribe: ' from emails like this one.' });
    for (const [index, language] of supportedLanguages.entries()) {
      const { unsubscribe, beforeUnsubscribe, afterUnsubscribe } = footers[index]!;
      expect(unsubscribe).toBe(emailCatalogues[language]['theme.unsubscribe']);
      expect(`${beforeUnsubscribe}{unsubscribe}${afterUnsubscribe}`).toBe(emailCatalogues[language]['theme.unsubscribeSentence']);
    }
    expect(new Set(footers.map((footer) => footer.unsubscribe)).size).toBe(supportedLanguages.length);
    expect(themeLanguageProps('ar')).toMatchObject({ lang: 'ar', dir: 'rtl' });
    expect(themeLanguageProps('de')).toMatchObject({ lang: 'de', dir: 'ltr' });
  });
});
