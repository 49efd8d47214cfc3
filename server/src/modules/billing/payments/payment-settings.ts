/** Stripe mode's settings, read from the environment at start (a bad value stops it), or given by a test. */
export type PaymentSettings = {
  /** The platform's Stripe secret key (STRIPE_SECRET_KEY); without it Stripe mode is off and projects stay in test mode. */
  stripeSecretKey: string | null;
  /** The secret Stripe signs the Connect webhook with (STRIPE_WEBHOOK_SECRET). */
  stripeWebhookSecret: string | null;
  /** Where Stripe's API is (STRIPE_API_URL, default Stripe's own): tests point it at a local stand-in. */
  stripeApiUrl: string | null;
  /** The platform's publishable key (STRIPE_PUBLISHABLE_KEY): the checkout page's Stripe.js takes payments with it. */
  stripePublishableKey?: string | null;
  /** Where the checkout page loads Stripe.js from (STRIPE_JS_URL, default Stripe's own): tests serve a stand-in. */
  stripeJsUrl?: string | null;
  /**
   * Where the dashboard loads Stripe's Connect.js from for the embedded components of the payments page
   * (STRIPE_CONNECT_JS_URL, default Stripe's own): tests serve a stand-in.
   */
  stripeConnectJsUrl?: string | null;
};

/** Stripe.js as Stripe serves it. */
export const defaultStripeJsUrl = 'https://js.stripe.com/v3/';
/** Connect.js (Stripe's embedded Connect components) as Stripe serves it; @stripe/connect-js loads this one. */
export const defaultStripeConnectJsUrl = 'https://connect-js.stripe.com/v1.0/connect.js';

function httpUrl(name: string, value: string | undefined): string | null {
  if (!value) return null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new Error(`${name} must be an http(s) URL, not ${JSON.stringify(value)}`);
  return value;
}

export function readPaymentSettings(environment: NodeJS.ProcessEnv): PaymentSettings {
  const apiUrl = httpUrl('STRIPE_API_URL', environment.STRIPE_API_URL);
  const jsUrl = httpUrl('STRIPE_JS_URL', environment.STRIPE_JS_URL);
  const connectJsUrl = httpUrl('STRIPE_CONNECT_JS_URL', environment.STRIPE_CONNECT_JS_URL);
  return {
    stripeSecretKey: environment.STRIPE_SECRET_KEY || null,
    stripeWebhookSecret: environment.STRIPE_WEBHOOK_SECRET || null,
    stripeApiUrl: apiUrl,
    stripePublishableKey: environment.STRIPE_PUBLISHABLE_KEY || null,
    stripeJsUrl: jsUrl,
    stripeConnectJsUrl: connectJsUrl,
  };
}
