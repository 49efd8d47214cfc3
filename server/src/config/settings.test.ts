import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRateLimits } from './rate-limits.ts';
import { settings } from './settings.ts';

/**
 * The settings list is the one the configuration reference is generated from: it must name every
 * environment variable the server reads (found in the sources, tests and test helpers left out), and
 * every entry must be read somewhere.
 */
const serverSource = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !path.endsWith('config/settings.ts') ? [path] : [];
  });
}

const readPatterns = [
  /\b(?:env|environment|process\.env)\.([A-Z][A-Z0-9_]+)\b/g,
  /\b(?:env|environment)\[['"`]([A-Z][A-Z0-9_]+)['"`]\]/g,
  /\b(?:env|environment),\s*'([A-Z][A-Z0-9_]+)'/g,
  /\b(?:read|httpUrl)\('([A-Z][A-Z0-9_]+)'/g,
];

/** An entry's name as a pattern: `OAUTH_<PROVIDER>_ISSUER` stands for the provider's endpoint variables. */
function covers(entryName: string, name: string): boolean {
  if (!entryName.includes('<')) return entryName === name;
  const family = entryName
    .replace(/_ISSUER$/, '_(ISSUER|AUTHORIZATION_URL|TOKEN_URL|USERINFO_URL|EMAILS_URL)')
    .replace(/_CLIENT_ID$/, '_CLIENT_(ID|SECRET)');
  return new RegExp(`^${family.replace(/<[A-Z]+>/g, '[A-Z0-9]+')}$`).test(name);
}

describe('the settings list', () => {
  const files = sourceFiles(serverSource);
  const texts = files.map((file) => readFileSync(file, 'utf8'));

  it('names every environment variable the server reads', () => {
    const read = new Set(texts.flatMap((text) => readPatterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!))));
    expect(read.size).toBeGreaterThan(40);
    const unlisted = [...read].filter((name) => !settings.some((setting) => covers(setting.name, name)));
    expect(unlisted).toEqual([]);
  });

  it('has no entry the server does not read', () => {
    const all = texts.join('\n');
    const unread = settings
      .map((setting) => setting.name)
      .filter((name) => !name.includes('<'))
      .filter((name) => !new RegExp(`\\b${name}\\b`).test(all));
    expect(unread).toEqual([]);
  });

  it('holds the rate limits the server applies by default, and RATE_LIMITS=off turns them off', () => {
    expect(readRateLimits({}, false)).toMatchObject({
      'sign-in': { perIp: 30, perEmail: 10, windowSeconds: 60, failuresOnly: true },
      'check-code': { perIp: 30, windowSeconds: 60 },
    });
    expect(readRateLimits({}, false)?.['check-code'].perEmail).toBeUndefined();
    expect(readRateLimits({ RATE_LIMIT_SIGN_UP: '4,2,30' }, false)?.['sign-up']).toEqual({ perIp: 4, perEmail: 2, windowSeconds: 30 });
    expect(readRateLimits({ RATE_LIMITS: 'off' }, false)).toBeNull();
  });
});
