import { describe, expect, it } from 'vitest';
import { mergeOverride, renderConfig } from './project-config.ts';

describe('renderConfig', () => {
  it('applies a key before the keys nested under it, whatever their order in the override', () => {
    const nestedFirst = { 'auth.oauth.providers.github.allowSignIn': false, 'auth.oauth.providers': { github: { allowSignIn: true } } };
    expect(renderConfig(nestedFirst).auth.oauth.providers).toEqual({ github: { allowSignIn: false } });
  });

  it('never writes through a key that reaches a prototype', () => {
    const config = renderConfig(
      JSON.parse('{"__proto__.polluted": 1, "auth": {"__proto__": {"polluted": 2}}, "a.constructor.prototype.polluted": 3}'),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(config.auth)).toBe(Object.prototype);
  });
});

describe('mergeOverride', () => {
  it('lets a replacing entry drop the older keys nested under it', () => {
    const older = { 'auth.oauth.providers.github': { allowSignIn: true }, 'auth.oauth.providers.github.allowSignIn': false };
    const merged = mergeOverride(older, { 'auth.oauth.providers.github': { allowSignIn: true, clientId: 'id' } });
    expect(merged).toEqual({ 'auth.oauth.providers.github': { allowSignIn: true, clientId: 'id' } });
  });

  it('lets a merged section drop what it sets, fold into an older key above what it sets, and keep the rest', () => {
    const older = { 'auth.password': { allowSignIn: false, extra: 1 }, 'auth.password.allowSignIn': false, 'auth.otp.allowSignIn': true };
    const merged = mergeOverride(older, { auth: { password: { allowSignIn: true } } });
    expect(merged).toEqual({
      'auth.password': { allowSignIn: true, extra: 1 },
      'auth.otp.allowSignIn': true,
      auth: { password: { allowSignIn: true } },
    });
    expect(renderConfig(merged).auth.password).toEqual({ allowSignIn: true, extra: 1 });
    expect(renderConfig(merged).auth.otp.allowSignIn).toBe(true);
  });
});
