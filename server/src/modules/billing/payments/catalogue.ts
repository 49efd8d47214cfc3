import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { type JsonObject, isJsonObject } from '../../../tenancy/config-input.ts';

/**
 * The payments catalogue of a project's config (docs/protocol/entities.md "Payments", config `payments`): items,
 * product lines and products with their prices and included items. `parseCatalogue` checks it and
 * answers the first broken rule as a plain 400 (messages listed in the spec, updateProjectConfigOverride);
 * the money messages are the seed's, verbatim.
 */
export type CustomerType = 'user' | 'team' | 'custom';
export const customerTypes: readonly CustomerType[] = ['user', 'team', 'custom'];
export type IntervalUnit = 'day' | 'week' | 'month' | 'year';
export type DayInterval = [number, IntervalUnit];
const intervalUnits: readonly IntervalUnit[] = ['day', 'week', 'month', 'year'];

/** The currencies a price may name, with their decimals (minor units). */
export const currencies = { USD: 2, EUR: 2, GBP: 2, CAD: 2, AUD: 2, CHF: 2, INR: 2, JPY: 0 } as const;
export type Currency = keyof typeof currencies;

export type Price = {
  amounts: Partial<Record<Currency, string>>;
  interval?: DayInterval;
  freeTrial?: DayInterval;
  serverOnly: boolean;
};
export type IncludedItem = {
  quantity: number;
  repeat: DayInterval | 'never';
  expires: 'never' | 'when-purchase-expires' | 'when-repeated';
};
export type Product = {
  id: string;
  displayName: string;
  productLineId?: string;
  isAddOnTo: false | Record<string, true>;
  customerType: CustomerType;
  freeTrial?: DayInterval;
  serverOnly: boolean;
  stackable: boolean;
  /** `include-by-default`: every customer of the type has it while it owns nothing else of its line. */
  prices: Record<string, Price> | 'include-by-default';
  includedItems: Record<string, IncludedItem>;
  clientMetadata: unknown;
  clientReadOnlyMetadata: unknown;
  serverMetadata: unknown;
};
export type Item = { id: string; displayName: string; customerType: CustomerType };
export type ProductLine = { id: string; displayName: string; customerType?: CustomerType };
export type Catalogue = {
  testMode: boolean;
  blockNewPurchases: boolean;
  items: Map<string, Item>;
  productLines: Map<string, ProductLine>;
  products: Map<string, Product>;
};

function fail(path: string, message: string): never {
  throw new PlainHttpError(400, `${path}: ${message}`);
}

/** Config-defined ids: 1-63 characters, a letter or underscore first. */
const identifierPattern = /^[a-zA-Z_][a-zA-Z0-9_-]{0,62}$/;
function assertIdentifier(path: string, id: string): void {
  if (!identifierPattern.test(id))
    fail(path, `"${id}" is not a valid id: 1 to 63 letters, digits, underscores or hyphens, starting with a letter or underscore.`);
}

function entriesOf(path: string, value: unknown): [string, unknown][] {
  if (value === undefined) return [];
  if (!isJsonObject(value)) fail(path, 'must be an object.');
  return Object.entries(value).map(([id, entry]) => {
    assertIdentifier(path, id);
    return [id, entry];
  });
}

function customerTypeOf(path: string, value: unknown): CustomerType {
  if (!customerTypes.includes(value as CustomerType)) fail(`${path}.customerType`, 'must be one of user, team, custom.');
  return value as CustomerType;
}

function optionalString(path: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(path, 'must be a string.');
  return value;
}

function optionalBoolean(path: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(path, 'must be true or false.');
  return value;
}

/** `[count, unit]`: a whole count of at least 0 and one of day, week, month, year. */
export function parseInterval(path: string, value: unknown): DayInterval {
  if (!Array.isArray(value) || value.length !== 2) fail(path, 'An interval must be [count, unit].');
  const [count, unit] = value as [unknown, unknown];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
    fail(path, 'An interval count must be a whole number of at least 0.');
  if (!intervalUnits.includes(unit as IntervalUnit)) fail(path, 'An interval unit must be one of day, week, month, year.');
  return [count, unit as IntervalUnit];
}

/** A money amount in a currency: `<number>` or `<number>.<number>`, no leading zeros, at most the currency's decimals. */
export function moneyProblem(currency: Currency, amount: unknown): string | undefined {
  const match = typeof amount === 'string' ? /^(\d+)(\.(\d+))?$/.exec(amount) : null;
  if (!match) return 'Money amount must be in the format of <number> or <number>.<number>';
  const [, whole = '', , fraction = ''] = match;
  if (whole.length > 1 && whole.startsWith('0')) return 'Money amount must not have leading zeros';
  if (fraction.length > currencies[currency]) return `Too many decimals; ${currency} only has ${currencies[currency]} decimals`;
  return undefined;
}

const priceSettings = new Set(['interval', 'freeTrial', 'serverOnly']);

function parsePrice(path: string, value: unknown): Price {
  if (!isJsonObject(value)) fail(path, 'must be an object.');
  const amounts: Partial<Record<Currency, string>> = {};
  for (const [key, amount] of Object.entries(value)) {
    if (priceSettings.has(key)) continue;
    if (!Object.hasOwn(currencies, key)) fail(`${path}.${key}`, `Unknown currency; supported: ${Object.keys(currencies).join(', ')}.`);
    const problem = moneyProblem(key as Currency, amount);
    if (problem) fail(`${path}.${key}`, problem);
    amounts[key as Currency] = amount as string;
  }
  if (Object.keys(amounts).length === 0) fail(path, 'At least one currency is required');
  return {
    amounts,
    interval: value.interval === undefined ? undefined : parseInterval(`${path}.interval`, value.interval),
    freeTrial: value.freeTrial === undefined ? undefined : parseInterval(`${path}.freeTrial`, value.freeTrial),
    serverOnly: optionalBoolean(`${path}.serverOnly`, value.serverOnly, false),
  };
}

const expiries = ['never', 'when-purchase-expires', 'when-repeated'] as const;

function parseIncludedItem(path: string, value: unknown): IncludedItem {
  if (!isJsonObject(value)) fail(path, 'must be an object.');
  const quantity = value.quantity ?? 0;
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0)
    fail(`${path}.quantity`, 'must be a whole number of at least 0.');
  const repeat = value.repeat === undefined || value.repeat === 'never' ? 'never' : parseInterval(`${path}.repeat`, value.repeat);
  const expires = value.expires ?? 'never';
  if (!expiries.includes(expires as IncludedItem['expires'])) fail(`${path}.expires`, `must be one of ${expiries.join(', ')}.`);
  if (expires === 'when-repeated' && repeat === 'never') fail(`${path}.expires`, 'when-repeated needs a repeat interval.');
  return { quantity, repeat, expires: expires as IncludedItem['expires'] };
}

function parseProduct(
  id: string,
  value: unknown,
  items: Map<string, Item>,
  lines: Map<string, ProductLine>,
  path = `payments.products.${id}`,
): Product {
  if (!isJsonObject(value)) fail(path, 'must be an object.');
  const customerType = customerTypeOf(path, value.customerType);
  const productLineId = optionalString(`${path}.productLineId`, value.productLineId);
  if (productLineId !== undefined) {
    const line = lines.get(productLineId);
    if (!line) fail(`${path}.productLineId`, `Product line ${productLineId} does not exist.`);
    if (line.customerType && line.customerType !== customerType)
      fail(`${path}.customerType`, `must be ${line.customerType}, the customer type of product line ${productLineId}.`);
  }
  let prices: Product['prices'];
  if (value.prices === 'include-by-default') prices = 'include-by-default';
  else
    prices = Object.fromEntries(
      entriesOf(`${path}.prices`, value.prices).map(([priceId, price]) => [priceId, parsePrice(`${path}.prices.${priceId}`, price)]),
    );
  const includedItems: Record<string, IncludedItem> = {};
  for (const [itemId, included] of entriesOf(`${path}.includedItems`, value.includedItems)) {
    const item = items.get(itemId);
    if (!item) fail(`${path}.includedItems.${itemId}`, `Item ${itemId} does not exist.`);
    if (item.customerType !== customerType)
      fail(`${path}.includedItems.${itemId}`, `Item ${itemId} is for customer type ${item.customerType}, the product for ${customerType}.`);
    includedItems[itemId] = parseIncludedItem(`${path}.includedItems.${itemId}`, included);
  }
  let isAddOnTo: Product['isAddOnTo'] = false;
  if (value.isAddOnTo !== undefined && value.isAddOnTo !== false) {
    isAddOnTo = {};
    for (const [baseId, flag] of entriesOf(`${path}.isAddOnTo`, value.isAddOnTo)) {
      if (flag !== true) fail(`${path}.isAddOnTo.${baseId}`, 'must be true.');
      isAddOnTo[baseId] = true;
    }
  }
  return {
    id,
    displayName: optionalString(`${path}.displayName`, value.displayName) ?? id,
    productLineId,
    isAddOnTo,
    customerType,
    freeTrial: value.freeTrial === undefined ? undefined : parseInterval(`${path}.freeTrial`, value.freeTrial),
    serverOnly: optionalBoolean(`${path}.serverOnly`, value.serverOnly, false),
    stackable: optionalBoolean(`${path}.stackable`, value.stackable, false),
    prices,
    includedItems,
    clientMetadata: value.clientMetadata ?? null,
    clientReadOnlyMetadata: value.clientReadOnlyMetadata ?? null,
    serverMetadata: value.serverMetadata ?? null,
  };
}

/** The checked catalogue of `config.payments`; throws a plain 400 naming the first broken rule. */
export function parseCatalogue(payments: unknown): Catalogue {
  const config = isJsonObject(payments) ? payments : {};
  const items = new Map<string, Item>();
  for (const [id, value] of entriesOf('payments.items', config.items)) {
    const path = `payments.items.${id}`;
    if (!isJsonObject(value)) fail(path, 'must be an object.');
    items.set(id, {
      id,
      displayName: optionalString(`${path}.displayName`, value.displayName) ?? id,
      customerType: customerTypeOf(path, value.customerType),
    });
  }
  const productLines = new Map<string, ProductLine>();
  for (const [id, value] of entriesOf('payments.productLines', config.productLines)) {
    const path = `payments.productLines.${id}`;
    if (!isJsonObject(value)) fail(path, 'must be an object.');
    productLines.set(id, {
      id,
      displayName: optionalString(`${path}.displayName`, value.displayName) ?? id,
      customerType: value.customerType === undefined ? undefined : customerTypeOf(path, value.customerType),
    });
  }
  const products = new Map<string, Product>();
  for (const [id, value] of entriesOf('payments.products', config.products)) products.set(id, parseProduct(id, value, items, productLines));
  for (const product of products.values()) {
    for (const baseId of Object.keys(product.isAddOnTo || {})) {
      if (!products.has(baseId)) fail(`payments.products.${product.id}.isAddOnTo.${baseId}`, `Product ${baseId} does not exist.`);
    }
  }
  return {
    testMode: config.testMode !== false,
    blockNewPurchases: config.blockNewPurchases === true,
    items,
    productLines,
    products,
  };
}

/** Whether one of the two products is an add-on to the other (then they do not exclude each other). */
export const isAddOnPair = (a: Product, b: Product): boolean =>
  Object.hasOwn(a.isAddOnTo || {}, b.id) || Object.hasOwn(b.isAddOnTo || {}, a.id);

/** The products of the same line the given product excludes (those of `owned` that are not add-ons of each other). */
export function conflictsOf(product: Product, owned: readonly Product[]): Product[] {
  if (!product.productLineId) return [];
  return owned.filter((other) => other.id !== product.id && other.productLineId === product.productLineId && !isAddOnPair(product, other));
}

/**
 * A product given inline in a request (snake_case, docs/protocol/entities.md InlineProduct), checked like a
 * catalogue entry against the catalogue's items; `server_only` defaults to true. Problems are plain 400s.
 */
export function parseInlineProduct(value: JsonObject, catalogue: Catalogue): Product {
  const prices = value.prices;
  const camel = {
    displayName: value.display_name,
    customerType: value.customer_type,
    freeTrial: value.free_trial,
    serverOnly: value.server_only ?? true,
    stackable: value.stackable ?? false,
    prices: isJsonObject(prices)
      ? Object.fromEntries(
          Object.entries(prices).map(([id, price]) => {
            if (!isJsonObject(price)) return [id, price];
            const { free_trial, server_only, ...rest } = price;
            return [id, { ...rest, freeTrial: free_trial, serverOnly: server_only }];
          }),
        )
      : prices,
    includedItems: value.included_items,
    clientMetadata: value.client_metadata,
    clientReadOnlyMetadata: value.client_read_only_metadata,
    serverMetadata: value.server_metadata,
  };
  return parseProduct('inline', camel, catalogue.items, catalogue.productLines, 'product_inline');
}
