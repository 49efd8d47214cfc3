/** A `fetch` stand-in: records every request and answers from a script. */
export type FakeFetch = typeof fetch & { requests: Request[] };

export function fakeFetch(answer: (request: Request, index: number) => Response | Promise<Response>): FakeFetch {
  const requests: Request[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    return answer(request, requests.length - 1);
  };
  return Object.assign(fetchImpl, { requests }) as FakeFetch;
}

export const jsonResponse = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'content-type': 'application/json', ...init.headers } });

/** A known error as the server sends it under `x-stack-override-error-status` (200 + actual status). */
export function knownErrorResponse(code: string, status: number, options: { override?: boolean } = {}) {
  const override = options.override ?? true;
  return jsonResponse(
    { code, error: code.toLowerCase() },
    {
      status: override ? 200 : status,
      headers: { 'x-stack-known-error': code, ...(override ? { 'x-stack-actual-status': String(status) } : {}) },
    },
  );
}

/** A network failure the way fetch reports it. */
export const networkFailure = () => Promise.reject(new TypeError('fetch failed'));

export const isRefresh = (request: Request) => request.url.endsWith('/api/v1/auth/oauth/token');
