import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../db/handle.ts';
import type { JobLog } from '../../../kernel/background-job.ts';
import {
  type InvalidationListener,
  type InvalidationRow,
  deleteOldInvalidationsAcrossProjects,
  listenForInvalidationsAcrossProjects,
  newestInvalidationAcrossProjects,
  publishInvalidationAcrossProjects,
  readInvalidationsAcrossProjects,
} from './cache-invalidation.repository.ts';

/** What a cache does with an invalidation: drop one key, or (`undefined`) everything it holds. */
export type Invalidate = (key: string | undefined) => void;

/** How often the job looks after the listener (and, while it is down, reads the missed invalidations). */
export const invalidationTickMs = 200;
/** While the listener is up, the rows are still read this often: a lost notification costs at most this. */
const safetySyncMs = 5_000;
/** Longer than this without reading the rows, and this instance can no longer know what it missed. */
const maxGapMs = 5 * 60_000;
const firstBackoffMs = 100;
const maxBackoffMs = 5_000;
/** Rows are kept this long (every instance has read them by then, or drops its caches: maxGapMs). */
export const invalidationRetentionMs = 10 * 60_000;

/**
 * Cache invalidation across instances. A writer calls `publish(topic, key)` after (or inside) the
 * transaction that changed the cached thing: this instance drops it at once; with Postgres the
 * change is recorded in `cache_invalidation` and sent with NOTIFY, which every instance receives on
 * one dedicated LISTEN connection and applies within milliseconds. When that connection is down
 * (reconnected with backoff) each instance reads the rows numbered after the last it applied every
 * 200 ms instead, so a change is seen everywhere within 1 s either way. On PGlite (one process) there
 * is nobody else to tell: `publish` only drops the local entry.
 */
export class CacheInvalidationService {
  private readonly subscribers = new Map<string, Invalidate[]>();
  /** Notifications this instance sent come back to it: it has applied them already. */
  private readonly origin = randomUUID();
  private listener: InvalidationListener | undefined;
  private lastSeq: bigint | undefined;
  private lastSyncAt = 0;
  private backoffMs = firstBackoffMs;
  private nextAttemptAt = 0;
  private stopped = false;
  private reportedDown = false;

  constructor(
    private readonly db: DbHandle,
    /** Set with a Postgres server (several instances may share it); unset on PGlite. */
    private readonly databaseUrl: string | undefined,
  ) {}

  /** Whether changes are shared with other instances (Postgres) or stay in this process (PGlite). */
  get shared(): boolean {
    return this.databaseUrl !== undefined;
  }

  /** Whether the LISTEN connection is up (false on PGlite, and while it reconnects). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Registers a cache's reaction to the invalidations of `topic`. */
  on(topic: string, invalidate: Invalidate): void {
    const list = this.subscribers.get(topic) ?? [];
    list.push(invalidate);
    this.subscribers.set(topic, list);
  }

  /** Drops `key` of `topic` here and, with Postgres, on every instance (at the commit of the transaction it runs in, if any). */
  /** `db`: the writer's transaction, when it publishes inside it (the other instances hear of it at its commit). */
  async publish(topic: string, key: string, db: DbHandle = this.db): Promise<void> {
    this.apply(topic, key);
    if (this.shared) await publishInvalidationAcrossProjects(db, topic, key, this.origin);
  }

  /** The job's tick: keeps the listener connected, and reads what it may have missed. */
  async tick(log: JobLog): Promise<void> {
    if (!this.databaseUrl || this.stopped) return;
    if (!this.listener && Date.now() >= this.nextAttemptAt) await this.connect(this.databaseUrl, log);
    if (!this.listener || Date.now() - this.lastSyncAt >= safetySyncMs) await this.catchUp();
  }

  /** Deletes the rows every instance has read (a job, every minute). */
  async deleteOld(): Promise<void> {
    if (this.shared) await deleteOldInvalidationsAcrossProjects(this.db, invalidationRetentionMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  private async connect(databaseUrl: string, log: JobLog): Promise<void> {
    try {
      const listener = await listenForInvalidationsAcrossProjects(
        databaseUrl,
        (row) => this.received(row),
        (error) => {
          if (this.listener !== listener) return;
          this.listener = undefined;
          this.nextAttemptAt = Date.now() + this.backoffMs;
          if (!this.stopped) log.error({ err: error }, 'cache invalidation listener lost; reading the table until it is back');
        },
      );
      if (this.stopped) {
        await listener.close();
        return;
      }
      this.listener = listener;
      this.backoffMs = firstBackoffMs;
      if (this.reportedDown) log.info({}, 'cache invalidation listener connected again');
      this.reportedDown = false;
      // What was published while it was down (or before it first connected).
      await this.catchUp();
    } catch (error) {
      this.nextAttemptAt = Date.now() + this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, maxBackoffMs);
      if (!this.reportedDown) log.error({ err: error }, 'cache invalidation listener cannot connect; retrying with backoff');
      this.reportedDown = true;
    }
  }

  private received(row: InvalidationRow): void {
    const seq = BigInt(row.seq);
    if (this.lastSeq !== undefined && seq > this.lastSeq) this.lastSeq = seq;
    if (row.origin !== this.origin) this.apply(row.topic, row.key);
  }

  /** Applies the rows after the last one applied; drops every cache when that is no longer known. */
  private async catchUp(): Promise<void> {
    const newest = await newestInvalidationAcrossProjects(this.db);
    // First sync, a gap longer than the rows are kept, or the numbering restarted (unlogged table after a crash).
    if (this.lastSeq === undefined || newest < this.lastSeq || Date.now() - this.lastSyncAt > maxGapMs) {
      this.lastSeq = newest;
      this.lastSyncAt = Date.now();
      this.applyAll();
      return;
    }
    while (this.lastSeq < newest) {
      const rows = await readInvalidationsAcrossProjects(this.db, this.lastSeq, 1000);
      if (rows.length === 0) break;
      for (const row of rows) if (row.origin !== this.origin) this.apply(row.topic, row.key);
      this.lastSeq = BigInt((rows.at(-1) as InvalidationRow).seq);
    }
    this.lastSyncAt = Date.now();
  }

  private apply(topic: string, key: string): void {
    for (const invalidate of this.subscribers.get(topic) ?? []) invalidate(key);
  }

  private applyAll(): void {
    for (const list of this.subscribers.values()) for (const invalidate of list) invalidate(undefined);
  }
}
