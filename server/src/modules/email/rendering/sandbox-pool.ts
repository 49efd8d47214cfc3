import { Worker } from 'node:worker_threads';

type Job = { driver: string; resolve: (output: string) => void; reject: (error: Error) => void };
type Slot = { worker: Worker; ready: boolean; job: Job | undefined; timer: NodeJS.Timeout | undefined; nextId: number };

/** A script that failed in the sandbox: its message says why (thrown, out of time or memory). */
export class SandboxError extends Error {}

/**
 * Worker threads that run rendering scripts in QuickJS (render-worker.mjs), so a render never
 * blocks the server's event loop. Inside, an interrupt handler stops a script at its deadline; if a
 * single native operation outlives the deadline by `graceMs` (default 3 s, which also covers loading
 * React under load), the thread is terminated and replaced. Jobs wait in a queue for a ready thread.
 */
export class SandboxPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly options: { runtimeScript: string; timeoutMs: number; memoryBytes: number; size: number; graceMs?: number }) {
    for (let index = 0; index < options.size; index++) this.slots.push(this.spawn());
  }

  run(driver: string): Promise<string> {
    if (this.closed) return Promise.reject(new Error('The email renderer is closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ driver, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The email renderer is closed.'));
    await Promise.all(this.slots.map((slot) => this.stop(slot)));
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || !slot.ready) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      const id = ++slot.nextId;
      slot.timer = setTimeout(
        () => this.fail(slot, `The email took longer than ${this.options.timeoutMs} ms to render (stopped).`),
        this.options.timeoutMs + (this.options.graceMs ?? 3_000),
      );
      slot.worker.postMessage({ id, driver: job.driver });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./render-worker.mjs', import.meta.url), {
      workerData: { runtimeScript: this.options.runtimeScript, timeoutMs: this.options.timeoutMs, memoryBytes: this.options.memoryBytes },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined, nextId: 0 };
    worker.on('message', (message: { ready?: true; id: number; output?: string; error?: string }) => {
      if (message.ready) {
        slot.ready = true;
        this.pump();
      } else this.finish(slot, message.id, message);
    });
    worker.on('error', (error) => this.fail(slot, `The email renderer failed: ${error.message}`));
    worker.on('exit', () => this.fail(slot, 'The email renderer stopped.'));
    return slot;
  }

  private finish(slot: Slot, id: number, result: { output?: string; error?: string }): void {
    const job = slot.job;
    if (!job || id !== slot.nextId) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    if (result.error !== undefined) job.reject(new SandboxError(result.error));
    else job.resolve(result.output ?? '');
    this.pump();
  }

  /** The thread is stuck or gone: a new one takes its place, and its job fails. */
  private fail(slot: Slot, message: string): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    this.slots[index] = this.spawn();
    const job = slot.job;
    slot.job = undefined;
    void this.stop(slot);
    job?.reject(new SandboxError(message));
    this.pump();
  }

  private async stop(slot: Slot): Promise<void> {
    clearTimeout(slot.timer);
    await slot.worker.terminate().catch(() => undefined);
  }
}
