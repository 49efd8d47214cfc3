import { NewPurchasesBlockedError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { Currency, Price, Product } from './catalogue.ts';
import { type CustomerProductRow, listCustomerProductRows } from './customer-product.repository.ts';
import type { Customer } from './customer.ts';
import type { PaymentService } from './payment.service.ts';
import type { Audience } from './payment-views.ts';
import { assertCanOwn } from './product-ownership.ts';

/** A switch the rules allow (planSwitch). */
export type SwitchPlan = {
  fromRow: CustomerProductRow;
  toId: string;
  to: Product;
  priceId: string | null;
  price: Price | undefined;
  quantity: number;
  /** Paid outside test mode: Stripe charges the customer's default payment method. */
  charge: boolean;
  currency: string | null;
  amount: string | null;
};

/**
 * The checks of a switch from one product of a line to another, before anything is charged: new
 * purchases allowed, both products of one line, `from` owned, the price and quantity, and that the
 * customer may own the target. `charge`: the target is paid and the project is not in test mode
 * (Stripe mode charges the customer's default payment method; see StripeService.switchProduct).
 */
export async function planSwitch(
  payments: PaymentService,
  db: DbHandle,
  project: Project,
  customer: Customer,
  input: { from: string; to: string; priceId?: string; quantity?: number },
  audience: Audience,
): Promise<SwitchPlan> {
  const catalogue = payments.catalogueOf(project);
  if (catalogue.blockNewPurchases) throw new NewPurchasesBlockedError();
  const from = payments.productFor(project, input.from, audience);
  const to = payments.productFor(project, input.to, audience);
  if (!from.productLineId || from.productLineId !== to.productLineId)
    throw new PlainHttpError(400, `Products ${input.from} and ${input.to} are not in the same product line.`);
  const owned = await listCustomerProductRows(db, project.id, customer);
  const fromRow = owned.find((row) => row.status === 'active' && row.product_id === input.from);
  if (!fromRow) throw new PlainHttpError(404, `The customer has no active product ${input.from}.`);
  const prices = to.prices === 'include-by-default' ? {} : to.prices;
  const priceId = input.priceId ?? Object.keys(prices)[0] ?? null;
  if (priceId !== null && !Object.hasOwn(prices, priceId)) throw new PlainHttpError(400, `Product ${input.to} has no price ${priceId}.`);
  const quantity = input.quantity ?? 1;
  if (quantity !== 1 && !to.stackable)
    throw new PlainHttpError(400, 'A product that is not stackable can only be owned once (quantity 1).');
  assertCanOwn(customer, input.to, to, owned);
  const charge = priceId !== null && !catalogue.testMode;
  // Unreachable by a client: the switch operation's schema takes users and teams only (products.test.ts proves it),
  // and a custom customer has no saved payment method to charge off-session.
  if (charge && customer.type === 'custom') throw new Error('planSwitch: only users and teams can switch to a paid product');
  const price = priceId === null ? undefined : prices[priceId];
  const [currency, amount] = price ? pickAmount(price.amounts) : [null, null];
  return { fromRow, toId: input.to, to, priceId, price, quantity, charge, currency, amount };
}

/**
 * Completes a planned switch: the customer gets the target (ending `from`, its line's conflict) as a
 * test-mode purchase, a free grant, or the Stripe payment that paid for it.
 */
export async function applySwitch(
  payments: PaymentService,
  project: Project,
  customer: Customer,
  plan: SwitchPlan,
  paid?: { subscriptionId: string | null; paymentIntentId: string | null; currentPeriodEnd: Date | null },
): Promise<void> {
  const testMode = payments.catalogueOf(project).testMode;
  await payments.grant(project, customer, {
    productId: plan.toId,
    product: plan.to,
    quantity: plan.quantity,
    priceId: plan.priceId,
    source: paid ? 'stripe' : testMode && plan.priceId ? 'test_mode' : 'grant',
    amount: plan.amount,
    currency: plan.currency,
    stripeSubscriptionId: paid?.subscriptionId ?? null,
    stripePaymentIntentId: paid?.paymentIntentId ?? null,
    currentPeriodEnd: paid?.currentPeriodEnd ?? null,
  });
}

/** The amount a purchase records: USD when the price has it, else its first currency. */
export function pickAmount(amounts: Partial<Record<Currency, string>>): [Currency, string] {
  if (amounts.USD !== undefined) return ['USD', amounts.USD];
  const [first] = Object.entries(amounts);
  return first ? [first[0] as Currency, first[1] as string] : ['USD', '0'];
}
