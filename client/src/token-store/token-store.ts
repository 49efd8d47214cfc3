/** The tokens of one signed-in user; either may be missing. */
export type SessionTokens = { accessToken?: string; refreshToken?: string };

/** Where a session keeps its tokens: memory, cookies, localStorage, or the app's own. */
export interface TokenStore {
  get(): SessionTokens;
  /** Replaces both tokens: a missing one is removed. */
  set(tokens: SessionTokens): void;
  clear(): void;
  /**
   * Reports changes made by another writer (another tab); the session reports its own writes itself.
   * Returns the unsubscribe function.
   */
  subscribe?(listener: (tokens: SessionTokens) => void): () => void;
}

/** Copies only the tokens that are present, so `{ accessToken: undefined }` never masks a value. */
export function presentTokens(tokens: SessionTokens): SessionTokens {
  const result: SessionTokens = {};
  if (tokens.accessToken) result.accessToken = tokens.accessToken;
  if (tokens.refreshToken) result.refreshToken = tokens.refreshToken;
  return result;
}
