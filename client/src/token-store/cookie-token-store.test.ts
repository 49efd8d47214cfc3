import { describe, expect, it } from 'vitest';
import { createCookieTokenStore } from './cookie-token-store.ts';

/** `document.cookie` in miniature: reads give `name=value; …`, writes are kept verbatim. */
function fakeDocument(protocol: string) {
  const jar = new Map<string, string>();
  const writes: string[] = [];
  return {
    jar,
    writes,
    location: { protocol },
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      writes.push(line);
      const [pair = '', ...attributes] = line.split('; ');
      const name = pair.slice(0, pair.indexOf('='));
      if (attributes.includes('Max-Age=0')) jar.delete(name);
      else jar.set(name, pair.slice(pair.indexOf('=') + 1));
    },
  };
}

describe('cookie token store', () => {
  it('round-trips through a per-project refresh cookie and the access cookie, with their attributes', () => {
    const document = fakeDocument('https:');
    const store = createCookieTokenStore({ projectId: 'proj-1', document });
    store.set({ accessToken: 'a.b.c', refreshToken: 'rt=1;x' });
    expect(store.get()).toEqual({ accessToken: 'a.b.c', refreshToken: 'rt=1;x' });
    expect(document.writes).toEqual([
      'gatehouse-refresh-proj-1=rt%3D1%3Bx; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
      'gatehouse-access=a.b.c; Path=/; Max-Age=86400; SameSite=Lax; Secure',
    ]);
  });

  it('leaves out Secure on http and expires the cookies on clear', () => {
    const document = fakeDocument('http:');
    const store = createCookieTokenStore({ projectId: 'proj-1', document });
    store.set({ accessToken: 'at', refreshToken: 'rt' });
    expect(document.writes[0]).toBe('gatehouse-refresh-proj-1=rt; Path=/; Max-Age=31536000; SameSite=Lax');
    store.clear();
    expect(document.writes.slice(2)).toEqual([
      'gatehouse-refresh-proj-1=; Path=/; Max-Age=0; SameSite=Lax',
      'gatehouse-access=; Path=/; Max-Age=0; SameSite=Lax',
    ]);
    expect(store.get()).toEqual({});
  });

  it('keeps the refresh tokens of two projects apart and ignores unrelated cookies', () => {
    const document = fakeDocument('https:');
    document.jar.set('theme', 'dark');
    const one = createCookieTokenStore({ projectId: 'one', document });
    const two = createCookieTokenStore({ projectId: 'two', document });
    one.set({ refreshToken: 'rt-one' });
    two.set({ refreshToken: 'rt-two' });
    expect(one.get()).toEqual({ refreshToken: 'rt-one' });
    expect(two.get()).toEqual({ refreshToken: 'rt-two' });
    one.clear();
    expect(two.get()).toEqual({ refreshToken: 'rt-two' });
    expect(document.jar.get('theme')).toBe('dark');
  });

  it('needs a document outside a browser', () => {
    expect(() => createCookieTokenStore({ projectId: 'proj' })).toThrow('needs a document');
  });
});
