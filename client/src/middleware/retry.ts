import type { Middleware } from '../api-client.ts';
import { connectionErrorFor } from '../connection-error.ts';
import { actualStatus } from '../response-status.ts';

export type RetryOptions = {
  /** Attempts in all, the first included. */
  maxAttempts?: number;
  /** Delay after the first failed attempt; doubles after each further one. */
  baseDelayMs?: number;
  /** Uniform in [0, 1); drives the jitter factor 0.5 + random(). */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

/** Replaying these cannot apply a change twice, so a network failure may be retried blindly. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** The server's loop detector answers 508 with this marker; the SDK retries it (docs/protocol/overview.md §7). */
const LOOP_MARKER = 'x-stack-loop-detected';

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries network failures of idempotent requests, 429 (after Retry-After) and the 508 loop quirk,
 * with exponential backoff and jitter. A network failure that outlives the attempts, or any network
 * failure of a non-idempotent request, becomes a ConnectionError.
 */
export function retry(options: RetryOptions = {}): Middleware {
  const maxAttempts = options.maxAttempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 1000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const backoff = (attempt: number) => baseDelayMs * 2 ** (attempt - 1) * (0.5 + random());

  return async (request, next) => {
    const idempotent = IDEMPOTENT_METHODS.has(request.method.toUpperCase());
    for (let attempt = 1; ; attempt++) {
      const isLast = attempt >= maxAttempts;
      let response: Response;
      try {
        // Each attempt consumes its own copy of the body; the original stays replayable.
        response = await next(request.clone());
      } catch (error) {
        // fetch reports network failures as TypeError; aborts and the like pass through untouched.
        if (!(error instanceof TypeError)) throw error;
        if (!idempotent || isLast) throw connectionErrorFor(request.url, error);
        await pause(backoff(attempt), request.signal);
        continue;
      }
      if (isLast) return response;
      const status = actualStatus(response);
      if (status === 429) {
        await response.body?.cancel();
        await pause(retryAfterMs(response) ?? backoff(attempt), request.signal);
        continue;
      }
      if (status === 508 && response.headers.get(LOOP_MARKER)) {
        await response.body?.cancel();
        await pause(backoff(attempt), request.signal);
        continue;
      }
      return response;
    }

    async function pause(ms: number, signal: AbortSignal) {
      await sleep(ms);
      signal.throwIfAborted();
    }
  };
}

/** Retry-After is seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after')?.trim();
  if (!header) return undefined;
  if (/^\d+(\.\d+)?$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
