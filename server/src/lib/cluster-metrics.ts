import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const request = 'gatehouse:metrics-request';
const response = 'gatehouse:metrics-response';
type MetricsMessage = { type: typeof response; id: number; text?: string; error?: string };

/**
 * Metrics of the whole host when the server runs as workers of node:cluster (`WORKERS` > 1): a scrape
 * lands on one worker, which asks the primary; the primary collects every worker's registry
 * (prom-client's AggregatorRegistry: counters and histograms summed, gauges summed) and answers.
 * Outside a cluster it is the registry's own text.
 */
export function clusterAwareMetrics(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker) return () => registry.metrics();
  // Answers the primary's collection requests with this registry (prom-client's worker side).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  let next = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  process.on('message', (message: MetricsMessage) => {
    if (message?.type !== response) return;
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error !== undefined) pending.reject(new Error(message.error));
    else pending.resolve(message.text ?? '');
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the cluster primary did not answer the metrics request within 10 s'));
      }, 10_000);
      waiting.set(id, {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      process.send?.({ type: request, id });
    });
}

/** The primary's side: answers workers' metrics requests with the aggregate of every worker. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== request) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: response, id: message.id, text }),
      (error: Error) => worker.isConnected() && worker.send({ type: response, id: message.id, error: error.message }),
    );
  });
}
