import type { JobLog } from './background-job.ts';

/**
 * The delivery runs of a polling worker (the email outbox's, webhooks'): rounds until nothing is due
 * or `budgetMillis` is spent (so one run does not hold the job's timer forever), `lanes` of them side
 * by side. A call while a run is going joins it (and makes it look once more), so the job and a
 * wake-up never run two runs in one instance.
 */
export class DeliveryRounds {
  private round: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    /** One round: claims and delivers a batch; the number claimed (0: nothing was due). */
    private readonly deliverDue: (log?: JobLog) => Promise<number>,
    /** How many rounds run side by side (read at each run). */
    private readonly lanes: () => number,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  run(log?: JobLog, budgetMillis = 10_000): Promise<void> {
    if (this.round) {
      this.again = true;
      return this.round;
    }
    const lane = async (until: number) => {
      while (!this.stopped && Date.now() < until && (await this.deliverDue(log)) > 0) {
        // next round
      }
    };
    this.round = (async () => {
      do {
        this.again = false;
        const until = Date.now() + budgetMillis;
        await Promise.all(Array.from({ length: this.lanes() }, () => lane(until)));
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  /** No round starts any more; resolves once the run in progress (if any) ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.round?.catch(() => undefined);
  }
}
