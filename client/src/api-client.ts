import { knownErrorFromBody } from './errors.ts';
import type { OperationName } from '@gatehouse/protocol/operations';
import type {
  OperationBody,
  OperationDescriptor,
  OperationParams,
  OperationQuery,
  OperationResult,
} from '@gatehouse/protocol/operation-types';
import { actualStatus, knownErrorCode } from './response-status.ts';

/** A step around every request, outermost first; it may change the request, retry, or map the response. */
export type Middleware = (request: Request, next: (request: Request) => Promise<Response>) => Promise<Response>;

export type ApiClientOptions = {
  /** Where the server is, e.g. `http://localhost:8102` (the client adds `/api/v1`). */
  baseUrl: string;
  /** Headers sent with every request (project id, access type, keys...). */
  headers?: Record<string, string> | (() => Record<string, string>);
  middleware?: Middleware[];
  fetch?: typeof fetch;
};

export type OperationInput<Id extends OperationName> = {
  params?: OperationParams<Id>;
  query?: OperationQuery<Id>;
  body?: OperationBody<Id>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/** A non-catalogued error answer (plain text), kept with its status. */
export class ApiHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message || `HTTP ${status}`);
    this.name = 'ApiHttpError';
  }
}

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * An operation to call: its const from `@gatehouse/protocol/operations` (what the SDK's own code
 * passes, so a bundle holds only the operations it calls) or its operationId, looked up in the
 * table of all operations, which is loaded at the first call by name.
 */
export type OperationRef<Id extends OperationName> = Id | OperationDescriptor<Id>;

async function descriptorOf<Id extends OperationName>(operation: OperationRef<Id>): Promise<OperationDescriptor<Id>> {
  if (typeof operation !== 'string') return operation;
  const { operationDescriptors } = await import('@gatehouse/protocol/operation-table');
  if (!Object.hasOwn(operationDescriptors, operation)) throw new TypeError(`Unknown operation: ${operation}`);
  return operationDescriptors[operation] as OperationDescriptor<Id>;
}

export function createApiClient(options: ApiClientOptions) {
  const apiBase = `${options.baseUrl.replace(/\/$/, '')}/api/v1`;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const send = (options.middleware ?? []).reduceRight<(request: Request) => Promise<Response>>(
    (next, middleware) => (request) => middleware(request, next),
    (request) => fetchImpl(request),
  );

  async function fetchResponse(path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers);
    for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
    const response = await send(new Request(apiBase + path, { ...init, headers }));
    if (!response.ok || response.headers.has('x-stack-actual-status')) await throwForError(response);
    return response;
  }

  return {
    /** Calls an operation (its const, or its operationId) with typed params, query and body. */
    async call<Id extends OperationName>(operation: OperationRef<Id>, input: OperationInput<Id> = {}): Promise<OperationResult<Id>> {
      const descriptor = await descriptorOf(operation);
      const path = descriptor.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
        encodeURIComponent(String((input.params as Record<string, unknown> | undefined)?.[name])),
      );
      const query = new URLSearchParams(input.query as Record<string, string> | undefined).toString();
      const headers: Record<string, string> = { ...input.headers };
      let body: BodyInit | undefined;
      if (input.body !== undefined) {
        body = JSON.stringify(input.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetchResponse(query ? `${path}?${query}` : path, {
        method: descriptor.method,
        headers,
        body,
        signal: input.signal,
      });
      if (descriptor.responseType === 'json') return (await response.json()) as OperationResult<Id>;
      if (descriptor.responseType === 'text') return (await response.text()) as unknown as OperationResult<Id>;
      return undefined as OperationResult<Id>;
    },

    /** Raw access for generated hooks (orval mutator): JSON or text by the response's content type. */
    async fetchJson(path: string, init: RequestInit): Promise<unknown> {
      const response = await fetchResponse(path, init);
      // JSON and `+json` types only: NDJSON (`application/x-ndjson`, the audit-log export) is many documents, read as text.
      const type = response.headers.get('content-type') ?? '';
      return /^application\/(?:[\w.-]+\+)?json(?:;|$)/i.test(type) ? response.json() : response.text();
    },
  };
}

/**
 * A known error is recognised by the header and a body whose code matches it (docs/protocol/overview.md §7);
 * it becomes the generated class. Anything else non-2xx is an ApiHttpError.
 */
async function throwForError(response: Response): Promise<never> {
  const status = actualStatus(response);
  // RATE_LIMITED comes without the known-error header (Stack's SDKs would not retry it otherwise): a 429 is
  // recognised by its JSON body; a plain-text 429 (an older server, a proxy) stays an ApiHttpError.
  const code = knownErrorCode(response) ?? (status === 429 ? 'RATE_LIMITED' : undefined);
  const text = await response.text();
  if (code) {
    try {
      const body = JSON.parse(text);
      if (body?.code === code) {
        // Awaits the code-to-class table, loaded at the first error answer.
        const known = await knownErrorFromBody(body, status);
        if (known) throw known;
      }
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  throw new ApiHttpError(status, text);
}
