import type Stripe from 'stripe';

/** The loaded Stripe SDK: a client of the platform's account and the SDK's error classes. */
export type StripeSdk = { stripe: Stripe; errors: typeof Stripe.errors };

/** Whether an SDK error is Stripe answering 404 (no such object). */
export const isNotFound = (errors: typeof Stripe.errors, error: unknown): boolean =>
  error instanceof errors.StripeInvalidRequestError && error.statusCode === 404;
