import type { DbHandle } from '../../../db/handle.ts';
import type { OutboxSettlement } from './email-outbox.repository.ts';
import type { OutboxStore } from './email-outbox-sealing.ts';

/** The most rows one settling statement carries. */
const maxGroup = 512;

type Waiting = { settlement: OutboxSettlement; done: (error?: unknown) => void };

/**
 * Settles claimed rows in groups: the outcomes that arrive while a settling statement is on its way
 * go together in the next one (one statement per group instead of one per row). A message the mail
 * server took waits one round trip at most to be marked sent, which is also the window in which a
 * crash makes it go out a second time (with the same Message-ID).
 */
export class OutboxSettler {
  private waiting: Waiting[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: DbHandle,
    private readonly store: OutboxStore,
  ) {}

  settle(settlement: OutboxSettlement): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ settlement, done: (error) => (error === undefined ? resolve() : reject(error)) });
      // setImmediate: the outcomes of this turn of the event loop join the first statement too.
      this.flushing ??= new Promise<void>((started) => setImmediate(started)).then(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, maxGroup);
      try {
        await this.store.settleEmailOutboxesAcrossProjects(
          this.db,
          group.map((waiting) => waiting.settlement),
        );
        for (const waiting of group) waiting.done();
      } catch (error) {
        for (const waiting of group) waiting.done(error ?? new Error('settling failed'));
      }
    }
    this.flushing = undefined;
  }
}
