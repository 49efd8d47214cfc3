/**
 * The payments catalogue of the demo project (test mode): the example app's /shop sells the Pro and
 * Max plans of one product line, each including credits every month, and a stackable credit pack.
 */
export const demoPaymentsCatalogue = {
  testMode: true,
  items: { credits: { displayName: 'Credits', customerType: 'user' } },
  productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
  products: {
    pro: {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
      includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
    max: {
      displayName: 'Max',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '29', interval: [1, 'month'] } },
      includedItems: { credits: { quantity: 1000, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
    credit_pack: {
      displayName: 'Credit pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 10, expires: 'never' } },
    },
  },
};
