import { defineModule } from '../../kernel/module.ts';
import { eventsModule } from '../events/index.ts';
import { teamsModule } from '../teams/index.ts';
import { usersModule } from '../users/index.ts';
import * as migration0030 from './migrations/0030-payments.ts';
import { PaymentService } from './payment.service.ts';
import { paymentHandlers } from './payments.routes.ts';

/** Payments (endpoints.md §22): the catalogue in the config, items and their ledger, products customers own. */
export const paymentsModule = defineModule({
  name: 'payments',
  migrations: { '0030-payments': migration0030 },
  requires: [eventsModule, usersModule, teamsModule],
  services: ({ events, users, teams }, { db }) => ({ payments: new PaymentService(db, events, users, teams) }),
  handlers: paymentHandlers,
});
