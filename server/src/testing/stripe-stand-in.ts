import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type Account = {
  id: string;
  metadata: Record<string, string>;
  charges_enabled: boolean;
  details_submitted: boolean;
  payouts_enabled: boolean;
};
export type StandInRequest = { method: string; path: string; body: URLSearchParams; stripeAccount: string | undefined };

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/**
 * A local HTTP server standing in for the part of Stripe's API that Stripe mode calls (Connect
 * accounts, account links, account sessions, refunds), so tests drive the real `stripe` SDK with no
 * network. It answers Stripe's shapes and error envelope and records every request.
 */
export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  readonly accounts = new Map<string, Account>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(
        ([status, body]) => {
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

  private async handle(request: IncomingMessage): Promise<[number, unknown]> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const path = (request.url ?? '').split('?')[0] as string;
    const stripeAccount = request.headers['stripe-account'] as string | undefined;
    this.requests.push({ method: request.method ?? '', path, body, stripeAccount });
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
      return [200, { object: 'account_session', account: body.get('account'), client_secret: id('accs_secret'), expires_at: now + 1800 }];
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      return [
        200,
        {
          id: id('re'),
          object: 'refund',
          amount: Number(body.get('amount')),
          payment_intent: body.get('payment_intent'),
          status: 'succeeded',
        },
      ];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } }];
  }
}
