import { fork } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';
import { measureArgon2Capacity } from './bench/argon2-capacity.ts';
import { measureEmail } from './bench/email-delivery.ts';
import { benchFirstStart, firstStartRows } from './bench/first-start.ts';
import { benchStartupMemory, startupMemoryRows } from './bench/startup-memory.ts';
import { benchUsersListing, usersListingRows } from './bench/users-listing.ts';
import { benchScaleOut, scaleOutRows } from './bench/scale-out.ts';
import { benchPerOperation } from './bench/per-operation.ts';
import { measureWebhookDelivery } from './bench/webhook-delivery.ts';
import { benchUpdateQuantity } from './bench/update-quantity.ts';
import { emailVerdicts, webhookVerdicts } from './bench/delivery-verdicts.ts';
import { startThrowawayPostgres } from './testing/throwaway-postgres.ts';

/**
 * `pnpm bench`: requests/s, p50 and p99 of the platform's hot endpoints at fixed concurrency, each
 * beside a floor measured in the same run, as a ratio:
 * - reads against a bare Fastify route (the framework floor);
 * - authenticated calls against a bare route that verifies an ES256 JWT and selects one row by id;
 * - password sign-in against what the machine's cores can hash with argon2id at the same parameters;
 * - payments: a user's item and manual quantity changes (32 customers, and one hot customer) against floor B;
 * - webhook delivery to a local receiver: event-to-delivery p50/p99 and deliveries/s (own database handle);
 * - per operation (`BENCH_ONLY=per-operation`): every GET operation of the spec against its floor, then bulk writes;
 * - emails: sandboxed render p50 cold and warm; send-email to all of 100 000 users: time to enqueue and the
 *   outbox worker's delivery rate to a local SMTP sink (own database handle).
 */
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** `BENCH_ONLY=users/me` measures the floors and the matching endpoints only. */
const only = new RegExp(process.env.BENCH_ONLY ?? '.');
const duration = Number(process.env.BENCH_SECONDS ?? 8);
/** `BENCH_CPU_PROF=<dir>` writes a V8 CPU profile of the server process there (open it in Chrome DevTools). */
const cpuProfile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

const postgres = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres();
const databaseUrl = process.env.DATABASE_URL ?? (postgres?.url as string);
const child = fork(new URL('./bench/bench-servers.ts', import.meta.url).pathname, [], {
  env: { ...process.env, DATABASE_URL: databaseUrl },
  execArgv: ['--import', 'tsx', ...cpuProfile],
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
// A failing part must not leave the servers and Postgres running (after a normal end both are stopped already).
let stopped = false;
process.once('exit', () => {
  if (stopped) return;
  child.kill('SIGTERM');
  stopped = true;
  postgres?.stop();
});
type Ready = {
  appPort: number;
  floorPort: number;
  projectId: string;
  keys: Record<string, string>;
  email: string;
  password: string;
  tokens: { access_token: string; refresh_token: string };
  teamId: string;
  userId: string;
  paymentUsers: string[];
  fixture: Record<string, string>;
  spareTeamIds: string[];
  spareUserIds: string[];
  metricsProjectId: string;
  metricsAdminKey: string;
};
// One JSON line, longer than a pipe's chunk (the spare users' ids): read up to its newline.
const ready = await new Promise<Ready>((resolve) => {
  let received = '';
  const onData = (chunk: Buffer) => {
    received += chunk.toString();
    const end = received.indexOf('\n');
    if (end < 0) return;
    child.stdout?.off('data', onData);
    resolve(JSON.parse(received.slice(0, end)));
  };
  child.stdout?.on('data', onData);
});

type Result = { name: string; rps: number; p50: number; p99: number; errors: number };
type Request = NonNullable<autocannon.Options['requests']>[number];
async function measure(name: string, url: string, request: Request = {}): Promise<Result> {
  if (!name.includes('floor') && !only.test(name)) return { name, rps: Number.NaN, p50: Number.NaN, p99: Number.NaN, errors: 0 };
  const options = { url, connections, requests: [request] };
  await autocannon({ ...options, duration: 1 }); // warm-up: JIT, caches, pool
  const result = await autocannon({ ...options, duration });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

const app = `http://127.0.0.1:${ready.appPort}`;
const floorUrl = `http://127.0.0.1:${ready.floorPort}`;
const client = {
  'x-stack-access-type': 'client',
  'x-stack-project-id': ready.projectId,
  'x-stack-publishable-client-key': ready.keys.publishable_client_key as string,
};
const server = {
  'x-stack-access-type': 'server',
  'x-stack-project-id': ready.projectId,
  'x-stack-secret-server-key': ready.keys.secret_server_key as string,
};
const json = { 'content-type': 'application/json' };
let signUps = 0;

const bare = await measure('bare Fastify route (floor A)', `${floorUrl}/bare`);
const jwtFloor = await measure('bare route: verify ES256 JWT + select row by id (floor B)', `${floorUrl}/jwt-and-row`, {
  headers: { 'x-stack-access-token': ready.tokens.access_token },
});
/** Floor B measured again right before each endpoint it judges, so drift on the machine cancels out. */
const againstFloorB = async (name: string, url: string, request: Request): Promise<[Result, Result]> => {
  if (!only.test(name)) return [await measure(name, url, request), jwtFloor];
  const floor = await measure('floor B (again)', `${floorUrl}/jwt-and-row`, {
    headers: { 'x-stack-access-token': ready.tokens.access_token },
  });
  return [await measure(name, url, request), floor];
};
const rows: Array<[Result, Result | { name: string; rps: number }]> = [
  [await measure('GET /projects/current (server key)', `${app}/api/v1/projects/current`, { headers: server }), bare],
  [await measure('GET /projects/{id}/.well-known/jwks.json', `${app}/api/v1/projects/${ready.projectId}/.well-known/jwks.json`), bare],
  await againstFloorB('GET /users/me', `${app}/api/v1/users/me`, {
    headers: { ...client, 'x-stack-access-token': ready.tokens.access_token },
  }),
  await againstFloorB('POST /auth/sessions/current/refresh', `${app}/api/v1/auth/sessions/current/refresh`, {
    method: 'POST',
    headers: { ...client, ...json, 'x-stack-refresh-token': ready.tokens.refresh_token },
    body: '{}',
  }),
];
// Payments: a user's item (ledger plus a product's monthly grant), then manual decrements, serialised per customer item.
rows.push(
  await againstFloorB('GET /payments/items/{type}/{id}/{item}', `${app}/api/v1/payments/items/user/${ready.userId}/credits`, {
    headers: { ...client, 'x-stack-access-token': ready.tokens.access_token },
  }),
);
// The cause of get-item's gap to floor B, measured: floor B making get-item's two statements (user, then item).
if (only.test('GET /payments/items/{type}/{id}/{item}'))
  rows.push([
    await measure("floor B with get-item's two statements (user read, item read)", `${floorUrl}/jwt-user-and-item`, {
      headers: { 'x-stack-access-token': ready.tokens.access_token },
    }),
    rows.at(-1)?.[1] as Result,
  ]);
// update-quantity against floor B and its own floor E, with where its statement's time goes (update-quantity.ts).
const updateQuantity = only.test('update-quantity')
  ? await benchUpdateQuantity({
      databaseUrl,
      app,
      floorUrl,
      serverHeaders: server,
      userId: ready.userId,
      paymentUsers: ready.paymentUsers,
      measure,
      againstFloorB,
    })
  : undefined;
rows.push(...(updateQuantity?.rows ?? []));
const permissionsUrl = (recursive: boolean) =>
  `${app}/api/v1/team-permissions?team_id=${ready.teamId}&user_id=${ready.userId}&recursive=${recursive}`;
const directGrants = await measure('GET /team-permissions (direct grants)', permissionsUrl(false), { headers: server });
const directFloor = { name: 'direct grants (floor D)', rps: directGrants.rps };
rows.push([directGrants, directFloor]);
rows.push([
  await measure('GET /team-permissions (recursive: 200 definitions, 5 levels)', permissionsUrl(true), { headers: server }),
  directFloor,
]);
// Latency, not throughput: one dashboard at a time asking for the metrics of 100 000 users.
const metricsHeaders = {
  'x-stack-access-type': 'admin',
  'x-stack-project-id': ready.metricsProjectId,
  'x-stack-super-secret-admin-key': ready.metricsAdminKey,
};
const metrics = only.test('GET /internal/metrics')
  ? await (async () => {
      const options = { url: `${app}/api/v1/internal/metrics`, connections: 1, requests: [{ headers: metricsHeaders }] };
      await autocannon({ ...options, duration: 1 });
      return autocannon({ ...options, duration: Math.min(duration, 5) });
    })()
  : undefined;
/**
 * Floor C is measured before, between and after the two argon2-bound endpoints, and each is judged
 * against the mean of the measurements around it: the cores' hash rate drifts by ±10 % on a shared
 * machine, and a single measurement minutes away would judge the drift rather than the endpoint.
 */
const argonBound = only.test('POST /auth/password/sign-in') || only.test('POST /auth/password/sign-up');
const hashRate = async () => (argonBound ? measureArgon2Capacity(cpus().length, 5) : Number.NaN);
const argonFloor = (name: string, before: number, after: number) => ({
  name: `argon2id hashes/s on ${cpus().length} cores (floor C${name})`,
  rps: Math.round((before + after) / 2),
});
const hashRates = [await hashRate()];
const signIn = await measure('POST /auth/password/sign-in', `${app}/api/v1/auth/password/sign-in`, {
  method: 'POST',
  headers: { ...client, ...json },
  body: JSON.stringify({ email: ready.email, password: ready.password }),
});
hashRates.push(await hashRate());
const signUp = await measure('POST /auth/password/sign-up', `${app}/api/v1/auth/password/sign-up`, {
  method: 'POST',
  headers: { ...client, ...json },
  setupRequest: (request) => ({
    ...request,
    body: JSON.stringify({ email: `signup-${process.pid}-${++signUps}@example.com`, password: 'sign up password 1' }),
  }),
});
hashRates.push(await hashRate());
const argonFloors = [
  argonFloor(' around sign-in', hashRates[0] as number, hashRates[1] as number),
  argonFloor(' around sign-up', hashRates[1] as number, hashRates[2] as number),
];
rows.push([signIn, argonFloors[0] as { name: string; rps: number }]);
rows.push([signUp, argonFloors[1] as { name: string; rps: number }]);
// Every GET operation of the spec against its floor, interleaved, then the bulk writes.
const perOperation = only.test('per-operation')
  ? await benchPerOperation(
      {
        appUrl: app,
        floorUrl,
        keys: ready.keys,
        projectId: ready.projectId,
        accessToken: ready.tokens.access_token,
        fixture: ready.fixture,
        spareTeamIds: ready.spareTeamIds,
        spareUserIds: ready.spareUserIds,
        deriveFloors: (requests) =>
          new Promise((resolve) => {
            const onMessage = (message: unknown) => {
              if ((message as { type?: string }).type !== 'derived-floors') return;
              child.off('message', onMessage);
              resolve((message as { derived: Parameters<typeof resolve>[0] }).derived);
            };
            child.on('message', onMessage);
            child.send({ type: 'derive-floors', requests });
          }),
      },
      { connections },
    )
  : undefined;
const webhooks = only.test('webhook delivery') ? await measureWebhookDelivery(databaseUrl) : undefined;
const emails = only.test('email delivery') ? await measureEmail(databaseUrl) : undefined;
child.send('memory');
const memory = await new Promise<{ rssMb: number }>((resolve) => child.once('message', (message) => resolve(message as { rssMb: number })));

console.log(`\nMachine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`);
console.log(
  `Load: autocannon, ${connections} connections, ${duration} s per endpoint; Postgres ${process.env.DATABASE_URL ? 'from DATABASE_URL' : '15 (throwaway)'}\n`,
);
console.log('| endpoint | req/s | p50 ms | p99 ms | floor | vs floor | non-2xx |');
console.log('|---|---:|---:|---:|---|---:|---:|');
for (const floor of [bare, jwtFloor])
  console.log(`| ${floor.name} | ${floor.rps} | ${floor.p50} | ${floor.p99} | — | — | ${floor.errors} |`);
if (argonBound)
  console.log(
    `| argon2id hashes/s on ${cpus().length} cores (floor C), each measurement | ${hashRates.map(Math.round).join(' / ')} | | | — | — | |`,
  );
for (const [result, floor] of rows.filter(([result]) => !Number.isNaN(result.rps))) {
  const label =
    floor === bare
      ? 'A'
      : floor === directFloor
        ? 'D'
        : argonFloors.includes(floor as never)
          ? `C (${floor.rps}/s)`
          : floor.name.startsWith('floor E')
            ? `E (${floor.rps} req/s)`
            : `B (${floor.rps} req/s)`;
  console.log(
    `| ${result.name} | ${result.rps} | ${result.p50} | ${result.p99} | ${label} | ${(result.rps / floor.rps).toFixed(2)}x | ${result.errors} |`,
  );
}
if (metrics) {
  console.log(
    `\nGET /internal/metrics on 100 000 users, 1 connection: p50 ${metrics.latency.p50} ms, p99 ${metrics.latency.p99} ms, max ${metrics.latency.max} ms (target: within 100 ms)`,
  );
}
if (updateQuantity)
  console.log(`\nWhere update-quantity's statement spends its time (pg_stat_activity every 10 ms):\n${updateQuantity.lines.join('\n')}`);
if (perOperation) console.log(`\n${perOperation.rows.join('\n')}`);
// Issue #38's delivery targets, one PASS/FAIL line each (a FAIL sets the exit code).
const deliveryVerdicts: Array<{ line: string; passed: boolean }> = [];
if (webhooks) {
  console.log(
    `\nWebhook delivery to a local receiver (one worker, default settings): event-to-delivery p50 ${webhooks.latencyP50} ms, p99 ${webhooks.latencyP99} ms; draining a backlog: ${webhooks.perSecond} deliveries/s (${webhooks.messages} messages), ${webhooks.duplicates} received twice (same webhook-id)`,
  );
  deliveryVerdicts.push(...webhookVerdicts(webhooks));
}
if (emails) {
  const { settings } = emails;
  if (emails.enqueueOnly)
    console.log(
      `\nEmail enqueue alone (BENCH_EMAIL_DELIVER=0), send-email all_users on ${emails.users} users: median ${emails.enqueueMillis} ms of ${emails.enqueueRuns.join(', ')} ms (target < 5000)`,
    );
  else {
    console.log(
      `\nEmail render in the sandbox: p50 cold ${emails.renderColdP50} ms (source not compiled yet), warm ${emails.renderWarmP50} ms (bundle cached); first render of the process ${emails.renderFirst} ms`,
    );
    console.log(
      `Email delivery, send-email all_users on ${emails.users} users: enqueued in ${emails.enqueueMillis} ms (target < 5000); ${emails.delivered} delivered to a local SMTP sink in ${emails.deliverySeconds} s = ${emails.perSecond} emails/s, ${emails.duplicates} duplicates (batch ${settings.batchSize}, ${settings.smtpConnections} SMTP connections, database pool ${emails.poolSize})`,
    );
    deliveryVerdicts.push(...emailVerdicts(emails));
  }
}
if (deliveryVerdicts.length > 0)
  console.log(`\nDelivery targets (issue #38):\n${deliveryVerdicts.map((verdict) => verdict.line).join('\n')}`);
console.log(`\nServer process RSS after the run: ${memory.rssMb} MB`);

child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
if (only.test('start-up')) console.log(`\n${startupMemoryRows(await benchStartupMemory(databaseUrl)).join('\n')}`);
// `BENCH_ONLY=users-listing` for this part alone; `BENCH_USERS` (default 1 000 000) users generated for it.
if (only.test('users-listing')) {
  const listing = await benchUsersListing(databaseUrl);
  console.log(
    `\nUsers listing (${listing.users} users generated in ${listing.generateSeconds} s):\n${usersListingRows(listing).join('\n')}`,
  );
}
// `BENCH_ONLY=first-start`: the README's start on a fresh clone of the committed HEAD (builds included).
if (only.test('first-start'))
  console.log(
    `\nFirst start on a fresh clone:\n${firstStartRows(await benchFirstStart(new URL('../..', import.meta.url).pathname)).join('\n')}`,
  );
if (only.test('scale-out'))
  console.log(`\n${scaleOutRows(await benchScaleOut(databaseUrl, { connections, seconds: duration })).join('\n')}`);
stopped = true;
postgres?.stop();
// Loudly, last: an operation of the spec the per-operation bench could not judge against a floor.
if (perOperation && perOperation.withoutFloor.length > 0) {
  console.error(
    `\nPer-operation bench: ${perOperation.withoutFloor.length} GET operations without a floor:\n  ${perOperation.withoutFloor.join('\n  ')}`,
  );
  process.exitCode = 1;
}
if (deliveryVerdicts.some((verdict) => !verdict.passed)) process.exitCode = 1;
