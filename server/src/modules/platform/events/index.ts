import { defineModule } from '../../../kernel/module.ts';
import { EventLog } from './event-log.ts';

/** The event log the other modules append to, in the transaction of the change. */
export const eventsModule = defineModule({
  name: 'events',
  services: () => ({ events: new EventLog() }),
});

// The module's public surface: what other modules may import (through this file only).
export type { EventLog, EventPayload } from './event-log.ts';
export type { EventType } from './event-log.ts';
