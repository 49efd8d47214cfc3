import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Account = {
  id: string;
  metadata: Record<string, string>;
  charges_enabled: boolean;
  details_submitted: boolean;
  payouts_enabled: boolean;
};
export type StandInRequest = {
  method: string;
  path: string;
  body: URLSearchParams;
  stripeAccount: string | undefined;
  idempotencyKey: string | undefined;
};
/** An object of a connected account (customer, payment intent, subscription, setup intent, ...), as Stripe answers it. */
type AccountObject = { id: string; account: string | undefined } & Record<string, unknown>;
export type StandInCard = { brand: string; last4: string; exp_month: number; exp_year: number };

/** A `Stripe-Signature` header for a webhook payload, as Stripe signs it (the SDK's own test helper). */
export function signStripeWebhook(payload: string, secret: string, timestamp?: number): string {
  return new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
/** The `metadata[...]` entries of a form-encoded Stripe request. */
function metadataOf(body: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of body) {
    if (key.startsWith('metadata[') && key.endsWith(']')) metadata[key.slice('metadata['.length, -1)] = value;
  }
  return metadata;
}
const missing = (what: string, objectId: string): [number, unknown] => [
  404,
  { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${objectId}'` } },
];

/**
 * A local HTTP server standing in for the part of Stripe's API that Stripe mode calls (Connect
 * accounts, account links, account sessions, refunds), so tests drive the real `stripe` SDK with no
 * network. It answers Stripe's shapes and error envelope and records every request.
 */
export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  readonly accounts = new Map<string, Account>();
  /** Objects of the connected accounts by id: customers, products, payment intents, subscriptions, setup intents, payment methods, invoices. */
  readonly objects = new Map<string, AccountObject>();
  /** Payment methods Stripe refuses to charge off-session, with the error code it answers (`card_declined`, `authentication_required`). */
  readonly refusing = new Map<string, { code: string; declineCode?: string }>();
  /** Account sessions by client secret: the account and the components enabled. */
  readonly accountSessions = new Map<string, { account: string; components: string[] }>();
  /** The sessions Connect.js (the stand-in) was asked to load, with the publishable key and @stripe/connect-js's version. */
  readonly connectClaims: Array<{ client_secret: string; publishable_key: string; sdk_version: string }> = [];
  /** Milliseconds the stand-in waits before answering a path (a slow Stripe), e.g. `/v1/refunds`. */
  readonly delays = new Map<string, number>();
  /** Refunds by idempotency key: Stripe answers a key it saw with the first refund, not a second one. */
  private readonly refundsByKey = new Map<string, unknown>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(
        ([status, body, headers]) => {
          if (headers) {
            response.writeHead(status, headers);
            response.end(typeof body === 'string' ? body : '');
            return;
          }
          response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
          response.end(JSON.stringify(body));
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
        },
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests to a path (e.g. `/v1/accounts`) with a method. */
  calls(method: string, path: string): StandInRequest[] {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  /** Objects of a kind (`customer`, `payment_intent`, `subscription`, ...) in creation order. */
  objectsOf(kind: string): AccountObject[] {
    return [...this.objects.values()].filter((object) => object.object === kind);
  }

  /** What Stripe.js does when a buyer confirms a setup intent with a card: it succeeds with a new payment method. */
  succeedSetupIntent(setupIntentId: string, card: StandInCard): string {
    const intent = this.objects.get(setupIntentId);
    if (!intent) throw new Error(`no setup intent ${setupIntentId}`);
    const method = { id: id('pm'), object: 'payment_method', account: intent.account, type: 'card', card, customer: intent.customer };
    this.objects.set(method.id, method);
    intent.status = 'succeeded';
    intent.payment_method = method.id;
    return method.id;
  }

  /** From now on Stripe refuses to charge the payment method (a declined card, or one whose bank asks the customer to authenticate). */
  refuse(paymentMethodId: string, code: 'card_declined' | 'authentication_required', declineCode?: string): void {
    this.refusing.set(paymentMethodId, { code, ...(declineCode ? { declineCode } : {}) });
  }

  /** Stripe's 402 card error for an off-session charge of a payment method it refuses; undefined when it charges it. */
  private refusal(paymentMethodId: string | null, intent?: AccountObject): [number, unknown] | undefined {
    const refused = paymentMethodId ? this.refusing.get(paymentMethodId) : undefined;
    if (!refused) return undefined;
    const needsAction = refused.code === 'authentication_required';
    if (intent) {
      intent.status = needsAction ? 'requires_action' : 'requires_payment_method';
      intent.last_payment_error = { code: refused.code, type: 'card_error' };
    }
    return [
      402,
      {
        error: {
          type: 'card_error',
          code: refused.code,
          ...(refused.declineCode ? { decline_code: refused.declineCode } : {}),
          message: needsAction ? 'This payment required an authentication action to complete.' : 'Your card was declined.',
          ...(intent ? { payment_intent: intent } : {}),
        },
      },
    ];
  }

  /** An invoice Stripe issued to a customer of a connected account. */
  addInvoice(account: string, customer: string, invoice: { total: number; status: string; created: number }): string {
    const object = {
      id: id('in'),
      object: 'invoice',
      account,
      customer,
      ...invoice,
      currency: 'usd',
      hosted_invoice_url: `${this.url}/invoices/${customer}/${this.objectsOf('invoice').length}`,
    };
    this.objects.set(object.id, object);
    return object.id;
  }

  /** The connected account's default payment method configuration (created on first ask): card and Link on, Klarna off and unavailable. */
  methodConfigOf(stripeAccount: string | undefined): AccountObject {
    const existing = this.objectsOf('payment_method_configuration').find((config) => config.account === stripeAccount);
    if (existing) return existing;
    const state = (on: boolean, available = on) => ({
      available,
      display_preference: { overridable: null, preference: on ? 'on' : 'off', value: on ? 'on' : 'off' },
    });
    return this.create('payment_method_configuration', 'pmc', stripeAccount, {
      active: true,
      is_default: true,
      name: 'Default',
      card: state(true),
      link: state(true),
      klarna: state(false, false),
    });
  }

  private create(kind: string, prefix: string, stripeAccount: string | undefined, fields: Record<string, unknown>): AccountObject {
    const object = { id: id(prefix), object: kind, account: stripeAccount, created: Math.floor(Date.now() / 1000), ...fields };
    this.objects.set(object.id, object);
    return object;
  }

  /** The object of the request's connected account with that id and kind, or undefined. */
  private find(kind: string, objectId: string, stripeAccount: string | undefined): AccountObject | undefined {
    const object = this.objects.get(decodeURIComponent(objectId));
    return object && object.object === kind && object.account === stripeAccount ? object : undefined;
  }

  private async handle(request: IncomingMessage): Promise<[number, unknown, Record<string, string>?]> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const [path = '', query = ''] = (request.url ?? '').split('?');
    const body = new URLSearchParams(request.method === 'GET' ? query : Buffer.concat(chunks).toString('utf8'));
    const stripeAccount = request.headers['stripe-account'] as string | undefined;
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method: request.method ?? '', path, body, stripeAccount, idempotencyKey });
    const delay = this.delays.get(path);
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    const now = Math.floor(Date.now() / 1000);
    if (request.method === 'POST' && path === '/v1/accounts') {
      const metadata: Record<string, string> = {};
      for (const [key, value] of body) {
        const match = key.match(/^metadata\[(.+)\]$/);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const account = { id: id('acct'), metadata, charges_enabled: false, details_submitted: false, payouts_enabled: false };
      this.accounts.set(account.id, account);
      return [200, { object: 'account', type: body.get('type'), ...account }];
    }
    const accountMatch = path.match(/^\/v1\/accounts\/([^/]+)$/);
    if (request.method === 'GET' && accountMatch) {
      const account = this.accounts.get(decodeURIComponent(accountMatch[1] as string));
      if (!account) return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such account' } }];
      return [200, { object: 'account', ...account }];
    }
    if (request.method === 'POST' && path === '/v1/account_links') {
      return [200, { object: 'account_link', created: now, expires_at: now + 300, url: `${this.url}/setup/${body.get('account')}` }];
    }
    if (request.method === 'POST' && path === '/v1/account_sessions') {
      const session = { object: 'account_session', account: body.get('account'), client_secret: id('accs_secret'), expires_at: now + 1800 };
      const components = [...body.keys()].flatMap((key) => /^components\[(\w+)\]\[enabled\]$/.exec(key)?.[1] ?? []);
      this.accountSessions.set(session.client_secret, { account: session.account ?? '', components });
      return [200, session];
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      const key = idempotencyKey ? `${stripeAccount ?? ''} ${idempotencyKey}` : undefined;
      const known = key ? this.refundsByKey.get(key) : undefined;
      if (known) return [200, known];
      const refund = {
        id: id('re'),
        object: 'refund',
        amount: Number(body.get('amount')),
        payment_intent: body.get('payment_intent'),
        status: 'succeeded',
      };
      if (key) this.refundsByKey.set(key, refund);
      return [200, refund];
    }
    if (request.method === 'GET' && path === '/v3/') return [200, this.stripeJs(), { 'content-type': 'text/javascript; charset=utf-8' }];
    if (request.method === 'GET' && path === '/connect-js/v1.0/connect.js')
      return [200, this.connectJs(), { 'content-type': 'text/javascript; charset=utf-8' }];
    if (request.method === 'GET' && path === '/stand-in/connect/claim') {
      // What Connect.js does first with the client secret the dashboard's server made: Stripe answers the session's account.
      const claim = {
        client_secret: body.get('client_secret') ?? '',
        publishable_key: body.get('publishable_key') ?? '',
        sdk_version: body.get('sdk_version') ?? '',
      };
      this.connectClaims.push(claim);
      const session = this.accountSessions.get(claim.client_secret);
      const cors = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
      if (!session) return [401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid account session' } }), cors];
      return [200, JSON.stringify(session), cors];
    }
    if (request.method === 'GET' && path === '/stand-in/confirm') {
      // What Stripe does after the buyer confirms on its Payment Element: the intent succeeds and the buyer goes back.
      const secret = body.get('client_secret');
      const intent = [...this.objects.values()].find((object) => object.client_secret === secret);
      if (intent) intent.status = 'succeeded';
      const back = new URL(body.get('return_url') ?? '');
      if (intent) back.searchParams.set(intent.object === 'setup_intent' ? 'setup_intent' : 'payment_intent', intent.id);
      back.searchParams.set('redirect_status', intent ? 'succeeded' : 'failed');
      return [302, '', { location: back.toString() }];
    }
    const answer = this.handleAccountObjects(request.method ?? '', path, body, stripeAccount);
    if (answer) return answer;
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } }];
  }

  /**
   * A stand-in of Stripe.js for the checkout page: `Stripe(key, { stripeAccount })`, `elements({ clientSecret })`
   * with a Payment Element that shows a card field, and `confirmPayment` / `confirmSetup`, which go to
   * this server's confirm page (recorded, the intent succeeds) and from there to the return URL, as Stripe does.
   */
  private stripeJs(): string {
    return `window.Stripe = function (publishableKey, options) {
  const origin = ${JSON.stringify(this.url)};
  function confirm(args) {
    const query = new URLSearchParams({
      client_secret: args.elements.clientSecret,
      return_url: args.confirmParams.return_url,
      publishable_key: publishableKey,
      account: (options && options.stripeAccount) || '',
    });
    window.location.assign(origin + '/stand-in/confirm?' + query.toString());
    return new Promise(function () {});
  }
  return {
    elements: function (init) {
      return {
        clientSecret: init.clientSecret,
        create: function () {
          return {
            mount: function (selector) {
              const element = document.querySelector(selector);
              element.innerHTML = '<label>Card number (Stripe stand-in) <input name="stand-in-card" value="4242 4242 4242 4242"></label>';
            },
          };
        },
      };
    },
    confirmPayment: confirm,
    confirmSetup: confirm,
  };
};
`;
  }

  /** The subscription item of a request's `items[0]` (price per interval), its period starting now. */
  private subscriptionItemOf(body: URLSearchParams): Record<string, unknown> {
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
  private paidInvoice(subscription: AccountObject, body: URLSearchParams): AccountObject {
    return this.create('invoice', 'in', subscription.account, {
      customer: subscription.customer,
      subscription: subscription.id,
      status: 'paid',
      total: Number(body.get('items[0][price_data][unit_amount]') ?? 0) * Number(body.get('items[0][quantity]') ?? 1),
      currency: body.get('items[0][price_data][currency]'),
      billing_reason: subscription.latest_invoice ? 'subscription_update' : 'subscription_create',
      hosted_invoice_url: null,
    });
  }

  /**
   * A stand-in of Connect.js (Stripe's embedded Connect components) as @stripe/connect-js drives it:
   * `window.StripeConnect.init(params)` takes the client secret (the SDK's eager `fetchClientSecret`), claims the
   * session here (recorded, with the publishable key and the SDK's version) and the `stripe-connect-*` elements
   * show what they are for the session's account, or report a load error through `setOnLoadError`.
   */
  private connectJs(): string {
    return `(function () {
  const origin = ${JSON.stringify(this.url)};
  const titles = {
    'stripe-connect-account-onboarding': 'Account onboarding',
    'stripe-connect-account-management': 'Account management',
    'stripe-connect-notification-banner': 'Notifications',
    'stripe-connect-payments': 'Payments',
    'stripe-connect-payouts': 'Payouts',
  };
  const component = { 'stripe-connect-account-onboarding': 'account_onboarding', 'stripe-connect-account-management': 'account_management',
    'stripe-connect-notification-banner': 'notification_banner', 'stripe-connect-payments': 'payments', 'stripe-connect-payouts': 'payouts' };
  Object.keys(titles).forEach(function (tag) {
    customElements.define(tag, class extends HTMLElement {
      setOnLoadErrorInternalOnly(listener) { this.onLoadError = listener; }
      setOnLoaderStartInternalOnly(listener) { this.onLoaderStart = listener; }
      setOnExitInternalOnly(listener) { this.onExit = listener; }
      setConnector(connect) {
        const element = this;
        if (element.onLoaderStart) element.onLoaderStart({ elementTagName: tag });
        connect.session.then(function (session) {
          if (session.components.indexOf(component[tag]) < 0) throw new Error('This component is not enabled for the account session');
          element.setAttribute('data-account', session.account);
          element.innerHTML = '<p>' + titles[tag] + ' of ' + session.account + ' (Stripe stand-in)</p>';
        }).catch(function (error) {
          if (element.onLoadError) element.onLoadError({ elementTagName: tag, error: { type: 'authentication_error', message: error.message } });
        });
      }
    });
  });
  window.StripeConnect = window.StripeConnect || {};
  window.StripeConnect.init = function (params) {
    const meta = params.metaOptions || {};
    const secret = meta.eagerClientSecretPromise || params.fetchClientSecret();
    const session = Promise.resolve(secret).then(function (clientSecret) {
      const query = new URLSearchParams({ client_secret: clientSecret, publishable_key: params.publishableKey,
        sdk_version: (meta.sdkOptions && meta.sdkOptions.sdkVersion) || '' });
      return fetch(origin + '/stand-in/connect/claim?' + query.toString()).then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.error.message);
          return body;
        });
      });
    });
    session.catch(function () {});
    return { connect: { session: session }, update: function () {}, logout: function () { return Promise.resolve(); } };
  };
})();
`;
  }

  /** Customers, products, payment intents, subscriptions, invoices, setup intents and payment methods of a connected account. */
  private handleAccountObjects(
    method: string,
    path: string,
    body: URLSearchParams,
    stripeAccount: string | undefined,
  ): [number, unknown] | undefined {
    const [, resource, objectId] = path.match(/^\/v1\/([a-z_]+)(?:\/([^/]+))?$/) ?? [];
    if (method === 'POST' && resource === 'customers' && !objectId) {
      return [
        200,
        this.create('customer', 'cus', stripeAccount, { metadata: metadataOf(body), invoice_settings: { default_payment_method: null } }),
      ];
    }
    if (method === 'POST' && resource === 'customers' && objectId) {
      const customer = this.find('customer', objectId, stripeAccount);
      if (!customer) return missing('customer', objectId);
      const defaultMethod = body.get('invoice_settings[default_payment_method]');
      if (defaultMethod !== null) customer.invoice_settings = { default_payment_method: defaultMethod };
      return [200, customer];
    }
    if (method === 'POST' && resource === 'products' && !objectId) {
      return [200, this.create('product', 'prod', stripeAccount, { name: body.get('name'), metadata: metadataOf(body) })];
    }
    if (method === 'POST' && resource === 'payment_intents' && !objectId && body.get('confirm') === 'true') {
      // An off-session payment with a saved payment method, confirmed at once: succeeded, or Stripe's card error.
      const paymentMethod = body.get('payment_method');
      if (!paymentMethod || !this.find('payment_method', paymentMethod, stripeAccount))
        return missing('payment_method', paymentMethod ?? '');
      const intent = this.create('payment_intent', 'pi', stripeAccount, {
        amount: Number(body.get('amount')),
        currency: body.get('currency'),
        customer: body.get('customer'),
        description: body.get('description'),
        metadata: metadataOf(body),
        payment_method: paymentMethod,
        off_session: body.get('off_session') === 'true',
        status: 'succeeded',
      });
      return this.refusal(paymentMethod, intent) ?? [200, intent];
    }
    if (method === 'POST' && resource === 'payment_intents' && !objectId) {
      const intentId = id('pi');
      const intent = this.create('payment_intent', 'pi', stripeAccount, {
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
    if (method === 'POST' && resource === 'subscriptions' && !objectId && body.get('payment_behavior') === 'error_if_incomplete') {
      // Paid at once with the saved payment method (off-session): active with a paid invoice, or nothing created.
      const customer = body.get('customer') ?? '';
      if (!this.find('customer', customer, stripeAccount)) return missing('customer', customer);
      const paymentMethod = body.get('default_payment_method');
      const refused = this.refusal(paymentMethod);
      if (refused) return refused;
      const subscription = this.create('subscription', 'sub', stripeAccount, {
        customer,
        status: 'active',
        default_payment_method: paymentMethod,
        metadata: metadataOf(body),
        items: { object: 'list', data: [this.subscriptionItemOf(body)] },
      });
      subscription.latest_invoice = this.paidInvoice(subscription, body);
      return [200, subscription];
    }
    if (method === 'POST' && resource === 'subscriptions' && objectId) {
      // A switch: the item moves to the new price, prorations invoiced and paid at once, or (refused) nothing changes.
      const subscription = this.find('subscription', objectId, stripeAccount);
      if (!subscription) return missing('subscription', objectId);
      const items = (subscription.items as { data: Array<Record<string, unknown>> }).data;
      const itemId = body.get('items[0][id]');
      if (itemId !== null && !items.some((item) => item.id === itemId)) return missing('subscription_item', itemId);
      const paymentMethod = body.get('default_payment_method') ?? (subscription.default_payment_method as string | null);
      const refused = this.refusal(paymentMethod);
      if (refused) return refused;
      if (itemId !== null) subscription.items = { object: 'list', data: [{ ...this.subscriptionItemOf(body), id: itemId }] };
      subscription.default_payment_method = paymentMethod;
      subscription.metadata = { ...(subscription.metadata as Record<string, string>), ...metadataOf(body) };
      if (body.get('cancel_at_period_end') !== null) subscription.cancel_at_period_end = body.get('cancel_at_period_end') === 'true';
      subscription.status = 'active';
      subscription.latest_invoice = this.paidInvoice(subscription, body);
      return [200, subscription];
    }
    if (method === 'GET' && resource === 'subscriptions' && objectId) {
      const subscription = this.find('subscription', objectId, stripeAccount);
      return subscription ? [200, subscription] : missing('subscription', objectId);
    }
    if (method === 'DELETE' && resource === 'subscriptions' && objectId) {
      const subscription = this.find('subscription', objectId, stripeAccount);
      if (!subscription) return missing('subscription', objectId);
      subscription.status = 'canceled';
      return [200, subscription];
    }
    if (method === 'POST' && resource === 'subscriptions' && !objectId) {
      const customer = body.get('customer') ?? '';
      if (!this.find('customer', customer, stripeAccount)) return missing('customer', customer);
      const trialEnd = body.get('trial_end');
      const invoiceIntent = trialEnd
        ? null
        : this.create('payment_intent', 'pi', stripeAccount, { customer, status: 'requires_payment_method', metadata: {} });
      if (invoiceIntent) invoiceIntent.client_secret = `${invoiceIntent.id}_secret_invoice`;
      const invoice = this.create('invoice', 'in', stripeAccount, {
        customer,
        status: 'open',
        total: trialEnd ? 0 : Number(body.get('items[0][price_data][unit_amount]')) * Number(body.get('items[0][quantity]') ?? 1),
        currency: body.get('items[0][price_data][currency]'),
        hosted_invoice_url: null,
        confirmation_secret: invoiceIntent ? { client_secret: invoiceIntent.client_secret, type: 'payment_intent' } : null,
      });
      const setupIntent = trialEnd
        ? this.create('setup_intent', 'seti', stripeAccount, { customer, status: 'requires_payment_method' })
        : null;
      if (setupIntent) setupIntent.client_secret = `${setupIntent.id}_secret_trial`;
      const subscription = this.create('subscription', 'sub', stripeAccount, {
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
    if (method === 'GET' && resource === 'invoices' && !objectId) {
      const all = this.objectsOf('invoice')
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
        { object: 'list', url: '/v1/payment_method_configurations', has_more: false, data: [this.methodConfigOf(stripeAccount)] },
      ];
    }
    if (method === 'POST' && resource === 'payment_method_configurations' && objectId) {
      const config = this.find('payment_method_configuration', objectId, stripeAccount);
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
      const intent = this.create('setup_intent', 'seti', stripeAccount, {
        customer: body.get('customer'),
        usage: body.get('usage'),
        status: 'requires_payment_method',
        payment_method: null,
      });
      intent.client_secret = `${intent.id}_secret_${randomBytes(4).toString('hex')}`;
      return [200, intent];
    }
    if (method === 'GET' && resource === 'setup_intents' && objectId) {
      const intent = this.find('setup_intent', objectId, stripeAccount);
      return intent ? [200, intent] : missing('setup_intent', objectId);
    }
    if (method === 'GET' && resource === 'payment_methods' && objectId) {
      const paymentMethod = this.find('payment_method', objectId, stripeAccount);
      return paymentMethod ? [200, paymentMethod] : missing('payment_method', objectId);
    }
    return undefined;
  }
}
