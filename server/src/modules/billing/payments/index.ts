import { defineModule } from '../../../kernel/module.ts';
import { eventsModule } from '../../platform/events/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { teamsModule } from '../../organisations/teams/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import * as migration0030 from './migrations/0030-payments.ts';
import * as migration0031 from './migrations/0031-purchase-codes.ts';
import * as migration0032 from './migrations/0032-payment-refunds.ts';
import * as migration0033 from './migrations/0033-stripe.ts';
import * as migration0034 from './migrations/0034-stripe-customers.ts';
import * as migration0035 from './migrations/0035-item-change-function.ts';
import * as migration0076 from './migrations/0076-item-quantity-bound.ts';
import * as migration0250 from './migrations/0250-item-change-checks-customer.ts';
import { defaultStripeConnectJsUrl, defaultStripeJsUrl, type PaymentSettings, readPaymentSettings } from './payment-settings.ts';
import { PurchaseService } from './purchase.service.ts';
import { PaymentService } from './payment.service.ts';
import { paymentHandlers } from './payments.routes.ts';
import { StripeGateway } from './stripe-gateway.ts';
import { StripeService } from './stripe.service.ts';
import { StripeWebhookService } from './stripe-webhook.service.ts';
import { TransactionService } from './transaction.service.ts';

/** Payments (docs/protocol/endpoints.md §22): the catalogue in the config, items and their ledger, products customers own,
 * purchases through the hosted checkout page (test mode), transactions and refunds, Stripe mode (connected
 * accounts, the Connect webhook). */
export const paymentsModule = defineModule({
  name: 'payments',
  migrations: {
    '0030-payments': migration0030,
    '0031-purchase-codes': migration0031,
    '0032-payment-refunds': migration0032,
    '0033-stripe': migration0033,
    '0034-stripe-customers': migration0034,
    '0035-item-change-function': migration0035,
    '0076-item-quantity-bound': migration0076,
    '0250-item-change-checks-customer': migration0250,
  },
  settings: (env): PaymentSettings => readPaymentSettings(env),
  requires: [eventsModule, projectsModule, usersModule, teamsModule],
  services: ({ events, projects, users, teams }, { db, publicUrl, settings }) => {
    const payments = new PaymentService(db, events, users, teams);
    const gateway = StripeGateway.from(settings);
    const transactions = new TransactionService(db, events, gateway);
    const browser = settings.stripePublishableKey
      ? {
          publishableKey: settings.stripePublishableKey,
          jsUrl: settings.stripeJsUrl ?? defaultStripeJsUrl,
          connectJsUrl: settings.stripeConnectJsUrl ?? defaultStripeConnectJsUrl,
        }
      : null;
    const stripe = new StripeService(db, gateway, payments, `${publicUrl}/dashboard`, browser);
    return {
      payments,
      purchases: new PurchaseService(db, payments, projects, stripe, publicUrl),
      transactions,
      stripe,
      stripeWebhooks: new StripeWebhookService(db, gateway, payments, transactions, projects),
    };
  },
  handlers: paymentHandlers,
});

// The module's public surface: what other modules may import (through this file only).
export { parseCatalogue } from './catalogue.ts';
