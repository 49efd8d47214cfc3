import type { DayInterval, IncludedItem, Product } from './catalogue.ts';

/** `date` moved by `times` intervals (calendar months and years, like a billing cycle). */
export function addInterval(date: Date, [count, unit]: DayInterval, times = 1): Date {
  const next = new Date(date.getTime());
  const steps = count * times;
  if (unit === 'day') next.setUTCDate(next.getUTCDate() + steps);
  if (unit === 'week') next.setUTCDate(next.getUTCDate() + 7 * steps);
  if (unit === 'month') next.setUTCMonth(next.getUTCMonth() + steps);
  if (unit === 'year') next.setUTCFullYear(next.getUTCFullYear() + steps);
  return next;
}

/** How many periods of `interval` have begun from `start` up to `end` (the first at `start` itself). */
export function periodsBegun(start: Date, end: Date, interval: DayInterval): number {
  if (end < start) return 0;
  if (interval[0] === 0) return 1;
  const approxMillis = { day: 86_400_000, week: 604_800_000, month: 2_419_200_000, year: 31_536_000_000 }[interval[1]] * interval[0];
  // A lower bound from the shortest possible period, then step to the exact calendar count.
  let periods = Math.max(0, Math.floor((end.getTime() - start.getTime()) / (approxMillis * 1.2)) - 1);
  while (addInterval(start, interval, periods + 1) <= end) periods += 1;
  return periods + 1;
}

/** An owned product as the quantity rule reads it: since when, whether still active, how many. */
export type Holding = { product: Product; quantity: number; since: Date; endedAt: Date | null };

/**
 * What an included item grants through one holding at `now`: a one-off grant counts while the
 * product is active (or for good with `expires: never`); a repeating one grants its quantity each
 * period, of which `when-repeated` keeps only the current period's and `never` keeps every period's
 * (also after the product ended, up to its end).
 */
export function grantedBy(included: IncludedItem, holding: Holding, now: Date): number {
  const base = included.quantity * holding.quantity;
  const active = holding.endedAt === null;
  if (included.repeat === 'never') return active || included.expires === 'never' ? base : 0;
  if (included.expires === 'when-repeated') return active ? base : 0;
  if (!active && included.expires === 'when-purchase-expires') return 0;
  return base * periodsBegun(holding.since, holding.endedAt ?? now, included.repeat);
}

/**
 * The bound of every item quantity and of its manual part (±10^15: exact as a JavaScript number and
 * far inside Postgres' bigint). The ledger refuses changes past it (migration 0076).
 */
export const maxItemQuantity = 1_000_000_000_000_000;

/** The total an item gets from the holdings at `now`, up to `maxItemQuantity` (stacked grants saturate there). */
export function grantedQuantity(itemId: string, holdings: readonly Holding[], now: Date): number {
  let total = 0;
  for (const holding of holdings) {
    const included = holding.product.includedItems[itemId];
    if (included) total += grantedBy(included, holding, now);
  }
  return Math.min(total, maxItemQuantity);
}

/** The period in which `now` falls for a repeating interval that started at `since`: its end. */
export function currentPeriodEnd(since: Date, interval: DayInterval, now: Date): Date {
  return addInterval(since, interval, periodsBegun(since, now, interval));
}
