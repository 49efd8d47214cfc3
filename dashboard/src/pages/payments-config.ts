import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useProjectScope } from '../shell-context.ts';
import type { Translate } from '../i18n/dashboard-i18n.ts';
import { errorText } from '../ui.tsx';

export type CustomerType = Schema<'CustomerType'>;
export type Interval = [number, 'day' | 'week' | 'month' | 'year'];
export type ConfigItem = { displayName?: string; customerType: CustomerType };
export type ConfigLine = { displayName?: string; customerType?: CustomerType };
export type ConfigPrice = Record<string, unknown> & { interval?: Interval };
export type IncludedItem = { quantity?: number; repeat?: Interval | 'never'; expires?: string };
export type ConfigProduct = {
  displayName?: string;
  customerType: CustomerType;
  productLineId?: string;
  stackable?: boolean;
  serverOnly?: boolean;
  prices: Record<string, ConfigPrice> | 'include-by-default';
  includedItems?: Record<string, IncludedItem>;
};
export type PaymentsConfig = {
  testMode: boolean;
  blockNewPurchases: boolean;
  items: Record<string, ConfigItem>;
  productLines: Record<string, ConfigLine>;
  products: Record<string, ConfigProduct>;
};
type RenderedConfig = { config_string: string };

export const customerTypes: CustomerType[] = ['user', 'team', 'custom'];
export const currencies = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'INR', 'JPY'] as const;

export const paymentsOf = (config: RenderedConfig): PaymentsConfig =>
  (JSON.parse(config.config_string) as { payments: PaymentsConfig }).payments;

/** A catalogue map without one entry (a deletion replaces the whole map: the override has no "unset"). */
export function without<T>(entries: Record<string, T>, id: string): Record<string, T> {
  const { [id]: _removed, ...rest } = entries;
  return rest;
}

/**
 * Saves config override entries (dotted keys under `payments`), showing them at once and putting the
 * previous config back when the server refuses (its message names the path of the broken rule).
 */
export function useSavePayments() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  const mutation = api.useUpdateProjectConfigOverride({
    request,
    mutation: {
      onMutate: async ({ data }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData<RenderedConfig>(key);
        if (previous) {
          const rendered = JSON.parse(previous.config_string) as Record<string, unknown>;
          for (const [path, value] of Object.entries(JSON.parse(data.config_override_string) as Record<string, unknown>)) {
            const parts = path.split('.');
            let node = rendered as Record<string, unknown>;
            for (const part of parts.slice(0, -1)) {
              if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
              node = node[part] as Record<string, unknown>;
            }
            node[parts.at(-1) as string] = value;
          }
          queryClient.setQueryData<RenderedConfig>(key, { ...previous, config_string: JSON.stringify(rendered) });
        }
        return { previous };
      },
      onError: (_error, _variables, context) => {
        if (context?.previous) queryClient.setQueryData(key, context.previous);
      },
      onSuccess: (rendered) => queryClient.setQueryData(key, rendered),
    },
  });
  const save = (entries: Record<string, unknown>) =>
    mutation.mutateAsync({ level: 'project', data: { config_override_string: JSON.stringify(entries) } });
  return { save, mutation };
}

/** `payments.products.pro.prices.monthly.USD: Too many decimals…` → which form field, and the message after the path. */
export function problemOf(
  error: unknown,
  fields: Array<[field: string, pathPattern: RegExp, aboutAnotherEntry?: boolean]>,
): { field: string; message: string } | null {
  if (!error) return null;
  const text = errorText(error);
  const match = /^(payments\.[^\s:]*): (.*)$/s.exec(text);
  if (!match) return { field: 'form', message: text };
  const [, path = '', message = ''] = match;
  for (const [field, pattern, aboutAnotherEntry] of fields) {
    if (pattern.test(path)) return { field, message: aboutAnotherEntry ? `${entryOf(path)}: ${message}` : message };
  }
  return { field: 'form', message: text };
}

/** `payments.products.pro.customerType` → `Product pro` (the entry a message is about, when it is not the one edited). */
function entryOf(path: string): string {
  const [, kind = '', id = ''] = path.split('.');
  const names: Record<string, string> = { products: 'Product', items: 'Item', productLines: 'Product line' };
  return `${names[kind] ?? kind} ${id}`;
}

/** The message of a refused change with the entry it is about instead of its config path (`Product pro: Item credits does not exist.`). */
export function messageOf(error: unknown): string {
  const text = errorText(error);
  const match = /^(payments\.[^\s:]*): (.*)$/s.exec(text);
  return match ? `${entryOf(match[1] as string)}: ${match[2]}` : text;
}

export const intervals: Record<string, Interval | undefined> = {
  once: undefined,
  week: [1, 'week'],
  month: [1, 'month'],
  year: [1, 'year'],
};

/** The form's billing choice for a price's interval (`once` without one; other intervals show as their unit). */
export function intervalChoice(interval: Interval | undefined): string {
  return interval ? interval[1] : 'once';
}

export function priceText(price: ConfigPrice, t: Translate): string {
  const amounts = currencies.filter((currency) => typeof price[currency] === 'string').map((currency) => `${price[currency]} ${currency}`);
  return `${amounts.join(' / ')} ${price.interval ? intervalText(price.interval, t) : t('payments.once')}`;
}

/** `every month`, `every 3 days`: the unit and its count by the active language's plural rules. */
export function intervalText([count, unit]: Interval, t: Translate): string {
  if (unit === 'day') return t('payments.everyDay', { count });
  if (unit === 'week') return t('payments.everyWeek', { count });
  if (unit === 'month') return t('payments.everyMonth', { count });
  return t('payments.everyYear', { count });
}
