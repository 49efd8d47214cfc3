import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext({ projectConfig: { 'auth.password.allowSignIn': true } });

async function signedInHeaders() {
  const response = await env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-up',
    headers: env.project.headers.client,
    payload: { email: `analytics-${randomUUID()}@example.com`, password: 'correct horse battery' },
  });
  expect(response.status, response.text).toBe(200);
  return { ...env.project.headers.client, 'x-stack-access-token': response.body.access_token as string };
}

// The shape newer SDKs send (session replay segment, batch id, the events they capture).
const sdkBatch = (count: number) => ({
  schema_version: 2,
  resource: { service: { name: 'web' } },
  session_replay_segment_id: randomUUID(),
  batch_id: randomUUID(),
  sent_at_ms: Date.now(),
  events: Array.from({ length: count }, (_, index) => ({
    event_type: index % 2 ? '$click' : '$page-view',
    event_at_ms: Date.now() - index,
    data: { path: `/page/${index}`, text: 'Buy 🛒' },
  })),
});

describe('POST /analytics/events/batch', () => {
  it("accepts the SDK's batch and drops it (nothing stored)", async () => {
    const headers = await signedInHeaders();
    const response = await env.context.request({ method: 'POST', url: '/api/v1/analytics/events/batch', headers, payload: sdkBatch(3) });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ inserted: 0, dropped: 3 });
    const full = await env.context.request({ method: 'POST', url: '/api/v1/analytics/events/batch', headers, payload: sdkBatch(500) });
    expect(full.body).toEqual({ inserted: 0, dropped: 500 });
  });

  it('needs a signed-in user', async () => {
    const response = await env.context.request({
      method: 'POST',
      url: '/api/v1/analytics/events/batch',
      headers: env.project.headers.client,
      payload: sdkBatch(1),
    });
    expectError(response, 401, 'USER_AUTHENTICATION_REQUIRED');
  });

  it('refuses an empty or too large batch, an oversized event and unknown fields with SCHEMA_ERROR', async () => {
    const headers = await signedInHeaders();
    const oversized = sdkBatch(1);
    (oversized.events[0] as { data: unknown }).data = { blob: 'x'.repeat(100_001) };
    for (const payload of [
      { ...sdkBatch(1), events: [] },
      sdkBatch(501),
      oversized,
      { ...sdkBatch(1), extra: true },
      { events: [{ event_type: '$click' }] },
    ]) {
      const response = await env.context.request({ method: 'POST', url: '/api/v1/analytics/events/batch', headers, payload });
      expectError(response, 400, 'SCHEMA_ERROR');
    }
  });
});
