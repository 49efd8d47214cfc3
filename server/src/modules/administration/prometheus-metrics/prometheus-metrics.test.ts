import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';

const token = 'a metrics token of the tests';
const on = withTestContext({ settings: { prometheusMetrics: { token } }, poolSize: 3 });
const off = withTestContext();

/** The value of one series line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const scrape = (authorization?: string) =>
  on.context.request({ url: '/api/v1/metrics', headers: authorization === undefined ? {} : { authorization } });

describe('GET /api/v1/metrics (Prometheus)', () => {
  it('is off without METRICS_TOKEN: 404 METRICS_DISABLED', async () => {
    const response = await off.context.request({ url: '/api/v1/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('METRICS_DISABLED');
  });

  it('refuses a missing, malformed or wrong token: 401 METRICS_TOKEN_INVALID', async () => {
    for (const authorization of [undefined, token, `Basic ${token}`, 'Bearer wrong', `Bearer ${token}x`]) {
      const response = await scrape(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.body.code).toBe('METRICS_TOKEN_INVALID');
    }
  });

  it('counts requests per operation and status, with their latency', async () => {
    const series = (status: number) =>
      `gatehouse_http_request_duration_seconds_count{operation="getCurrentProject",method="GET",status="${status}"}`;
    const before = (await scrape(`Bearer ${token}`)).text;
    for (let i = 0; i < 3; i++) {
      expect((await on.context.request({ url: '/api/v1/projects/current', headers: on.project.headers.client })).status).toBe(200);
    }
    const wrongKey = { ...on.project.headers.client, 'x-stack-publishable-client-key': 'pck_wrong' };
    expect((await on.context.request({ url: '/api/v1/projects/current', headers: wrongKey })).status).toBe(401);
    // The SDKs' status override sends a 4xx as 200: it still counts as the 4xx.
    const overridden = await on.context.request({
      url: '/api/v1/projects/current',
      headers: { ...wrongKey, 'x-stack-override-error-status': 'true' },
    });
    expect(overridden.httpStatus).toBe(200);
    expect((await on.context.request({ url: '/api/v1/no-such-path' })).status).toBe(404);

    const response = await scrape(`Bearer  ${token} `);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = response.text;
    expect((sample(after, series(200)) ?? 0) - (sample(before, series(200)) ?? 0)).toBe(3);
    expect((sample(after, series(401)) ?? 0) - (sample(before, series(401)) ?? 0)).toBe(2);
    expect(
      sample(after, 'gatehouse_http_request_duration_seconds_count{operation="not_found",method="GET",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    // Latency: the histogram's buckets are cumulative, and the sum is a positive duration.
    const sum = sample(after, 'gatehouse_http_request_duration_seconds_sum{operation="getCurrentProject",method="GET",status="200"}');
    expect(sum).toBeGreaterThan(0);
    expect(
      sample(after, 'gatehouse_http_request_duration_seconds_bucket{le="+Inf",operation="getCurrentProject",method="GET",status="200"}'),
    ).toBe(sample(after, series(200)));
  });

  it('reports the pool, the queues, the cache listener and the process', async () => {
    const text = (await scrape(`Bearer ${token}`)).text;
    expect(sample(text, 'gatehouse_db_pool_max')).toBe(3);
    const total = sample(text, 'gatehouse_db_pool_connections{state="total"}') as number;
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(3);
    expect(sample(text, 'gatehouse_db_pool_connections{state="idle"}')).toBeLessThanOrEqual(total);
    expect(sample(text, 'gatehouse_db_pool_connections{state="waiting"}')).toBe(0);
    expect(sample(text, 'gatehouse_queue_depth{queue="email_outbox"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'gatehouse_queue_depth{queue="webhook_deliveries"}')).toBeGreaterThanOrEqual(0);
    // In-process tests run no background jobs: no listener.
    expect(sample(text, 'gatehouse_cache_listener_up')).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});
