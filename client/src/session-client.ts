import { type ApiClient, createApiClient } from './api-client.ts';
import { type RequestHeadersOptions, requestHeaders } from './middleware/request-headers.ts';
import { retry } from './middleware/retry.ts';
import { tokenRefresh } from './middleware/token-refresh.ts';
import type { CrossTabOptions } from './session/cross-tab-refresh.ts';
import { createSession, type Session } from './session/session.ts';
import type { TokenStore } from './token-store/token-store.ts';

export type SessionClientOptions = Omit<RequestHeadersOptions, 'nonce'> &
  CrossTabOptions & {
    /** Where the server is, e.g. `http://localhost:8102` (the client adds `/api/v1`). */
    baseUrl: string;
    /** In memory by default; pass a cookie or localStorage store to survive reloads. */
    tokenStore?: TokenStore;
    fetch?: typeof fetch;
    /** Jitter source of the retry backoff, uniform in [0, 1). */
    random?: () => number;
    sleep?: (ms: number) => Promise<void>;
  };

/**
 * Spelled out rather than inferred: an inferred type makes tsc write `import("…")` specifiers of its
 * own choosing into the shipped declarations, which a package's `exports` may not list.
 */
export type SessionClient = Pick<ApiClient, 'call' | 'fetchJson'> & { session: Session };

/**
 * The API client of a signed-in (or signing-in) user: request headers → token refresh → retry →
 * fetch. Token refresh sits outside retry so a replay after a refresh is retried too, and the
 * refresh itself goes straight to fetch.
 */
export function createSessionClient(options: SessionClientOptions): SessionClient {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const session = createSession({ ...options, fetch: fetchImpl });
  const client = createApiClient({
    baseUrl: options.baseUrl,
    fetch: fetchImpl,
    middleware: [requestHeaders(options), tokenRefresh(session), retry({ random: options.random, sleep: options.sleep })],
  });
  return { call: client.call, fetchJson: client.fetchJson, session };
}
