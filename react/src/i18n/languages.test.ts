import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { directionOf, languages, matchLanguage, pickLanguage } from './languages.ts';

describe('pickLanguage', () => {
  it('takes the first wanted language the UI has: the lang prop before the browser', () => {
    expect(pickLanguage(['ja', 'de-DE', 'fr'])).toBe('ja');
    expect(pickLanguage([undefined, 'de-DE', 'fr'])).toBe('de');
    expect(pickLanguage([null, 'nl-NL', 'sv', 'ko-KR'])).toBe('ko');
  });

  it('matches tags case-insensitively, else by their primary language', () => {
    expect(pickLanguage(['PT-br'])).toBe('pt-BR');
    expect(pickLanguage(['pt-PT'])).toBe('pt-BR');
    expect(pickLanguage(['zh-Hans-CN'])).toBe('zh-CN');
    expect(pickLanguage(['es_MX'])).toBe('es');
    expect(pickLanguage(['ar-EG'])).toBe('ar');
    expect(pickLanguage(['en-XA'])).toBe('en-XA');
  });

  it('falls back to English when nothing matches', () => {
    expect(pickLanguage(['nl', 'sv-SE', ''])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('lays Arabic out right to left, the others left to right', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
    expect(directionOf('en-XA')).toBe('ltr');
  });
});

describe('matchLanguage', () => {
  it('is undefined when no wanted tag is one the UI has (the provider then asks the project for its default)', () => {
    expect(matchLanguage([undefined, 'nl-NL', 'sv'])).toBeUndefined();
    expect(matchLanguage([])).toBeUndefined();
    expect(matchLanguage(['nl', 'fr-CA'])).toBe('fr');
  });

  it("ships the spec's Language tags (the project's default language and the emails accept those)", () => {
    const spec = JSON.parse(readFileSync(new URL('../../../server/src/generated/openapi.json', import.meta.url), 'utf8'));
    expect([...languages]).toEqual(spec.components.schemas.Language.enum);
  });
});
