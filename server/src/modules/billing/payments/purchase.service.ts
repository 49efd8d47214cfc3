import { createHash, randomUUID } from 'node:crypto';
import type { components } from '@gatehouse/protocol/api-types';
import {
  NewPurchasesBlockedError,
  ProductAlreadyGrantedError,
  ProductLineConflictError,
  PurchaseNotAllowedError,
  VerificationCodeNotFoundError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { randomBase32 } from '../../../lib/random.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import type { Currency, Price, Product } from './catalogue.ts';
import type { StripeService } from './stripe.service.ts';
import { listCustomerProductRows } from './customer-product.repository.ts';
import { findPurchaseCode, insertPurchaseCode, type PurchaseCodeRow, usePurchaseCode } from './purchase-code.repository.ts';
import type { Customer, PaymentService } from './payment.service.ts';
import { type Audience, toInlineProduct } from './payment-views.ts';
import { assertCanOwn, conflictsFor } from './product-ownership.ts';

type PurchaseCodeDetails = components['schemas']['PurchaseCodeDetails'];
const codeLifetimeMillis = 24 * 3_600_000;
const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A purchase code found by its full code, with its project. */
export type OpenPurchase = { project: Project; code: PurchaseCodeRow; customer: Customer; product: Product };

/**
 * Purchases (docs/protocol/endpoints.md §22): a purchase URL opens the hosted checkout page for one customer and
 * product; in test mode the page completes it with no payment. The full code is the capability:
 * `<project id>_<45 base32 characters>`, one use, 24 hours.
 */
export class PurchaseService {
  constructor(
    private readonly db: DbHandle,
    private readonly payments: PaymentService,
    private readonly projects: ProjectService,
    private readonly stripe: StripeService,
    private readonly publicUrl: string,
  ) {}

  async createUrl(
    project: Project,
    customer: Customer,
    input: { product_id?: string; product_inline?: object; return_url?: string },
    audience: Audience,
  ): Promise<string> {
    if (audience === 'client' && input.product_inline !== undefined)
      throw new PurchaseNotAllowedError({ reason: 'inline_product_for_client' }, 'Clients cannot buy inline products.');
    if (this.payments.catalogueOf(project).blockNewPurchases) throw new NewPurchasesBlockedError();
    const { id, product } = this.payments.resolveProduct(project, input, audience);
    if (input.return_url !== undefined) assertTrustedUrl(project, input.return_url);
    await this.payments.assertCustomerExists(project, customer);
    const owned = await listCustomerProductRows(this.db, project.id, customer);
    assertCanOwn(customer, id, product, owned);
    const fullCode = `${project.id}_${randomBase32(45)}`;
    const now = new Date();
    await insertPurchaseCode(this.db, {
      id: randomUUID(),
      project_id: project.id,
      code_hash: digest(fullCode),
      customer_type: customer.type,
      customer_id: customer.id,
      product_id: id,
      product: JSON.stringify(product),
      return_url: input.return_url ?? null,
      created_at: now,
      expires_at: new Date(now.getTime() + codeLifetimeMillis),
    });
    return `${this.publicUrl}/api/v1/payments/purchases/checkout?code=${encodeURIComponent(fullCode)}`;
  }

  /** The unused, unexpired purchase of a full code, or undefined. */
  async find(fullCode: string): Promise<OpenPurchase | undefined> {
    const separator = fullCode.lastIndexOf('_');
    if (separator < 1) return undefined;
    const project = await this.projects.find(fullCode.slice(0, separator));
    if (!project) return undefined;
    const code = await findPurchaseCode(this.db, project.id, digest(fullCode));
    if (!code || code.used_at !== null || code.expires_at <= new Date()) return undefined;
    return {
      project,
      code,
      customer: { type: code.customer_type as Customer['type'], id: code.customer_id },
      product: code.product as Product,
    };
  }

  async open(fullCode: string): Promise<OpenPurchase> {
    const purchase = await this.find(fullCode);
    if (!purchase) throw new VerificationCodeNotFoundError();
    return purchase;
  }

  /** What the checkout page shows: the product with the prices a buyer may pick, what it conflicts with. */
  async details(purchase: OpenPurchase, returnUrl?: string): Promise<PurchaseCodeDetails> {
    if (returnUrl !== undefined) assertTrustedUrl(purchase.project, returnUrl);
    const owned = await listCustomerProductRows(this.db, purchase.project.id, purchase.customer);
    const catalogue = this.payments.catalogueOf(purchase.project);
    const stripeAccount = catalogue.testMode ? null : await this.stripe.checkoutAccount(purchase.project);
    return {
      product: toInlineProduct(purchase.product, 'client'),
      stripe_account_id: stripeAccount?.accountId ?? null,
      project_id: purchase.project.id,
      project_logo_url: purchase.project.logo_url,
      already_bought_non_stackable:
        !purchase.product.stackable &&
        owned.some((row) => row.status === 'active' && row.product_id !== null && row.product_id === purchase.code.product_id),
      conflicting_products: conflictsFor(purchase.product, owned).map((row) => ({
        product_id: row.product_id as string,
        display_name: (row.product as Product).displayName,
      })),
      test_mode: catalogue.testMode,
      charges_enabled: stripeAccount?.chargesEnabled ?? false,
    };
  }

  /**
   * What a purchase of the code at `priceId` and `quantity` may not do (the same for test mode and
   * Stripe): new purchases blocked, an unknown or server-only price, a quantity the product does not
   * allow, the product owned already, another product of its line owned.
   */
  private async assertPurchasable(db: DbHandle, purchase: OpenPurchase, priceId: string, quantity: number): Promise<Price> {
    const { project, code, customer, product } = purchase;
    if (this.payments.catalogueOf(project).blockNewPurchases) throw new NewPurchasesBlockedError();
    const price = product.prices === 'include-by-default' ? undefined : product.prices[priceId];
    if (!price || price.serverOnly) throw new PlainHttpError(400, `The product has no price ${priceId}.`);
    if (quantity !== 1 && !product.stackable)
      throw new PlainHttpError(400, 'A product that is not stackable can only be bought once (quantity 1).');
    const owned = await listCustomerProductRows(db, project.id, customer);
    if (
      code.product_id !== null &&
      !product.stackable &&
      owned.some((row) => row.status === 'active' && row.product_id === code.product_id)
    ) {
      throw new ProductAlreadyGrantedError({ product_id: code.product_id, customer_id: customer.id });
    }
    const conflicts = conflictsFor(product, owned);
    if (conflicts.length > 0) {
      throw new ProductLineConflictError({
        product_id: code.product_id,
        conflicting_products: conflicts.map((row) => ({
          product_id: row.product_id as string,
          display_name: (row.product as Product).displayName,
        })),
      });
    }
    return price;
  }

  /** Completes a purchase in test mode: no payment, the product granted, the code used up. */
  async completeInTestMode(fullCode: string, priceId: string, quantity: number): Promise<{ returnUrl: string | null }> {
    const purchase = await this.open(fullCode);
    const { project, code, customer, product } = purchase;
    if (!this.payments.catalogueOf(project).testMode)
      throw new PlainHttpError(400, 'This project is not in test mode; purchases are paid through Stripe.');
    await this.payments.assertCustomerExists(project, customer);
    await inTransaction(this.db, async (trx) => {
      const price = await this.assertPurchasable(trx, purchase, priceId, quantity);
      if (!(await usePurchaseCode(trx, project.id, code.id, new Date()))) throw new VerificationCodeNotFoundError();
      const [currency, amount] = pickAmount(price.amounts);
      await this.payments.grant(
        project,
        customer,
        { productId: code.product_id, product, quantity, priceId, source: 'test_mode', amount, currency },
        trx,
      );
    });
    return { returnUrl: code.return_url };
  }

  /**
   * Starts paying for a purchase through Stripe (a payment intent, or a subscription for a price with
   * an interval) and answers the client secret the checkout page confirms it with; the webhook grants
   * the product once Stripe reports it paid.
   */
  async startStripePayment(fullCode: string, priceId: string, quantity: number): Promise<string> {
    const purchase = await this.open(fullCode);
    if (this.payments.catalogueOf(purchase.project).testMode)
      throw new PurchaseNotAllowedError(
        { reason: 'test_mode_project' },
        'This project is in test mode; complete the purchase with the test payment form.',
      );
    const price = await this.assertPurchasable(this.db, purchase, priceId, quantity);
    const [currency, amount] = pickAmount(price.amounts);
    const { project, code, customer, product } = purchase;
    return this.stripe.startPayment(project, customer, {
      purchaseCodeId: code.id,
      productId: code.product_id,
      product,
      priceId,
      price,
      quantity,
      currency: currency as Currency,
      amount,
    });
  }
}

/** The amount a purchase records: USD when the price has it, else its first currency. */
function pickAmount(amounts: Partial<Record<Currency, string>>): [string, string] {
  if (amounts.USD !== undefined) return ['USD', amounts.USD];
  const [first] = Object.entries(amounts);
  return first ? [first[0], first[1] as string] : ['USD', '0'];
}
