import { Worker } from 'node:worker_threads';

/** What the render thread does after the script (render-output.mjs). */
export type FinishOptions = {
  /** The longest output (the driver's JSON string) that is accepted. */
  maxOutputLength: number;
  /** A regular expression (source) of the editable markers to remove from the plain-text part, or null. */
  markerPattern: string | null;
  /** Checked against the template's `variablesSchema` when given. */
  variables: Record<string, unknown> | undefined;
};

/** The finished output of a render thread. */
export type SandboxOutput = {
  html: string;
  text: string;
  subject: string | null;
  notificationCategory: string | null;
  variablesSchema: Record<string, unknown> | null;
  /** The variables' mismatch with the schema, as Ajv describes it (null: they match, or none given). */
  variablesError: string | null;
};

type Job = {
  tenant: string;
  message: { driver: string; finish: FinishOptions };
  resolve: (output: SandboxOutput) => void;
  reject: (error: Error) => void;
};
type Slot = { worker: Worker; ready: boolean; job: Job | undefined; timer: NodeJS.Timeout | undefined; nextId: number };

/** A script that failed in the sandbox: its message says why (thrown, out of time or memory). */
export class SandboxError extends Error {}

/** An output over a limit of FinishOptions (too long, or nested too deeply for the text part). */
export class SandboxOutputLimitError extends SandboxError {}

/**
 * Worker threads that run rendering scripts in QuickJS (render-worker.mjs) and finish their output,
 * so a render never blocks the server's event loop. Inside, an interrupt handler stops a script at
 * its deadline; if a single native operation (or the finishing) outlives the deadline by `graceMs`
 * (default 3 s, which also covers loading React under load), the thread is terminated and replaced.
 *
 * Jobs wait in one queue per tenant (project). A free thread takes the oldest job of the waiting
 * tenant with the fewest renders running (ties: the one served longest ago, round robin): one
 * project's flood of slow renders delays another project's render by about one render, not by the
 * whole flood.
 */
export class SandboxPool {
  private readonly slots: Slot[] = [];
  /** Waiting jobs by tenant; the map's order is the turn order (a served tenant moves to the end). */
  private readonly queues = new Map<string, Job[]>();
  /** Renders running per tenant. */
  private readonly running = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: { runtimeScript: string; timeoutMs: number; memoryBytes: number; size: number; graceMs?: number }) {
    for (let index = 0; index < options.size; index++) this.slots.push(this.spawn());
  }

  run(tenant: string, driver: string, finish: FinishOptions): Promise<SandboxOutput> {
    if (this.closed) return Promise.reject(new Error('The email renderer is closed.'));
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(tenant);
      const job = { tenant, message: { driver, finish }, resolve, reject };
      if (queue) queue.push(job);
      else this.queues.set(tenant, [job]);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values()) for (const job of queue) job.reject(new Error('The email renderer is closed.'));
    this.queues.clear();
    await Promise.all(this.slots.map((slot) => this.stop(slot)));
  }

  /** The next job in turn (see the class); its tenant goes to the back of the line. */
  private nextJob(): Job | undefined {
    let chosen: [string, Job[]] | undefined;
    for (const entry of this.queues) {
      if (!chosen || (this.running.get(entry[0]) ?? 0) < (this.running.get(chosen[0]) ?? 0)) chosen = entry;
    }
    if (!chosen) return undefined;
    const [tenant, queue] = chosen;
    const job = queue.shift();
    this.queues.delete(tenant);
    if (queue.length > 0) this.queues.set(tenant, queue);
    return job;
  }

  private settle(job: Job): void {
    const left = (this.running.get(job.tenant) ?? 1) - 1;
    if (left > 0) this.running.set(job.tenant, left);
    else this.running.delete(job.tenant);
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || !slot.ready) continue;
      const job = this.nextJob();
      if (!job) return;
      slot.job = job;
      this.running.set(job.tenant, (this.running.get(job.tenant) ?? 0) + 1);
      const id = ++slot.nextId;
      slot.timer = setTimeout(
        () => this.fail(slot, `The email took longer than ${this.options.timeoutMs} ms to render (stopped).`),
        this.options.timeoutMs + (this.options.graceMs ?? 3_000),
      );
      slot.worker.postMessage({ id, ...job.message });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./render-worker.mjs', import.meta.url), {
      workerData: { runtimeScript: this.options.runtimeScript, timeoutMs: this.options.timeoutMs, memoryBytes: this.options.memoryBytes },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined, nextId: 0 };
    worker.on('message', (message: { ready?: true; id: number; output?: SandboxOutput; error?: string; limit?: true }) => {
      if (message.ready) {
        slot.ready = true;
        this.pump();
      } else this.finish(slot, message.id, message);
    });
    worker.on('error', (error) => this.fail(slot, `The email renderer failed: ${error.message}`));
    worker.on('exit', () => this.fail(slot, 'The email renderer stopped.'));
    return slot;
  }

  private finish(slot: Slot, id: number, result: { output?: SandboxOutput; error?: string; limit?: true }): void {
    const job = slot.job;
    if (!job || id !== slot.nextId) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    this.settle(job);
    if (result.error !== undefined) job.reject(result.limit ? new SandboxOutputLimitError(result.error) : new SandboxError(result.error));
    else if (result.output) job.resolve(result.output);
    else job.reject(new SandboxError('The email renderer returned nothing.'));
    this.pump();
  }

  /** The thread is stuck or gone: a new one takes its place, and its job fails. */
  private fail(slot: Slot, message: string): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    this.slots[index] = this.spawn();
    const job = slot.job;
    slot.job = undefined;
    if (job) this.settle(job);
    void this.stop(slot);
    job?.reject(new SandboxError(message));
    this.pump();
  }

  private async stop(slot: Slot): Promise<void> {
    clearTimeout(slot.timer);
    await slot.worker.terminate().catch(() => undefined);
  }
}
