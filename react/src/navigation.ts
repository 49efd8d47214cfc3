import type { RedirectUrlNotWhitelistedError } from '@gatehouse/protocol/errors';
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

export type NavigateFunction = (url: string, options?: { replace?: boolean }) => void;

/** The navigation a render asked for, per navigate function: renders at the same location join it. */
const renderNavigations = new WeakMap<NavigateFunction, { from: string; done: Promise<void> }>();

/**
 * Leaves for `url` from a component that cannot render where it is (a signed-out visitor of a page
 * that needs a user): navigates once the render is over and answers a promise to suspend on
 * (`use(navigateFromRender(...))`) that resolves after the location changed.
 *
 * The promise must settle: a tree that suspended while mounting was never committed, so its location
 * subscriptions (`useLocation()`, a router's store) do not exist yet and cannot see the URL change;
 * React renders it again only when the promise it suspended on resolves. One that never resolves keeps
 * the Suspense fallback on screen for good under the new URL (issue #29: the dashboard stayed on
 * "Loading…" after its redirect to sign-in). Once the location moved, the provider re-renders
 * (`useRenderNavigations`), which makes React drop any render of the suspended tree still in progress
 * from before the move; the promise resolves a task later, so React renders the tree again from its
 * Suspense boundary, under the new URL, rather than replaying only the suspended component under
 * parents that still show the old one. A full-page navigation (another origin) never resolves: the
 * page is leaving.
 */
export function navigateFromRender(navigateTo: NavigateFunction, url: string, options: { replace?: boolean } = {}): Promise<void> {
  const from = window.location.href;
  const asked = renderNavigations.get(navigateTo);
  if (asked?.from === from) return asked.done;
  // Rendered again where it was sent (its parents not re-rendered yet): only wait for them.
  const alreadyThere = new URL(url, from).pathname === window.location.pathname;
  const done = new Promise<void>((resolve) => {
    // Never during the render itself: React forbids updating other components while rendering.
    queueMicrotask(() => {
      if (!alreadyThere) navigateTo(url, options);
      void locationLeaves(alreadyThere ? undefined : from).then(() => {
        // Coming back here later (the Back button) is a new visit that redirects again.
        renderNavigations.delete(navigateTo);
        renderNavigationCount += 1;
        for (const listener of renderNavigationListeners) listener();
        setTimeout(resolve, 0);
      });
    });
  });
  renderNavigations.set(navigateTo, { from, done });
  return done;
}

let renderNavigationCount = 0;
const renderNavigationListeners = new Set<() => void>();

/**
 * Re-renders the calling component (the provider, which sits above the app's Suspense boundaries)
 * after each navigation asked for by a render; see `navigateFromRender`.
 */
export function useRenderNavigations(): number {
  return useSyncExternalStore(
    (listener) => {
      renderNavigationListeners.add(listener);
      return () => renderNavigationListeners.delete(listener);
    },
    () => renderNavigationCount,
    () => 0,
  );
}

/**
 * Resolves once the location is no longer `from` (at once without one): at once after the History API
 * moved, on the next navigation event, or (a router that moves a little later, without an event) at
 * the next check.
 */
function locationLeaves(from: string | undefined): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (from !== undefined && window.location.href === from) return;
      clearInterval(timer);
      window.removeEventListener('popstate', check);
      window.removeEventListener(locationChange, check);
      resolve();
    };
    const timer = setInterval(check, 50);
    window.addEventListener('popstate', check);
    window.addEventListener(locationChange, check);
    check();
  });
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
  const code: RedirectUrlNotWhitelistedError['code'] = 'REDIRECT_URL_NOT_WHITELISTED';
  target.searchParams.set('errorCode', code);
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
