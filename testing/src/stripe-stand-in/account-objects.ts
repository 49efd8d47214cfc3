import { randomBytes } from 'node:crypto';
import { type AccountObject, type Answer, id, metadataOf, missing } from './stripe-shapes.ts';

/** What the account-object routes need of the stand-in: its objects and how it creates, finds and refuses them. */
export type AccountObjectStore = {
  create(kind: string, prefix: string, stripeAccount: string | undefined, fields: Record<string, unknown>): AccountObject;
  find(kind: string, objectId: string, stripeAccount: string | undefined): AccountObject | undefined;
  objectsOf(kind: string): AccountObject[];
  refusal(paymentMethodId: string | null, intent?: AccountObject): Answer | undefined;
  methodConfigOf(stripeAccount: string | undefined): AccountObject;
  /** Connected accounts whose configuration list is empty (as Stripe answers before it made one). */
  readonly withoutMethodConfig: ReadonlySet<string | undefined>;
};

type AccountRequest = {
  method: string;
  resource: string | undefined;
  objectId: string | undefined;
  body: URLSearchParams;
  stripeAccount: string | undefined;
};

/** Customers, products, payment intents, subscriptions, invoices, setup intents and payment methods of a connected account. */
export function handleAccountObjects(
  store: AccountObjectStore,
  method: string,
  path: string,
  body: URLSearchParams,
  stripeAccount: string | undefined,
): Answer | undefined {
  const [, resource, objectId] = path.match(/^\/v1\/([a-z_]+)(?:\/([^/]+))?$/) ?? [];
  const request = { method, resource, objectId, body, stripeAccount };
  return (
    customerRoutes(store, request) ??
    paymentIntentRoutes(store, request) ??
    subscriptionRoutes(store, request) ??
    billingRoutes(store, request)
  );
}

/** Customers and products. */
function customerRoutes(
  store: AccountObjectStore,
  { method, resource, objectId, body, stripeAccount }: AccountRequest,
): Answer | undefined {
  if (method === 'POST' && resource === 'customers' && !objectId) {
    return [
      200,
      store.create('customer', 'cus', stripeAccount, { metadata: metadataOf(body), invoice_settings: { default_payment_method: null } }),
    ];
  }
  if (method === 'POST' && resource === 'customers' && objectId) {
    const customer = store.find('customer', objectId, stripeAccount);
    if (!customer) return missing('customer', objectId);
    const defaultMethod = body.get('invoice_settings[default_payment_method]');
    if (defaultMethod !== null) customer.invoice_settings = { default_payment_method: defaultMethod };
    return [200, customer];
  }
  if (method === 'POST' && resource === 'products' && !objectId) {
    return [200, store.create('product', 'prod', stripeAccount, { name: body.get('name'), metadata: metadataOf(body) })];
  }
  return undefined;
}

/** Payment intents: off-session charges of a saved method, and intents the buyer confirms. */
function paymentIntentRoutes(
  store: AccountObjectStore,
  { method, resource, objectId, body, stripeAccount }: AccountRequest,
): Answer | undefined {
  if (method === 'POST' && resource === 'payment_intents' && !objectId && body.get('confirm') === 'true') {
    // An off-session payment with a saved payment method, confirmed at once: succeeded, or Stripe's card error.
    const paymentMethod = body.get('payment_method');
    if (!paymentMethod || !store.find('payment_method', paymentMethod, stripeAccount))
      return missing('payment_method', paymentMethod ?? '');
    const intent = store.create('payment_intent', 'pi', stripeAccount, {
      amount: Number(body.get('amount')),
      currency: body.get('currency'),
      customer: body.get('customer'),
      description: body.get('description'),
      metadata: metadataOf(body),
      payment_method: paymentMethod,
      off_session: body.get('off_session') === 'true',
      status: 'succeeded',
    });
    return store.refusal(paymentMethod, intent) ?? [200, intent];
  }
  if (method === 'POST' && resource === 'payment_intents' && !objectId) {
    const intentId = id('pi');
    const intent = store.create('payment_intent', 'pi', stripeAccount, {
      amount: Number(body.get('amount')),
      currency: body.get('currency'),
      customer: body.get('customer'),
      description: body.get('description'),
      metadata: metadataOf(body),
      status: 'requires_payment_method',
    });
    intent.client_secret = `${intent.id}_secret_${intentId.slice(3)}`;
    return [200, intent];
  }
  return undefined;
}

/** Subscriptions: created (paid at once, incomplete or trialing), switched, read and cancelled. */
function subscriptionRoutes(
  store: AccountObjectStore,
  { method, resource, objectId, body, stripeAccount }: AccountRequest,
): Answer | undefined {
  if (method === 'POST' && resource === 'subscriptions' && !objectId && body.get('payment_behavior') === 'error_if_incomplete') {
    // Paid at once with the saved payment method (off-session): active with a paid invoice, or nothing created.
    const customer = body.get('customer') ?? '';
    if (!store.find('customer', customer, stripeAccount)) return missing('customer', customer);
    const paymentMethod = body.get('default_payment_method');
    const refused = store.refusal(paymentMethod);
    if (refused) return refused;
    const subscription = store.create('subscription', 'sub', stripeAccount, {
      customer,
      status: 'active',
      default_payment_method: paymentMethod,
      metadata: metadataOf(body),
      items: { object: 'list', data: [subscriptionItemOf(body)] },
    });
    subscription.latest_invoice = paidInvoice(store, subscription, body);
    return [200, subscription];
  }
  if (method === 'POST' && resource === 'subscriptions' && objectId) {
    // A switch: the item moves to the new price, prorations invoiced and paid at once, or (refused) nothing changes.
    const subscription = store.find('subscription', objectId, stripeAccount);
    if (!subscription) return missing('subscription', objectId);
    const items = (subscription.items as { data: Array<Record<string, unknown>> }).data;
    const itemId = body.get('items[0][id]');
    if (itemId !== null && !items.some((item) => item.id === itemId)) return missing('subscription_item', itemId);
    const paymentMethod = body.get('default_payment_method') ?? (subscription.default_payment_method as string | null);
    const refused = store.refusal(paymentMethod);
    if (refused) return refused;
    if (itemId !== null) subscription.items = { object: 'list', data: [{ ...subscriptionItemOf(body), id: itemId }] };
    subscription.default_payment_method = paymentMethod;
    subscription.metadata = { ...(subscription.metadata as Record<string, string>), ...metadataOf(body) };
    if (body.get('cancel_at_period_end') !== null) subscription.cancel_at_period_end = body.get('cancel_at_period_end') === 'true';
    subscription.status = 'active';
    subscription.latest_invoice = paidInvoice(store, subscription, body);
    return [200, subscription];
  }
  if (method === 'GET' && resource === 'subscriptions' && objectId) {
    const subscription = store.find('subscription', objectId, stripeAccount);
    return subscription ? [200, subscription] : missing('subscription', objectId);
  }
  if (method === 'DELETE' && resource === 'subscriptions' && objectId) {
    const subscription = store.find('subscription', objectId, stripeAccount);
    if (!subscription) return missing('subscription', objectId);
    subscription.status = 'canceled';
    return [200, subscription];
  }
  if (method === 'POST' && resource === 'subscriptions' && !objectId) {
    const customer = body.get('customer') ?? '';
    if (!store.find('customer', customer, stripeAccount)) return missing('customer', customer);
    const trialEnd = body.get('trial_end');
    const invoiceIntent = trialEnd
      ? null
      : store.create('payment_intent', 'pi', stripeAccount, { customer, status: 'requires_payment_method', metadata: {} });
    if (invoiceIntent) invoiceIntent.client_secret = `${invoiceIntent.id}_secret_invoice`;
    const invoice = store.create('invoice', 'in', stripeAccount, {
      customer,
      status: 'open',
      total: trialEnd ? 0 : Number(body.get('items[0][price_data][unit_amount]')) * Number(body.get('items[0][quantity]') ?? 1),
      currency: body.get('items[0][price_data][currency]'),
      hosted_invoice_url: null,
      confirmation_secret: invoiceIntent ? { client_secret: invoiceIntent.client_secret, type: 'payment_intent' } : null,
    });
    const setupIntent = trialEnd
      ? store.create('setup_intent', 'seti', stripeAccount, { customer, status: 'requires_payment_method' })
      : null;
    if (setupIntent) setupIntent.client_secret = `${setupIntent.id}_secret_trial`;
    const subscription = store.create('subscription', 'sub', stripeAccount, {
      customer,
      status: trialEnd ? 'trialing' : 'incomplete',
      metadata: metadataOf(body),
      trial_end: trialEnd ? Number(trialEnd) : null,
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            quantity: Number(body.get('items[0][quantity]') ?? 1),
            price: {
              object: 'price',
              product: body.get('items[0][price_data][product]'),
              currency: body.get('items[0][price_data][currency]'),
              unit_amount: Number(body.get('items[0][price_data][unit_amount]')),
              recurring: {
                interval: body.get('items[0][price_data][recurring][interval]'),
                interval_count: Number(body.get('items[0][price_data][recurring][interval_count]')),
              },
            },
          },
        ],
      },
      latest_invoice: invoice,
      pending_setup_intent: setupIntent,
    });
    return [200, subscription];
  }
  return undefined;
}

/** Invoices, payment method configurations, setup intents and payment methods. */
function billingRoutes(store: AccountObjectStore, { method, resource, objectId, body, stripeAccount }: AccountRequest): Answer | undefined {
  if (method === 'GET' && resource === 'invoices' && !objectId) {
    const all = store
      .objectsOf('invoice')
      .filter((invoice) => invoice.account === stripeAccount && invoice.customer === body.get('customer'))
      .reverse();
    const after = body.get('starting_after');
    const start = after ? all.findIndex((invoice) => invoice.id === after) + 1 : 0;
    const limit = Number(body.get('limit') ?? 10);
    const data = all.slice(start, start + limit).map(({ confirmation_secret: _secret, ...invoice }) => invoice);
    return [200, { object: 'list', url: '/v1/invoices', has_more: start + limit < all.length, data }];
  }
  if (method === 'GET' && resource === 'payment_method_configurations' && !objectId) {
    return [
      200,
      {
        object: 'list',
        url: '/v1/payment_method_configurations',
        has_more: false,
        data: store.withoutMethodConfig.has(stripeAccount) ? [] : [store.methodConfigOf(stripeAccount)],
      },
    ];
  }
  if (method === 'POST' && resource === 'payment_method_configurations' && objectId) {
    const config = store.find('payment_method_configuration', objectId, stripeAccount);
    if (!config) return missing('payment_method_configuration', objectId);
    for (const [key, value] of body) {
      const match = key.match(/^([a-z_]+)\[display_preference\]\[preference\]$/);
      const methodState = match?.[1] ? (config[match[1]] as { display_preference: Record<string, unknown> } | undefined) : undefined;
      if (!methodState) return [400, { error: { type: 'invalid_request_error', message: `Received unknown parameter: ${key}` } }];
      methodState.display_preference = { ...methodState.display_preference, preference: value, value };
    }
    return [200, config];
  }
  if (method === 'POST' && resource === 'setup_intents' && !objectId) {
    const intent = store.create('setup_intent', 'seti', stripeAccount, {
      customer: body.get('customer'),
      usage: body.get('usage'),
      status: 'requires_payment_method',
      payment_method: null,
    });
    intent.client_secret = `${intent.id}_secret_${randomBytes(4).toString('hex')}`;
    return [200, intent];
  }
  if (method === 'GET' && resource === 'setup_intents' && objectId) {
    const intent = store.find('setup_intent', objectId, stripeAccount);
    return intent ? [200, intent] : missing('setup_intent', objectId);
  }
  if (method === 'GET' && resource === 'payment_methods' && objectId) {
    const paymentMethod = store.find('payment_method', objectId, stripeAccount);
    return paymentMethod ? [200, paymentMethod] : missing('payment_method', objectId);
  }
  return undefined;
}

/** The subscription item of a request's `items[0]` (price per interval), its period starting now. */
function subscriptionItemOf(body: URLSearchParams): Record<string, unknown> {
  const interval = body.get('items[0][price_data][recurring][interval]') ?? 'month';
  const count = Number(body.get('items[0][price_data][recurring][interval_count]') ?? 1);
  const start = new Date();
  const end = new Date(start.getTime());
  if (interval === 'day') end.setUTCDate(end.getUTCDate() + count);
  if (interval === 'week') end.setUTCDate(end.getUTCDate() + 7 * count);
  if (interval === 'month') end.setUTCMonth(end.getUTCMonth() + count);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + count);
  return {
    id: id('si'),
    object: 'subscription_item',
    quantity: Number(body.get('items[0][quantity]') ?? 1),
    current_period_start: Math.floor(start.getTime() / 1000),
    current_period_end: Math.floor(end.getTime() / 1000),
    price: {
      object: 'price',
      product: body.get('items[0][price_data][product]'),
      currency: body.get('items[0][price_data][currency]'),
      unit_amount: Number(body.get('items[0][price_data][unit_amount]')),
      recurring: { interval, interval_count: count },
    },
  };
}

/** The invoice an off-session subscription change paid at once (its item's price times quantity). */
function paidInvoice(store: AccountObjectStore, subscription: AccountObject, body: URLSearchParams): AccountObject {
  return store.create('invoice', 'in', subscription.account, {
    customer: subscription.customer,
    subscription: subscription.id,
    status: 'paid',
    total: Number(body.get('items[0][price_data][unit_amount]') ?? 0) * Number(body.get('items[0][quantity]') ?? 1),
    currency: body.get('items[0][price_data][currency]'),
    billing_reason: subscription.latest_invoice ? 'subscription_update' : 'subscription_create',
    hosted_invoice_url: null,
  });
}
