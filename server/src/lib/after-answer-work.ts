/**
 * Work a request starts but does not wait for (an email sent once the answer is on its way): each task
 * runs on the next turn of the event loop, its failure goes to `onError` (never to the request), and
 * `settled` waits for every task started so far (tests read what it sent; shutdown waits for it).
 */
export class AfterAnswerWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  start(task: () => Promise<void>): void {
    const work: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch(this.onError)
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
