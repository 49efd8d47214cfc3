import { presentTokens, type SessionTokens, type TokenStore } from './token-store.ts';

/** Tokens for the life of the process or page; the default, and the right one on a server. */
export function createMemoryTokenStore(initial: SessionTokens = {}): TokenStore {
  let tokens = presentTokens(initial);
  return {
    get: () => ({ ...tokens }),
    set: (next) => {
      tokens = presentTokens(next);
    },
    clear: () => {
      tokens = {};
    },
  };
}
