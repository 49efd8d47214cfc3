import { presentTokens, type TokenStore } from './token-store.ts';

/** The part of `document` the store touches; tests pass a fake. */
export type CookieDocument = { cookie: string; location?: { protocol: string } | null };

export type CookieTokenStoreOptions = {
  projectId: string;
  document?: CookieDocument;
  /** Adds `Secure`; by default whenever the page is served over https. */
  secure?: boolean;
};

const REFRESH_MAX_AGE_S = 365 * 24 * 60 * 60;
const ACCESS_MAX_AGE_S = 24 * 60 * 60;

/**
 * Tokens in first-party cookies, so the app's own server can read the session too. The refresh
 * cookie is per project; the access cookie is not, and a token of another project on the same
 * origin is answered with INVALID_PROJECT_FOR_ACCESS_TOKEN, which the session repairs by refreshing.
 */
export function createCookieTokenStore(options: CookieTokenStoreOptions): TokenStore {
  const doc = options.document ?? (typeof document === 'undefined' ? undefined : document);
  if (!doc) throw new Error('The cookie token store needs a document (a browser, or pass one).');
  const secure = options.secure ?? doc.location?.protocol === 'https:';
  const refreshName = `gatehouse-refresh-${options.projectId}`;
  const accessName = 'gatehouse-access';

  function write(name: string, value: string | undefined, maxAgeS: number) {
    const attributes = ['Path=/', `Max-Age=${value === undefined ? 0 : maxAgeS}`, 'SameSite=Lax'];
    if (secure) attributes.push('Secure');
    doc!.cookie = [`${name}=${value === undefined ? '' : encodeURIComponent(value)}`, ...attributes].join('; ');
  }

  function read(name: string): string | undefined {
    for (const pair of doc!.cookie.split(';')) {
      const separator = pair.indexOf('=');
      if (separator >= 0 && pair.slice(0, separator).trim() === name) {
        return safeDecode(pair.slice(separator + 1).trim()) || undefined;
      }
    }
    return undefined;
  }

  const store: TokenStore = {
    get: () => presentTokens({ accessToken: read(accessName), refreshToken: read(refreshName) }),
    set: (tokens) => {
      write(refreshName, tokens.refreshToken || undefined, REFRESH_MAX_AGE_S);
      write(accessName, tokens.accessToken || undefined, ACCESS_MAX_AGE_S);
    },
    clear: () => store.set({}),
  };
  return store;
}

/** A cookie of that name written by something else may not be URI-encoded. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
