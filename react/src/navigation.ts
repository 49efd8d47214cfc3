import { RedirectUrlNotWhitelistedError } from '@gatehouse/protocol/errors';
import { useSyncExternalStore } from 'react';

/** Query parameter that carries the page to come back to after signing in or up. */
export const RETURN_TO_PARAM = 'after_auth_return_to';

const locationChange = 'gatehouse:locationchange';

/** Same-origin URLs move with the History API (no reload); anything else is a full navigation. */
export function navigate(url: string, options: { replace?: boolean } = {}): void {
  const target = new URL(url, window.location.href);
  if (target.origin !== window.location.origin) {
    if (options.replace) window.location.replace(target.href);
    else window.location.assign(target.href);
    return;
  }
  const relative = target.pathname + target.search + target.hash;
  if (options.replace) window.history.replaceState(null, '', relative);
  else window.history.pushState(null, '', relative);
  window.dispatchEvent(new Event(locationChange));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(locationChange, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(locationChange, onChange);
  };
}

/** The current path + query, re-rendering on every navigation (pushState, back/forward). */
export function useLocation(): { pathname: string; search: string; href: string } {
  const href = useSyncExternalStore(
    subscribe,
    () => window.location.href,
    () => '',
  );
  const url = href ? new URL(href) : undefined;
  return { pathname: url?.pathname ?? '/', search: url?.search ?? '', href };
}

/**
 * Redirects go only to this origin or to the origins the app trusts (the project's trusted domains
 * on the server side; here the app passes them), never to a URL a link smuggled in.
 */
export function isTrustedRedirect(url: string, trustedOrigins: readonly string[]): boolean {
  let target: URL;
  try {
    target = new URL(url, window.location.href);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  return target.origin === window.location.origin || trustedOrigins.includes(target.origin);
}

/**
 * The error page for a return target that is not trusted: `REDIRECT_URL_NOT_WHITELISTED` with the
 * protocol's message and the refused URL.
 */
export function untrustedRedirectPage(errorPageUrl: string, refused: string): string {
  const target = new URL(errorPageUrl, window.location.href);
  target.searchParams.set('errorCode', RedirectUrlNotWhitelistedError.code);
  target.searchParams.set('message', `${redirectUrlNotWhitelistedMessage} (${refused})`);
  return target.origin === window.location.origin ? target.pathname + target.search : target.href;
}

/** What the error page says about an untrusted return target. */
export const redirectUrlNotWhitelistedMessage = 'Redirect URL not whitelisted: it is not on a trusted domain of this app.';

/** A handler URL that brings the user back here afterwards. */
export function withReturnTo(url: string, returnTo: string): string {
  const target = new URL(url, window.location.href);
  target.searchParams.set(RETURN_TO_PARAM, returnTo);
  return target.origin === window.location.origin ? target.pathname + target.search : target.href;
}

/** A link to another handler page that keeps this page's return-to target. */
export function keepReturnTo(url: string): string {
  const returnTo = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get(RETURN_TO_PARAM);
  return returnTo ? withReturnTo(url, returnTo) : url;
}
