import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * The payments catalogue in the config (docs/protocol/entities.md "Payments"): every rule answers a plain 400 with
 * its message (the seed's money messages verbatim) after the path it is about, and saves nothing.
 */
const env = withTestContext();

const patch = (override: unknown) =>
  env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/config/override/project',
    headers: env.project.headers.admin,
    payload: { config_override_string: JSON.stringify(override) },
  });

const items = { credits: { displayName: 'Credits', customerType: 'user' }, seats: { customerType: 'team' } };
const product = (overrides: Record<string, unknown> = {}) => ({
  displayName: 'Pro',
  customerType: 'user',
  prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
  includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
  ...overrides,
});
const withProduct = (overrides: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  payments: {
    items,
    productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
    products: { pro: product(overrides) },
    ...extra,
  },
});
const withPrice = (price: Record<string, unknown>) => withProduct({ prices: { monthly: price } });

describe('payments catalogue validation', () => {
  it('accepts a full catalogue and renders it', async () => {
    const response = await patch({
      payments: {
        testMode: true,
        blockNewPurchases: false,
        items,
        productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
        products: {
          free: {
            displayName: 'Free',
            customerType: 'user',
            productLineId: 'plans',
            prices: 'include-by-default',
            includedItems: { credits: { quantity: 5 } },
          },
          pro: product({
            productLineId: 'plans',
            freeTrial: [14, 'day'],
            prices: { monthly: { USD: '10', EUR: '9.5', JPY: '1200', interval: [1, 'month'] } },
          }),
          boost: product({ productLineId: 'plans', isAddOnTo: { pro: true }, stackable: true, prices: { once: { USD: '0.99' } } }),
          team_seats: {
            customerType: 'team',
            prices: { yearly: { USD: '100.00', interval: [1, 'year'], serverOnly: true } },
            includedItems: { seats: { quantity: 5 } },
          },
        },
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(JSON.parse(response.body.config_string).payments.products.pro.prices.monthly).toEqual({
      USD: '10',
      EUR: '9.5',
      JPY: '1200',
      interval: [1, 'month'],
    });
  });

  it.each([
    [
      'an amount with letters',
      withPrice({ USD: '9.9x' }),
      'payments.products.pro.prices.monthly.USD: Money amount must be in the format of <number> or <number>.<number>',
    ],
    [
      'an amount that is a number',
      withPrice({ USD: 9.99 }),
      'payments.products.pro.prices.monthly.USD: Money amount must be in the format of <number> or <number>.<number>',
    ],
    [
      'a negative amount',
      withPrice({ EUR: '-1' }),
      'payments.products.pro.prices.monthly.EUR: Money amount must be in the format of <number> or <number>.<number>',
    ],
    [
      'a trailing dot',
      withPrice({ USD: '10.' }),
      'payments.products.pro.prices.monthly.USD: Money amount must be in the format of <number> or <number>.<number>',
    ],
    ['leading zeros', withPrice({ USD: '09.99' }), 'payments.products.pro.prices.monthly.USD: Money amount must not have leading zeros'],
    [
      'too many decimals for USD',
      withPrice({ USD: '9.999' }),
      'payments.products.pro.prices.monthly.USD: Too many decimals; USD only has 2 decimals',
    ],
    [
      'decimals for JPY',
      withPrice({ JPY: '100.5' }),
      'payments.products.pro.prices.monthly.JPY: Too many decimals; JPY only has 0 decimals',
    ],
    [
      'a price without a currency',
      withPrice({ interval: [1, 'month'] }),
      'payments.products.pro.prices.monthly: At least one currency is required',
    ],
    [
      'an unknown currency',
      withPrice({ XYZ: '1' }),
      'payments.products.pro.prices.monthly.XYZ: Unknown currency; supported: USD, EUR, GBP, CAD, AUD, CHF, INR, JPY.',
    ],
    [
      'an unknown interval unit',
      withPrice({ USD: '1', interval: [1, 'fortnight'] }),
      'payments.products.pro.prices.monthly.interval: An interval unit must be one of day, week, month, year.',
    ],
    [
      'a fractional interval count',
      withPrice({ USD: '1', interval: [1.5, 'month'] }),
      'payments.products.pro.prices.monthly.interval: An interval count must be a whole number of at least 0.',
    ],
    [
      'an interval that is not a pair',
      withPrice({ USD: '1', interval: 'monthly' }),
      'payments.products.pro.prices.monthly.interval: An interval must be [count, unit].',
    ],
    [
      'a free trial with a negative count',
      withProduct({ freeTrial: [-1, 'day'] }),
      'payments.products.pro.freeTrial: An interval count must be a whole number of at least 0.',
    ],
    [
      'a product id starting with a digit',
      { payments: { items, products: { '1pro': product() } } },
      'payments.products: "1pro" is not a valid id: 1 to 63 letters, digits, underscores or hyphens, starting with a letter or underscore.',
    ],
    [
      'an item id of 64 characters',
      { payments: { items: { [`a${'b'.repeat(63)}`]: { customerType: 'user' } } } },
      `payments.items: "a${'b'.repeat(63)}" is not a valid id: 1 to 63 letters, digits, underscores or hyphens, starting with a letter or underscore.`,
    ],
    [
      'a price id with a dot-free but invalid character',
      withProduct({ prices: { 'per month': { USD: '1' } } }),
      'payments.products.pro.prices: "per month" is not a valid id: 1 to 63 letters, digits, underscores or hyphens, starting with a letter or underscore.',
    ],
    [
      'an unknown customer type',
      { payments: { items: { credits: { customerType: 'org' } } } },
      'payments.items.credits.customerType: must be one of user, team, custom.',
    ],
    [
      'an unknown product line',
      withProduct({ productLineId: 'tiers' }),
      'payments.products.pro.productLineId: Product line tiers does not exist.',
    ],
    [
      'a product of another customer type than its line',
      withProduct({ productLineId: 'plans', customerType: 'team', includedItems: {} }),
      'payments.products.pro.customerType: must be user, the customer type of product line plans.',
    ],
    [
      'an included item that does not exist',
      withProduct({ includedItems: { gems: { quantity: 1 } } }),
      'payments.products.pro.includedItems.gems: Item gems does not exist.',
    ],
    [
      'an included item of another customer type',
      withProduct({ includedItems: { seats: { quantity: 1 } } }),
      'payments.products.pro.includedItems.seats: Item seats is for customer type team, the product for user.',
    ],
    [
      'a negative included quantity',
      withProduct({ includedItems: { credits: { quantity: -5 } } }),
      'payments.products.pro.includedItems.credits.quantity: must be a whole number of at least 0.',
    ],
    [
      'an unknown expiry',
      withProduct({ includedItems: { credits: { quantity: 5, expires: 'sometimes' } } }),
      'payments.products.pro.includedItems.credits.expires: must be one of never, when-purchase-expires, when-repeated.',
    ],
    [
      'when-repeated without a repeat',
      withProduct({ includedItems: { credits: { quantity: 5, expires: 'when-repeated' } } }),
      'payments.products.pro.includedItems.credits.expires: when-repeated needs a repeat interval.',
    ],
    [
      'an add-on to an unknown product',
      withProduct({ isAddOnTo: { basic: true } }),
      'payments.products.pro.isAddOnTo.basic: Product basic does not exist.',
    ],
    [
      'a stackable flag that is not a boolean',
      withProduct({ stackable: 'yes' }),
      'payments.products.pro.stackable: must be true or false.',
    ],
    ['a display name that is not a string', withProduct({ displayName: 42 }), 'payments.products.pro.displayName: must be a string.'],
    ['a product that is not an object', { payments: { products: { pro: 'gold' } } }, 'payments.products.pro: must be an object.'],
  ])('refuses %s', async (_case, override, message) => {
    const before = await env.context.request({ url: '/api/v1/internal/config', headers: env.project.headers.admin });
    const response = await patch(override);
    expect(response.status, response.text).toBe(400);
    expect(response.text).toBe(message);
    const after = await env.context.request({ url: '/api/v1/internal/config', headers: env.project.headers.admin });
    expect(after.body.config_string).toBe(before.body.config_string);
  });

  it('refuses the flags of the payments section when they are not booleans', async () => {
    const response = await patch({ 'payments.testMode': 'on' });
    expect(response.status).toBe(400);
    expect(response.text).toBe('payments.testMode must be true or false.');
  });
});
