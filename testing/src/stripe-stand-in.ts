import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { type AccountObjectStore, handleAccountObjects } from './stripe-stand-in/account-objects.ts';
import { type AccountObject, type Answer, id } from './stripe-stand-in/stripe-shapes.ts';

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
export type StandInCard = { brand: string; last4: string; exp_month: number; exp_year: number };

/** A `Stripe-Signature` header for a webhook payload, as Stripe signs it (the SDK's own test helper). */
export function signStripeWebhook(payload: string, secret: string, timestamp?: number): string {
  return new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}

/**
 * A local HTTP server standing in for the part of Stripe's API that Stripe mode calls (Connect
 * accounts, account links, account sessions, refunds), so tests drive the real `stripe` SDK with no
 * network. It answers Stripe's shapes and error envelope and records every request.
 */
export class StripeStandIn implements AccountObjectStore {
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
  /** Connected accounts for which Stripe has no payment method configuration yet. */
  readonly withoutMethodConfig = new Set<string | undefined>();
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
  refusal(paymentMethodId: string | null, intent?: AccountObject): Answer | undefined {
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

  create(kind: string, prefix: string, stripeAccount: string | undefined, fields: Record<string, unknown>): AccountObject {
    const object = { id: id(prefix), object: kind, account: stripeAccount, created: Math.floor(Date.now() / 1000), ...fields };
    this.objects.set(object.id, object);
    return object;
  }

  /** The object of the request's connected account with that id and kind, or undefined. */
  find(kind: string, objectId: string, stripeAccount: string | undefined): AccountObject | undefined {
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
    const answer = handleAccountObjects(this, request.method ?? '', path, body, stripeAccount);
    if (answer) return answer;
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } }];
  }

  /**
   * A stand-in of Stripe.js for the checkout page: `Stripe(key, { stripeAccount })`, `elements({ clientSecret })`
   * with a Payment Element that shows a card field, and `confirmPayment` / `confirmSetup`, which go to
   * this server's confirm page (recorded, the intent succeeds) and from there to the return URL, as Stripe does.
   */
  private stripeJs(): string {
    return browserFake('stripe-js.js', this.url);
  }

  /**
   * A stand-in of Connect.js (Stripe's embedded Connect components) as @stripe/connect-js drives it:
   * `window.StripeConnect.init(params)` takes the client secret (the SDK's eager `fetchClientSecret`), claims the
   * session here (recorded, with the publishable key and the SDK's version) and the `stripe-connect-*` elements
   * show what they are for the session's account, or report a load error through `setOnLoadError`.
   */
  private connectJs(): string {
    return browserFake('connect-js.js', this.url);
  }
}

/** A browser fake (a real script file beside this one) with the stand-in's origin filled in. */
function browserFake(file: 'stripe-js.js' | 'connect-js.js', origin: string): string {
  const script = readFileSync(new URL(`./stripe-stand-in/${file}`, import.meta.url), 'utf8');
  return script.replace("'__STAND_IN_ORIGIN__'", JSON.stringify(origin));
}
