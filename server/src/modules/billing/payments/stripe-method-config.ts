import type Stripe from 'stripe';
import { isNotFound, type StripeSdk } from './stripe-sdk.ts';

/** Display names of Stripe's payment method types (the rest: the type in words). */
const methodNames: Record<string, string> = {
  card: 'Card',
  link: 'Link',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  us_bank_account: 'US bank account',
  sepa_debit: 'SEPA Direct Debit',
  ideal: 'iDEAL',
  klarna: 'Klarna',
  afterpay_clearpay: 'Afterpay / Clearpay',
  cashapp: 'Cash App Pay',
};

/**
 * Whether a field of a payment method configuration is a payment method's setting. Stripe gives every
 * method the same shape (`available` and `display_preference`), so the card's type stands for all of them;
 * the configuration's other fields (id, name, livemode…) are not objects of that shape.
 */
function isMethodSetting(value: unknown): value is Stripe.PaymentMethodConfiguration.Card {
  if (value === null || typeof value !== 'object') return false;
  const fields: Record<string, unknown> = { ...value };
  return typeof fields.available === 'boolean' && Boolean(fields.display_preference);
}

const inWords = (id: string) =>
  id
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** The connected account's default payment method configuration (else its first) with each method's state; null when it has none. */
export async function methodConfigOf({ stripe }: StripeSdk, accountId: string) {
  const list = await stripe.paymentMethodConfigurations.list({ limit: 100 }, { stripeAccount: accountId });
  const config = list.data.find((candidate) => candidate.is_default) ?? list.data[0];
  if (!config) return null;
  const methods = Object.entries(config).flatMap(([id, value]: [string, unknown]) =>
    isMethodSetting(value)
      ? [
          {
            id,
            name: methodNames[id] ?? inWords(id),
            enabled: value.display_preference.value === 'on',
            available: value.available,
            overridable: value.display_preference.overridable ?? null,
          },
        ]
      : [],
  );
  return { config_id: config.id, methods };
}

/** Sets display preferences on a configuration of the connected account; false when Stripe knows no such configuration there. */
export async function updateMethodConfigOf(
  { stripe, errors }: StripeSdk,
  accountId: string,
  configId: string,
  updates: Record<string, 'on' | 'off'>,
): Promise<boolean> {
  // The update's parameters are keyed by method type, as the GET answered them (the caller checked each is known).
  const params: Stripe.PaymentMethodConfigurationUpdateParams = Object.fromEntries(
    Object.entries(updates).map(([methodId, preference]) => [methodId, { display_preference: { preference } }]),
  );
  try {
    await stripe.paymentMethodConfigurations.update(configId, params, { stripeAccount: accountId });
    return true;
  } catch (error) {
    if (isNotFound(errors, error)) return false;
    throw error;
  }
}
