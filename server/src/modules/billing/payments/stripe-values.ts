import { type Currency, currencies } from './catalogue.ts';

/** Metadata Stripe hands back as it was set (string values; anything else is read as absent). */
export type Metadata = Record<string, unknown>;

/** A non-empty string, else undefined (Stripe sends ids either as strings or expanded objects, and `""` for unset). */
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** An object's fields, or none (metadata and stored JSON may be null). */
export const record = (value: unknown): Metadata => (value !== null && typeof value === 'object' ? (value as Metadata) : {});

/** Stripe's zero-decimal currencies among the catalogue's (amounts in whole units). */
const zeroDecimal = new Set(['JPY', 'KRW']);

/** Stripe's minor units as a catalogue money string ("12.5" for 1250 cents). */
export const toMoney = (minor: number, currency: string) =>
  zeroDecimal.has(currency) ? String(minor) : (minor / 100).toFixed(2).replace(/\.?0+$/, '') || '0';

/** A catalogue money string (checked: at most the currency's decimals) in the currency's minor units. */
export function toMinorUnits(amount: string, currency: Currency): number {
  const decimals = currencies[currency];
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0').slice(0, decimals) || '0');
}

/** Stripe's statuses of a subscription that has ended for good. */
export const endedSubscriptionStatuses = new Set(['canceled', 'incomplete_expired']);
