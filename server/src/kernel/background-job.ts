export type JobLog = { info: (fields: object, message: string) => void; error: (fields: object, message: string) => void };

/** Work a module has done on a timer while the app runs (the expired-rows cleanup, say). */
export interface BackgroundJob {
  /** Also the log message when a run fails (`<name> failed`). */
  readonly name: string;
  /** How often it runs (first after one interval); 0 turns it off. */
  readonly intervalMillis: number;
  run(log: JobLog): Promise<void>;
  /** Releases what the job holds between runs (a listening connection), after the last run ended. */
  stop?(): Promise<void>;
}

/**
 * Runs the job every interval on a timer that does not keep the process alive; a run still going
 * when the next is due is not doubled. `stop` waits for a run in progress, so the database can be
 * closed after it.
 */
export function scheduleJob(job: BackgroundJob, log: JobLog): { stop: () => Promise<void> } {
  if (job.intervalMillis <= 0) return { stop: async () => job.stop?.() };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = job
      .run(log)
      .catch((error: unknown) => log.error({ err: error }, `${job.name} failed`))
      .finally(() => {
        running = undefined;
      });
  }, job.intervalMillis);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      await job.stop?.();
    },
  };
}
