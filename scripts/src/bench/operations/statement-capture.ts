import { createRequire } from 'node:module';

/** One statement as the platform sent it to Postgres: its text and the values bound to it. */
export type CapturedStatement = { text: string; values: unknown[] };

/** The server's pool names its connections so (create-database.ts `poolApplicationName`); the floors' pool does not. */
const serverApplicationName = 'gatehouse';
let recording: CapturedStatement[] | undefined;
let installed = false;

/**
 * Records every statement the platform's pooled `pg` clients send while `captureStatements` runs (not
 * the floors' own pool). It patches the prototype of the `pg` the server resolves, so it must run
 * before the first connection: the server's prepared-statements pool binds `client.query` when a
 * client connects. (An AsyncLocalStorage scope per request was tried first: in a listening app the
 * first injected request after a pause ran its statements outside the scope, so the capture is by
 * time window, and `captureStatements` keeps what two runs of the same request both sent.)
 */
export function installStatementCapture(): void {
  if (installed) return;
  installed = true;
  const serverRequire = createRequire(new URL('../../../../server/src/db/create-database.ts', import.meta.url));
  const { Client } = serverRequire('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const query = Client.prototype.query;
  Client.prototype.query = function (this: { connectionParameters?: { application_name?: string } }, ...args: unknown[]) {
    if (recording && this.connectionParameters?.application_name === serverApplicationName) {
      const [first, second] = args;
      if (typeof first === 'string') recording.push({ text: first, values: Array.isArray(second) ? second : [] });
      else if (first && typeof first === 'object' && typeof (first as { text?: unknown }).text === 'string') {
        const submitted = first as { text: string; values?: unknown[] };
        recording.push({ text: submitted.text, values: submitted.values ?? [] });
      }
    }
    return query.apply(this, args);
  };
}

async function record<T>(work: () => Promise<T>): Promise<{ result: T; statements: CapturedStatement[] }> {
  const statements: CapturedStatement[] = [];
  recording = statements;
  try {
    return { result: await work(), statements };
  } finally {
    recording = undefined;
  }
}

/**
 * Runs `work` twice, one after the other, and returns the statements the second run sent that the
 * first sent too (by text): a background job's statement that fell into one window (the webhook and
 * email workers poll) is dropped. Call it with nothing else of the server's running.
 */
export async function captureStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: CapturedStatement[] }> {
  const first = await record(work);
  const second = await record(work);
  const seen = new Map<string, number>();
  for (const statement of first.statements) seen.set(statement.text, (seen.get(statement.text) ?? 0) + 1);
  const statements = second.statements.filter((statement) => {
    const left = seen.get(statement.text) ?? 0;
    if (left === 0) return false;
    seen.set(statement.text, left - 1);
    return true;
  });
  return { result: second.result, statements };
}
