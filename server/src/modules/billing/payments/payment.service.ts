import { randomUUID } from 'node:crypto';
import type { components } from '@gatehouse/protocol/api-types';
import {
  CustomerDoesNotExistError,
  ItemCustomerTypeDoesNotMatchError,
  ItemNotFoundError,
  ItemQuantityInsufficientAmountError,
  ItemQuantityOutOfRangeError,
  ProductDoesNotExistError,
  UserAuthenticationRequiredError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';
import { type RequestAuth, tokenUserGoneError } from '../../../request-context/request-auth.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { EventLog, EventPayload } from '../../platform/events/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import { type Catalogue, type CustomerType, type Product, parseCatalogue, parseInlineProduct } from './catalogue.ts';
import { currentPeriodEnd, grantedQuantity, type Holding, maxItemQuantity } from './item-quantity.ts';
import {
  type CustomerProductRow,
  endCustomerProduct,
  insertCustomerProduct,
  listCustomerProductRows,
} from './customer-product.repository.ts';
import { applyItemChange, type ItemState, lockCustomer, type ProductsSnapshot, readItemState } from './item-ledger.repository.ts';
import { type Audience, toCustomerProduct, toDefaultCustomerProduct } from './payment-views.ts';
import type { Customer } from './customer.ts';
import { assertCanOwn, conflictsFor } from './product-ownership.ts';
import { switchOptionsOf } from './switch-options.ts';
import { isUuid } from '../../../lib/uuid.ts';

export type { Customer } from './customer.ts';
type CustomerProduct = components['schemas']['CustomerProduct'];
export type ProductSource = 'grant' | 'test_mode' | 'stripe';

/**
 * Items, the products customers own, and the rules between them (docs/protocol/endpoints.md §22): an item's
 * quantity is the customer's unexpired manual changes plus what its active products (and the
 * products included by default) grant; products of one line exclude each other unless one is an
 * add-on to the other.
 */
export class PaymentService {
  private readonly catalogues = new WeakMap<object, Catalogue>();
  /** Per customer, its product rows as a checked quantity change last saw them (the database says when they are out of date). */
  private readonly productSnapshots = new TtlCache<string, ProductsSnapshot>(10 * 60_000, 10_000);

  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
    private readonly users: UserService,
    private readonly teams: TeamService,
  ) {}

  /** The project's checked catalogue (the config was checked when saved; parsed once per config). */
  catalogueOf(project: Project): Catalogue {
    const key = project.config.payments as object;
    let catalogue = this.catalogues.get(key);
    if (!catalogue) {
      catalogue = parseCatalogue(project.config.payments);
      this.catalogues.set(key, catalogue);
    }
    return catalogue;
  }

  /**
   * Client access reaches only the signed-in user and the teams it belongs to (plain 403 otherwise);
   * server and admin access reach every customer.
   */
  async assertAccess(auth: RequestAuth, customer: Customer): Promise<void> {
    if (auth.accessType !== 'client') return;
    // A token's user not read yet (`readsTokenUser`) addressing itself: the operation's statement confirms it exists.
    if (!auth.user && auth.unreadUser && customer.type === 'user' && customer.id === auth.unreadUser.sub) return;
    const user = auth.user?.record ?? (auth.unreadUser && (await this.tokenUser(auth.project, auth.unreadUser.sub)));
    if (!user) throw new UserAuthenticationRequiredError();
    if (customer.type === 'user' && customer.id === user.id) return;
    if (customer.type === 'team' && isUuid(customer.id) && (await this.teams.isMember(auth.project.id, customer.id, user.id))) return;
    throw new PlainHttpError(403, `Client access may only address the signed-in user and the teams it belongs to.`);
  }

  private async tokenUser(project: Project, userId: string) {
    const user = await this.users.find(project.id, userId);
    if (!user) throw tokenUserGoneError();
    return user;
  }

  /** Whether the user or team exists (custom customers are the project's own ids: always). */
  async customerExists(project: Project, customer: Customer): Promise<boolean> {
    if (customer.type === 'custom') return true;
    if (!isUuid(customer.id)) return false;
    if (customer.type === 'user') return (await this.users.find(project.id, customer.id)) !== undefined;
    return (await this.teams.getMany(project.id, [customer.id])).length > 0;
  }

  async assertCustomerExists(project: Project, customer: Customer): Promise<void> {
    if (!(await this.customerExists(project, customer))) throw new CustomerDoesNotExistError({ customer_id: customer.id });
  }

  private itemOf(project: Project, customer: Customer, itemId: string) {
    const item = this.catalogueOf(project).items.get(itemId);
    if (!item) throw new ItemNotFoundError({ item_id: itemId });
    if (item.customerType !== customer.type) {
      throw new ItemCustomerTypeDoesNotMatchError({
        item_id: itemId,
        customer_id: customer.id,
        item_customer_type: item.customerType,
        actual_customer_type: customer.type,
      });
    }
    return item;
  }

  /** The products a customer holds at `now`: its active (or ended) rows and the defaults of lines it owns nothing of. */
  private holdingsOf(catalogue: Catalogue, customer: Customer, rows: readonly CustomerProductRow[]): Holding[] {
    const holdings: Holding[] = rows
      .filter((row) => row.status !== 'refunded')
      .map((row) => ({ product: row.product as Product, quantity: row.quantity, since: row.created_at, endedAt: row.ended_at }));
    for (const product of this.defaultProductsOf(catalogue, customer, rows)) {
      // A default product grants its items for the current period only (it has no purchase date to count from).
      holdings.push({ product: withCurrentPeriodOnly(product), quantity: 1, since: new Date(0), endedAt: null });
    }
    return holdings;
  }

  /** Products included by default for the customer's type whose line the customer owns nothing of. */
  private defaultProductsOf(catalogue: Catalogue, customer: Customer, rows: readonly CustomerProductRow[]): Product[] {
    const ownedLines = new Set(rows.filter((row) => row.status === 'active').map((row) => (row.product as Product).productLineId));
    return [...catalogue.products.values()].filter(
      (product) =>
        product.prices === 'include-by-default' &&
        product.customerType === customer.type &&
        (product.productLineId === undefined || !ownedLines.has(product.productLineId)),
    );
  }

  private quantityOf(project: Project, customer: Customer, itemId: string, state: ItemState, now: Date): number {
    return state.manual + grantedQuantity(itemId, this.holdingsOf(this.catalogueOf(project), customer, state.products), now);
  }

  /** `knownToExist`: the caller checked the customer already (client access reaches only the signed-in user and its teams). */
  /**
   * `confirmTokenUser`: the id of an access token's user that authentication did not read (the
   * caller itself as the customer): confirmed in the item's statement, `tokenUserGoneError` when gone.
   */
  async getItem(project: Project, customer: Customer, itemId: string, options: { knownToExist?: boolean; confirmTokenUser?: string } = {}) {
    const item = this.itemOf(project, customer, itemId);
    if (!options.knownToExist) await this.assertCustomerExists(project, customer);
    const now = new Date();
    const state = await readItemState(this.db, project.id, customer, itemId, now, options.confirmTokenUser);
    if (state.userExists === false) throw tokenUserGoneError();
    return { id: item.id, display_name: item.displayName, quantity: this.quantityOf(project, customer, itemId, state, now) };
  }

  /**
   * Adds `delta` to the item (a ledger entry, expiring at `expiresAt` when given). Without
   * `allowNegative` a change that would leave the quantity below zero is refused and changes nothing;
   * writers of one customer's item run one after the other, so concurrent decrements never overdraw.
   * One round trip (`applyItemChange`, which also checks the customer exists): the lock, the check, the entry and
   * its event in one database function, which checks against the granted quantity computed here from
   * the customer's product rows as last seen (kept per customer; the function answers the current
   * rows when they changed, and the change is computed again).
   */
  async updateQuantity(
    project: Project,
    customer: Customer,
    itemId: string,
    change: { delta: number; expiresAt?: Date; description?: string; allowNegative: boolean },
  ): Promise<void> {
    this.itemOf(project, customer, itemId);
    // The customer's existence is checked by the change itself (one round trip); a non-uuid id cannot exist.
    if (customer.type !== 'custom' && !isUuid(customer.id)) throw new CustomerDoesNotExistError({ customer_id: customer.id });
    const checked = change.delta < 0 && !change.allowNegative;
    const key = `${project.id}\u0000${customer.type}\u0000${customer.id}`;
    const row = {
      id: randomUUID(),
      project_id: project.id,
      customer_type: customer.type,
      customer_id: customer.id,
      item_id: itemId,
      delta: change.delta,
      expires_at: change.expiresAt ?? null,
      description: change.description ?? null,
    };
    const data: EventPayload<'item_quantity.changed'> = {
      customer_type: customer.type,
      customer_id: customer.id,
      item_id: itemId,
      delta: change.delta,
      expires_at: change.expiresAt?.toISOString() ?? null,
      description: change.description ?? null,
    };
    let snapshot = checked ? this.productSnapshots.get(key) : undefined;
    for (let attempt = 0; ; attempt++) {
      const now = new Date();
      const granted = snapshot ? grantedQuantity(itemId, this.holdingsOf(this.catalogueOf(project), customer, snapshot.rows), now) : 0;
      const result = await applyItemChange(this.db, row, { now, checked, granted, productsStamp: snapshot?.stamp ?? null }, { data });
      if (result.outcome === 'changed') return;
      if (result.outcome === 'no_customer') throw new CustomerDoesNotExistError({ customer_id: customer.id });
      if (result.outcome === 'insufficient')
        throw new ItemQuantityInsufficientAmountError({ item_id: itemId, customer_id: customer.id, quantity: result.prior });
      if (result.outcome === 'out_of_range')
        throw new ItemQuantityOutOfRangeError({
          item_id: itemId,
          customer_id: customer.id,
          quantity: result.prior,
          limit: maxItemQuantity,
        });
      // The customer's products changed since they were last seen here: compute against the current ones.
      snapshot = result.current;
      this.productSnapshots.set(key, snapshot);
      if (attempt >= 8) throw new Error(`The products of customer ${customer.id} kept changing during a quantity change`);
    }
  }

  /** The customer's products: defaults first, then what it owns, oldest first; `offset`/`limit` page it. */
  async listProducts(project: Project, customer: Customer, audience: Audience, page: { offset: number; limit?: number }) {
    const catalogue = this.catalogueOf(project);
    const rows = await listCustomerProductRows(this.db, project.id, customer);
    const active = rows.filter((row) => row.status === 'active');
    const all: CustomerProduct[] = [
      ...this.defaultProductsOf(catalogue, customer, rows).map((product) => toDefaultCustomerProduct(product, audience)),
      ...active.map((row) => toCustomerProduct(row, audience, switchOptionsOf(catalogue, row, audience))),
    ];
    const end = page.limit === undefined ? all.length : page.offset + page.limit;
    return { items: all.slice(page.offset, end), nextOffset: end < all.length ? end : null };
  }

  /** A catalogue product by id for this caller: server-only products do not exist for clients. */
  productFor(project: Project, productId: string, audience: Audience): Product {
    const catalogue = this.catalogueOf(project);
    const product = catalogue.products.get(productId);
    if (!product)
      throw new ProductDoesNotExistError({ product_id: productId, context: catalogue.items.has(productId) ? 'item_exists' : null });
    if (audience === 'client' && product.serverOnly) throw new ProductDoesNotExistError({ product_id: productId, context: 'server_only' });
    return product;
  }

  /** The product of a grant or purchase request: a catalogue id or an inline product (exactly one). */
  resolveProduct(
    project: Project,
    input: { product_id?: string; product_inline?: object },
    audience: Audience,
  ): { id: string | null; product: Product } {
    if ((input.product_id === undefined) === (input.product_inline === undefined))
      throw new PlainHttpError(400, 'Exactly one of product_id and product_inline is required.');
    if (input.product_id !== undefined) return { id: input.product_id, product: this.productFor(project, input.product_id, audience) };
    return { id: null, product: parseInlineProduct(input.product_inline as Record<string, unknown>, this.catalogueOf(project)) };
  }

  /**
   * Gives the customer a product (server grant, or a completed purchase). A grant replaces what the
   * customer owns of the same line (switching); purchases refuse that earlier, at checkout.
   */
  async grant(project: Project, customer: Customer, input: GrantInput, db: DbHandle = this.db): Promise<string> {
    return (await this.grantOnce(project, customer, input, db)).id;
  }

  /**
   * `grant`, once per Stripe payment: a product of the same Stripe payment intent, or of the same
   * subscription, product and price, that the customer got already (the switch that charged it, and
   * Stripe's event of that charge, may race) is not granted again (`created: false`). Checked under
   * the customer's lock.
   */
  async grantOnce(
    project: Project,
    customer: Customer,
    input: GrantInput,
    db: DbHandle = this.db,
  ): Promise<{ id: string; created: boolean }> {
    // The customer check reads through other modules' services, i.e. the pool: a caller that passes
    // its own transaction checks the customer before opening it (a pool query inside a transaction can
    // wait on connections held by transactions doing the same, and under load none ever returns).
    if (db === this.db) await this.assertCustomerExists(project, customer);
    if (input.quantity !== 1 && !input.product.stackable)
      throw new PlainHttpError(400, 'A product that is not stackable can only be owned once (quantity 1).');
    return inTransaction(db, async (trx) => {
      await lockCustomer(trx, project.id, customer);
      const owned = await listCustomerProductRows(trx, project.id, customer);
      const known = owned.find(
        (row) =>
          (input.stripePaymentIntentId && row.stripe_payment_intent_id === input.stripePaymentIntentId) ||
          (input.stripeSubscriptionId &&
            row.status === 'active' &&
            row.stripe_subscription_id === input.stripeSubscriptionId &&
            row.product_id === input.productId &&
            row.price_id === (input.priceId ?? null)),
      );
      if (known) return { id: known.id, created: false };
      assertCanOwn(customer, input.productId, input.product, owned);
      const now = new Date();
      for (const row of conflictsFor(input.product, owned)) await this.end(trx, project, row, 'canceled', now);
      const id = randomUUID();
      const price = input.priceId && input.product.prices !== 'include-by-default' ? input.product.prices[input.priceId] : undefined;
      await insertCustomerProduct(trx, {
        id,
        project_id: project.id,
        customer_type: customer.type,
        customer_id: customer.id,
        product_id: input.productId,
        product: JSON.stringify(input.product),
        price_id: input.priceId ?? null,
        quantity: input.quantity,
        source: input.source,
        status: 'active',
        amount: input.amount ?? null,
        currency: input.currency ?? null,
        stripe_subscription_id: input.stripeSubscriptionId ?? null,
        stripe_payment_intent_id: input.stripePaymentIntentId ?? null,
        current_period_end: input.currentPeriodEnd ?? (price?.interval ? currentPeriodEnd(now, price.interval, now) : null),
        created_at: now,
      });
      await this.events.record(trx, project.id, 'product.granted', {
        id,
        customer_type: customer.type,
        customer_id: customer.id,
        product_id: input.productId,
        price_id: input.priceId ?? null,
        quantity: input.quantity,
        source: input.source,
      });
      return { id, created: true };
    });
  }

  /** Ends an active product (canceled or refunded) and records its event; false when it was not active. */
  async end(trx: DbHandle, project: Project, row: CustomerProductRow, status: 'canceled' | 'refunded', now: Date): Promise<boolean> {
    const ended = await endCustomerProduct(trx, project.id, row.id, status, now);
    if (ended) {
      await this.events.record(trx, project.id, status === 'canceled' ? 'product.canceled' : 'product.refunded', {
        id: row.id,
        customer_type: row.customer_type as CustomerType,
        customer_id: row.customer_id,
        product_id: row.product_id,
      });
    }
    return ended;
  }

  /** Ends the customer's active product (the one of `subscriptionId` when given); plain 404 when it owns none. */
  async cancel(project: Project, customer: Customer, productId: string, subscriptionId?: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await lockCustomer(trx, project.id, customer);
      const owned = await listCustomerProductRows(trx, project.id, customer);
      const targets = owned.filter(
        (row) => row.status === 'active' && row.product_id === productId && (subscriptionId === undefined || row.id === subscriptionId),
      );
      if (targets.length === 0) throw new PlainHttpError(404, `The customer has no active product ${productId}.`);
      const now = new Date();
      for (const row of targets) await this.end(trx, project, row, 'canceled', now);
    });
  }
}

/** What a grant gives (see PaymentService.grant). */
export type GrantInput = {
  productId: string | null;
  product: Product;
  quantity: number;
  priceId?: string | null;
  source: ProductSource;
  amount?: string | null;
  currency?: string | null;
  stripeSubscriptionId?: string | null;
  stripePaymentIntentId?: string | null;
  currentPeriodEnd?: Date | null;
};

/** A default product's included items as grants of the current period only. */
function withCurrentPeriodOnly(product: Product): Product {
  return {
    ...product,
    includedItems: Object.fromEntries(
      Object.entries(product.includedItems).map(([id, included]) => [
        id,
        { ...included, repeat: 'never', expires: 'when-purchase-expires' },
      ]),
    ),
  };
}
