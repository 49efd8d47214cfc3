import { createHash, timingSafeEqual } from 'node:crypto';
import { MetricsDisabledError, MetricsTokenInvalidError } from '@gatehouse/protocol/errors';
import type { Histogram, Registry } from 'prom-client';
import type { DbHandle } from '../../../db/handle.ts';
import { poolStatsOf } from '../../../db/pool-stats.ts';
import { clusterAwareMetrics } from '../../../lib/cluster-metrics.ts';

/** What the metrics read from other modules at each scrape. */
export type MetricsSources = {
  unsentEmails: () => Promise<number>;
  pendingWebhookMessages: () => Promise<number>;
  cacheListenerUp: () => boolean;
};

/** Request latency buckets (seconds): sign-in's password hash sits near 0.05–0.2 s, cached reads near 1 ms. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const digest = (value: string) => createHash('sha256').update(value).digest();

type Metrics = { registry: Registry; requests: Histogram<'operation' | 'method' | 'status'>; collect: () => Promise<string> };
type Observation = [operation: string, method: string, status: number, seconds: number];

/**
 * Prometheus metrics of this process (prom-client): request latency per operation, method and status;
 * the database pool; the email and webhook queues; the cache listener; Node's defaults. Served at
 * `/api/v1/metrics` only when `METRICS_TOKEN` is set, to a caller that sends it as a bearer token.
 * Without a token prom-client is never loaded and nothing is recorded (issue #20: idle memory); with
 * one it loads at construction and the few requests answered before it is ready are replayed into it.
 */
export class PrometheusMetricsService {
  private readonly tokenDigest: Buffer | undefined;
  private metrics: Metrics | undefined;
  private readonly loading: Promise<Metrics> | undefined;
  private pending: Observation[] = [];

  constructor(
    private readonly db: DbHandle,
    token: string | undefined,
    private readonly sources: MetricsSources,
  ) {
    this.tokenDigest = token ? digest(token) : undefined;
    if (this.tokenDigest) {
      this.loading = this.load();
      // A failure surfaces at the next scrape (render awaits it); none is left unhandled here.
      this.loading.catch(() => undefined);
    }
  }

  private async load(): Promise<Metrics> {
    const promClient = await import('prom-client');
    const { Gauge, Histogram, Registry, collectDefaultMetrics } = promClient;
    const registry = new Registry();
    const sources = this.sources;
    // Node's own series (event-loop delay, GC observers): only here, where someone may read them.
    collectDefaultMetrics({ register: registry });
    const requests = new Histogram({
      name: 'gatehouse_http_request_duration_seconds',
      help: 'Time to answer a request, by operation (the spec operationId), method and status; _count counts requests.',
      labelNames: ['operation', 'method', 'status'],
      buckets: latencyBuckets,
      registers: [registry],
    });
    const pool = () => poolStatsOf(this.db);
    new Gauge({
      name: 'gatehouse_db_pool_connections',
      help: 'Connections of the database pool: total open, idle, and callers waiting for one.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = pool();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    new Gauge({
      name: 'gatehouse_db_pool_max',
      help: 'The most connections the database pool opens (DATABASE_POOL_SIZE; 1 on PGlite).',
      registers: [registry],
      collect() {
        const stats = pool();
        if (stats) this.set(stats.max);
      },
    });
    new Gauge({
      name: 'gatehouse_queue_depth',
      help: 'Work waiting: email_outbox (recorded, neither sent nor failed), webhook_deliveries (messages pending).',
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        const [emails, webhooks] = await Promise.all([sources.unsentEmails(), sources.pendingWebhookMessages()]);
        this.set({ queue: 'email_outbox' }, emails);
        this.set({ queue: 'webhook_deliveries' }, webhooks);
      },
    });
    new Gauge({
      name: 'gatehouse_cache_listener_up',
      help: '1 while the cache-invalidation LISTEN connection is up (0 on PGlite, or while it reconnects).',
      registers: [registry],
      collect() {
        this.set(sources.cacheListenerUp() ? 1 : 0);
      },
    });
    // A worker of node:cluster answers the primary's collection requests from its start, not from its first scrape.
    this.metrics = { registry, requests, collect: clusterAwareMetrics(registry, promClient) };
    for (const [operation, method, status, seconds] of this.pending)
      requests.observe({ operation, method, status: String(status) }, seconds);
    this.pending = [];
    return this.metrics;
  }

  /** For the request-metrics plugin (bound: passed as a function). A no-op while metrics are off. */
  readonly observeRequest = (operation: string, method: string, status: number, seconds: number): void => {
    if (this.metrics) this.metrics.requests.observe({ operation, method, status: String(status) }, seconds);
    // Before prom-client has loaded (the first milliseconds after start): kept, at most 10 000.
    else if (this.tokenDigest && this.pending.length < 10_000) this.pending.push([operation, method, status, seconds]);
  };

  /** Throws METRICS_DISABLED without a token, METRICS_TOKEN_INVALID unless `authorization` is `Bearer <token>`. */
  authorize(authorization: string | undefined): void {
    if (!this.tokenDigest) throw new MetricsDisabledError();
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!match || !timingSafeEqual(digest((match[1] as string).trim()), this.tokenDigest)) throw new MetricsTokenInvalidError();
  }

  /** The exposition text (of every worker of the host with WORKERS > 1) and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    const { registry, collect } = await (this.loading as Promise<Metrics>);
    return { contentType: registry.contentType, text: await collect() };
  }
}
