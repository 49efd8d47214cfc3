/** What `GET /internal/backend-urls` and `GET /internal/component-versions` answer (see the spec). */

export type MetaSettings = { fallbackUrls: readonly string[] };

/** `BACKEND_FALLBACK_URLS`: comma-separated http(s) base URLs; anything else stops the start. */
export function readMetaSettings(environment: NodeJS.ProcessEnv): MetaSettings {
  const raw = environment.BACKEND_FALLBACK_URLS ?? '';
  const fallbackUrls = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`BACKEND_FALLBACK_URLS: "${entry}" is not a URL.`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`BACKEND_FALLBACK_URLS: "${entry}" is not an http or https URL.`);
      return entry;
    });
  return { fallbackUrls };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** The public URL first, then the fallbacks, each once. */
export function backendUrls(publicUrl: string, settings: MetaSettings): string[] {
  return [...new Set([publicUrl, ...settings.fallbackUrls].map(withoutTrailingSlash))];
}

/** The handler pages of @gatehouse/react; raise a page's version (with its changelog) when an app that copied it must change. */
const handlerPages = [
  'sign-in',
  'sign-up',
  'sign-out',
  'email-verification',
  'forgot-password',
  'password-reset',
  'oauth-callback',
  'magic-link-callback',
  'account-settings',
  'error',
  'team-invitation',
  'mfa',
  'cli-auth-confirm',
] as const;

export function componentVersions(): { versions: Record<string, { version: number; changelogs: Record<string, string> }> } {
  return {
    versions: Object.fromEntries(
      handlerPages.map((page) => [page, { version: 1, changelogs: { '1': `The ${page} page as first shipped by @gatehouse/react.` } }]),
    ),
  };
}
