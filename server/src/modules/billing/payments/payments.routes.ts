import { authOf } from '../../../request-context/auth-of.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { type OperationHandlers, type OperationRequest, readsTokenUser } from '../../../routing/operation-handlers.ts';
import type { CustomerType } from './catalogue.ts';
import type { Customer, PaymentService } from './payment.service.ts';
import type { Audience } from './payment-views.ts';
import { checkoutPage, unusableCodePage } from './checkout-page.ts';
import type { PurchaseService } from './purchase.service.ts';
import type { StripeService } from './stripe.service.ts';
import type { StripeWebhookService } from './stripe-webhook.service.ts';
import type { TransactionService } from './transaction.service.ts';

const audienceOf = (auth: RequestAuth): Audience => (auth.accessType === 'client' ? 'client' : 'server');

export function paymentHandlers(services: {
  payments: PaymentService;
  purchases: PurchaseService;
  transactions: TransactionService;
  stripe: StripeService;
  stripeWebhooks: StripeWebhookService;
}) {
  const { payments, purchases, transactions, stripe, stripeWebhooks } = services;
  /** The addressed customer, after checking the caller may address it. */
  const customerOf = async (auth: RequestAuth, params: { customer_type: CustomerType; customer_id: string }): Promise<Customer> => {
    const customer = { type: params.customer_type, id: params.customer_id };
    await payments.assertAccess(auth, customer);
    return customer;
  };

  return {
    // A signed-in user reading its own item: its existence is confirmed in the item's statement (one round trip).
    getCustomerItem: readsTokenUser(async (request: OperationRequest<'getCustomerItem'>) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      return payments.getItem(auth.project, customer, request.params.item_id, {
        knownToExist: auth.accessType === 'client',
        confirmTokenUser: auth.user ? undefined : auth.unreadUser?.sub,
      });
    }),

    updateCustomerItemQuantity: async (request) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      const { delta, expires_at, description } = request.body;
      await payments.updateQuantity(auth.project, customer, request.params.item_id, {
        delta,
        expiresAt: expires_at === undefined ? undefined : new Date(expires_at),
        description,
        allowNegative: request.query.allow_negative === 'true',
      });
      return {};
    },

    listCustomerProducts: async (request) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      const { cursor, limit } = request.query;
      const page = await payments.listProducts(auth.project, customer, audienceOf(auth), {
        offset: cursor === undefined ? 0 : Number(cursor),
        limit: limit === undefined ? undefined : Math.max(1, Number(limit)),
      });
      return {
        items: page.items,
        is_paginated: true as const,
        pagination: { next_cursor: page.nextOffset === null ? null : String(page.nextOffset) },
      };
    },

    grantCustomerProduct: async (request) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      const { id, product } = payments.resolveProduct(auth.project, request.body, 'server');
      const subscriptionId = await payments.grant(auth.project, customer, {
        productId: id,
        product,
        quantity: request.body.quantity ?? 1,
        source: 'grant',
      });
      return { success: true as const, subscription_id: subscriptionId };
    },

    cancelCustomerProduct: async (request) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      await payments.cancel(auth.project, customer, request.params.product_id, request.query.subscription_id);
      return { success: true as const };
    },

    switchCustomerProduct: async (request) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      const { from_product_id, to_product_id, price_id, quantity } = request.body;
      await stripe.switchProduct(
        auth.project,
        customer,
        { from: from_product_id, to: to_product_id, priceId: price_id, quantity },
        audienceOf(auth),
      );
      return { success: true as const };
    },

    getCustomerBilling: async (request) => {
      const auth = authOf(request);
      return stripe.billing(auth.project, await customerOf(auth, request.params));
    },

    listCustomerInvoices: async (request) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      const { cursor, limit } = request.query;
      const page = await stripe.invoices(auth.project, customer, {
        cursor,
        limit: limit === undefined ? 10 : Math.min(100, Math.max(1, Number(limit))),
      });
      return { items: page.items, is_paginated: true as const, pagination: { next_cursor: page.nextCursor } };
    },

    createPaymentMethodSetupIntent: async (request) => {
      const auth = authOf(request);
      return stripe.setupIntent(auth.project, await customerOf(auth, request.params));
    },

    setDefaultPaymentMethod: async (request) => {
      const auth = authOf(request);
      const customer = await customerOf(auth, request.params);
      const method = await stripe.setDefaultPaymentMethod(auth.project, customer, request.body.setup_intent_id);
      return { success: true as const, default_payment_method: method };
    },

    createPurchaseUrl: async (request) => {
      const auth = authOf(request);
      const { customer_type, customer_id, ...input } = request.body;
      const customer = await customerOf(auth, { customer_type, customer_id });
      return { url: await purchases.createUrl(auth.project, customer, input, audienceOf(auth)) };
    },

    verifyPurchaseCode: async (request) => {
      const purchase = await purchases.open(request.body.full_code);
      return purchases.details(purchase, request.body.return_url);
    },

    checkPurchaseCode: async (request) => ({ valid: (await purchases.find(request.query.full_code)) !== undefined }),

    getPurchaseCheckoutPage: async (request, reply) => {
      const purchase = await purchases.find(request.query.code);
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (!purchase) return reply.status(404).send(unusableCodePage());
      return reply.send(
        checkoutPage(request.query.code, await purchases.details(purchase), purchase.code.return_url, stripe.browserSettings()),
      );
    },

    createPurchaseSession: async (request) => {
      const { full_code, price_id, quantity } = request.body;
      return { client_secret: await purchases.startStripePayment(full_code, price_id, quantity ?? 1) };
    },

    completeTestModePurchase: async (request) => {
      const { full_code, price_id, quantity } = request.body;
      const { returnUrl } = await purchases.completeInTestMode(full_code, price_id, quantity ?? 1);
      return { success: true as const, return_url: returnUrl };
    },

    listPaymentTransactions: async (request) => {
      const { cursor, limit, type, customer_type, customer_id } = request.query;
      return transactions.list(authOf(request).project, {
        cursor,
        limit: limit === undefined ? undefined : Number(limit),
        type,
        customerType: customer_type,
        customerId: customer_id,
      });
    },

    createPaymentRefund: async (request) => {
      const { type, id, invoice_id, amount_usd, end_action } = request.body;
      const refundId = await transactions.refund(authOf(request).project, {
        type,
        id,
        invoiceId: invoice_id,
        amountUsd: amount_usd,
        endAction: end_action ?? 'now',
      });
      return { success: true as const, refund_transaction_id: refundId };
    },

    createStripeOnboardingLink: async (request) => ({ url: await stripe.onboardingLink(authOf(request).project) }),

    getStripeAccountInfo: async (request) => stripe.accountInfo(authOf(request).project),

    getPaymentMethodConfigs: async (request) => stripe.methodConfig(authOf(request).project),

    updatePaymentMethodConfigs: async (request) => {
      await stripe.updateMethodConfig(authOf(request).project, request.body.config_id, request.body.updates);
      return { success: true as const };
    },

    createStripeAccountSession: async (request) => ({ client_secret: await stripe.accountSession(authOf(request).project) }),

    receiveStripeWebhook: async (request) => {
      const signature = request.headers['stripe-signature'];
      return stripeWebhooks.receive(request.rawBody ?? '', typeof signature === 'string' ? signature : undefined);
    },
  } satisfies Partial<OperationHandlers>;
}
