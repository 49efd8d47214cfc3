import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languages } from '../../../react/src/i18n/languages.ts';
import { languageProblems, namedKeys, readCatalogue, sourceText } from './catalogue-check.ts';

/**
 * The dashboard's catalogues (`dashboard/src/i18n/catalogues/<language>.json`, apart from the handler's):
 * every shipped language has exactly English's keys with the same placeholders and its own words, and the
 * dashboard's code names every English key and no other.
 */
const dashboard = resolve(import.meta.dirname, '../../../dashboard/src');
const catalogueDir = join(dashboard, 'i18n/catalogues');
const english = readCatalogue(catalogueDir, 'en');

/** Words a language rightly writes as English does (loanwords and product terms), by key. */
const sameAsEnglish: Partial<Record<(typeof languages)[number], string[]>> = {
  de: ['nav.webhooks', 'nav.teams', 'shell.themeSystem', 'teams.team', 'sso.oidc'],
  fr: ['nav.webhooks', 'nav.config', 'stripeComponents.notifications', 'sso.oidc'],
  es: ['nav.webhooks', 'sso.oidc'],
  'pt-BR': ['nav.webhooks', 'sso.oidc'],
  // The protocol's name ("OpenID Connect") is written as it is in every language.
  ja: ['sso.oidc'],
  'zh-CN': ['sso.oidc'],
  ko: ['sso.oidc'],
  ar: ['sso.oidc'],
};

describe('the dashboard catalogues', () => {
  it('has one catalogue file per shipped language and no other', () => {
    const files = readdirSync(catalogueDir).filter((name) => name.endsWith('.json'));
    expect(files.map((name) => name.replace(/\.json$/, '')).sort()).toEqual([...languages].sort());
  });

  it.each(languages.filter((language) => language !== 'en'))('%s has every English key, no other, all translated', (language) => {
    expect(languageProblems(english, readCatalogue(catalogueDir, language), sameAsEnglish[language])).toEqual({
      missing: [],
      unused: [],
      placeholdersDiffer: [],
      untranslated: [],
    });
  });

  it('finds a missing, an unused and an untranslated key', () => {
    const german = { 'nav.users': 'Users', 'nav.gone': 'Weg' };
    expect(languageProblems({ 'nav.users': 'Users', 'nav.teams': 'Teams {count}' }, german)).toEqual({
      missing: ['nav.teams'],
      unused: ['nav.gone'],
      placeholdersDiffer: ['nav.teams'],
      untranslated: ['nav.users'],
    });
  });

  it('the dashboard uses every English key, and every key it names exists', () => {
    const named = namedKeys(sourceText(dashboard));
    expect({ unused: Object.keys(english).filter((key) => !named.has(key)) }).toEqual({ unused: [] });
    expect({ unknown: [...named].filter((key) => !(key in english)) }).toEqual({ unknown: [] });
  });
});
