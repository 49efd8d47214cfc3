import { loadConnectAndInitialize, type StripeConnectInstance } from '@stripe/connect-js/pure';

/** What the platform's config gives the dashboard for Stripe's embedded components (when Stripe mode is on). */
export type StripeConnectSettings = { publishableKey: string; connectJsUrl: string };

let loading: Promise<void> | null = null;

/** Whether Connect.js is on the page (its `StripeConnect.init`), as @stripe/connect-js checks it. */
const connectJsLoaded = () => typeof (window as { StripeConnect?: { init?: unknown } }).StripeConnect?.init === 'function';

/**
 * Loads Connect.js from the configured URL (STRIPE_CONNECT_JS_URL on the server, default Stripe's own) once;
 * @stripe/connect-js then uses the loaded one instead of adding Stripe's. A failed load can be tried again.
 */
function loadConnectJs(url: string): Promise<void> {
  if (connectJsLoaded()) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    const fail = (message: string) => {
      script.remove();
      loading = null;
      reject(new Error(message));
    };
    script.addEventListener('load', () =>
      connectJsLoaded() ? resolve() : fail('Stripe’s components did not load (the script at the configured URL is not Connect.js).'),
    );
    script.addEventListener('error', () =>
      fail('Stripe’s components could not be loaded: Stripe is not reachable from this browser. Check the connection and try again.'),
    );
    document.head.appendChild(script);
  });
  return loading;
}

/** Connect.js loaded, then initialised by @stripe/connect-js with the account session the platform creates. */
export async function startStripeConnect(
  settings: StripeConnectSettings,
  fetchClientSecret: () => Promise<string>,
): Promise<StripeConnectInstance> {
  await loadConnectJs(settings.connectJsUrl);
  return loadConnectAndInitialize({ publishableKey: settings.publishableKey, fetchClientSecret });
}
