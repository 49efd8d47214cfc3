/** Stripe mode's settings, read from the environment at start (a bad value stops it), or given by a test. */
export type PaymentSettings = {
  /** The platform's Stripe secret key (STRIPE_SECRET_KEY); without it Stripe mode is off and projects stay in test mode. */
  stripeSecretKey: string | null;
  /** The secret Stripe signs the Connect webhook with (STRIPE_WEBHOOK_SECRET). */
  stripeWebhookSecret: string | null;
  /** Where Stripe's API is (STRIPE_API_URL, default Stripe's own): tests point it at a local stand-in. */
  stripeApiUrl: string | null;
};

export function readPaymentSettings(environment: NodeJS.ProcessEnv): PaymentSettings {
  const apiUrl = environment.STRIPE_API_URL || null;
  if (apiUrl !== null) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(apiUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      throw new Error(`STRIPE_API_URL must be an http(s) URL, not ${JSON.stringify(apiUrl)}`);
  }
  return {
    stripeSecretKey: environment.STRIPE_SECRET_KEY || null,
    stripeWebhookSecret: environment.STRIPE_WEBHOOK_SECRET || null,
    stripeApiUrl: apiUrl,
  };
}
