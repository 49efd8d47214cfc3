import { describe, expect, it } from 'vitest';
import { handlerPageOf, resolveHandlerUrls } from './handler-urls.ts';

describe('handler URLs', () => {
  it('put every page under /handler and chain the after-auth defaults', () => {
    const urls = resolveHandlerUrls();
    expect(urls.signIn).toBe('/handler/sign-in');
    expect(urls.cliAuthConfirm).toBe('/handler/cli-auth-confirm');
    expect([urls.home, urls.afterSignIn, urls.afterSignUp, urls.afterSignOut]).toEqual(['/', '/', '/', '/']);
    const custom = resolveHandlerUrls({ handlerPath: '/auth/', home: '/app', afterSignIn: '/dashboard', signIn: '/login' });
    expect(custom.signUp).toBe('/auth/sign-up');
    expect(custom.signIn).toBe('/login');
    expect(custom.afterSignUp).toBe('/dashboard');
    expect(custom.afterSignOut).toBe('/app');
  });

  it('refuse a handler path that does not start with /', () => {
    expect(() => resolveHandlerUrls({ handlerPath: 'handler' })).toThrow(/must start with "\/"/);
  });

  it('name the page of a path only under the handler path', () => {
    const urls = resolveHandlerUrls({ handlerPath: '/auth' });
    expect(handlerPageOf('/auth/password-reset', urls)).toBe('password-reset');
    expect(handlerPageOf('/auth/sign-in/', urls)).toBe('sign-in');
    expect(handlerPageOf('/handler/sign-in', urls)).toBeUndefined();
    expect(handlerPageOf('/auth/nope', urls)).toBeUndefined();
  });
});
