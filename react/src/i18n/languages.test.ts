import { describe, expect, it } from 'vitest';
import { directionOf, pickLanguage } from './languages.ts';

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
