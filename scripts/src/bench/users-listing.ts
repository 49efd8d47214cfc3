import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureServerBuilt } from '../build/build-server.ts';
import { startCompiled, stop } from './startup-memory.ts';

/**
 * Issue #20's listing figures: `GET /users` on a project of `BENCH_USERS` (default 1 000 000) users,
 * each with an email contact channel, on Postgres through the compiled server, one request at a time:
 * - the first page (`limit=100`, the default order: signed_up_at, id);
 * - a page reached after 500 `next_cursor` hops (the cursor of hop 500, asked again and again);
 * - a search by email prefix (`query=user-NNNN`, a different prefix per request, about 111 matches).
 * Each figure is the median (and p99) of `BENCH_LISTING_REQUESTS` (default 50) requests after 5 warm-up ones.
 */
export type UsersListingFigures = {
  users: number;
  generateSeconds: number;
  firstPage: Latency;
  deepPage: Latency & { hops: number; hopSeconds: number };
  emailPrefix: Latency & { matchesPerQuery: number };
};
type Latency = { p50: number; p99: number; requests: number };

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] as number;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** All users in one INSERT … SELECT generate_series; triggers and foreign-key checks off for the load (replica role). */
async function generate(client: pg.Client, projectId: string, count: number): Promise<void> {
  await client.query('set session_replication_role = replica');
  await client.query(
    `insert into project_user (id, project_id, display_name, signed_up_at, last_active_at, country_code, sign_up_method,
       primary_email, primary_email_verified, primary_email_auth_enabled)
     select md5($1 || n)::uuid, $1, 'User ' || n, now() - (random() * interval '60 days'), now() - (random() * interval '30 days'),
       (array['US', 'DE', 'FR', 'GB', 'BR', 'IN', 'JP', null])[1 + n % 8], 'password',
       'user-' || n || '@example.com', true, true
     from generate_series(1, $2::int) as n`,
    [projectId, count],
  );
  await client.query(
    `insert into contact_channel (id, project_id, user_id, type, value, is_verified, is_primary, used_for_auth)
     select gen_random_uuid(), $1, md5($1 || n)::uuid, 'email', 'user-' || n || '@example.com', true, true, true
     from generate_series(1, $2::int) as n`,
    [projectId, count],
  );
  await client.query('set session_replication_role = origin');
  await client.query('vacuum analyze project_user');
  await client.query('vacuum analyze contact_channel');
}

async function latency(send: (index: number) => Promise<void>, requests: number): Promise<Latency> {
  for (let index = 0; index < 5; index++) await send(index);
  const times: number[] = [];
  for (let index = 0; index < requests; index++) {
    const started = performance.now();
    await send(index + 5);
    times.push(performance.now() - started);
  }
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), requests };
}

export async function benchUsersListing(adminDatabaseUrl: string): Promise<UsersListingFigures> {
  const users = Number(process.env.BENCH_USERS ?? 1_000_000);
  const requests = Number(process.env.BENCH_LISTING_REQUESTS ?? 50);
  const entry = await ensureServerBuilt();
  const port = 19400 + Math.floor(Math.random() * 400);
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-users-'));
  const databaseName = `gatehouse_bench_users_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  const databaseUrl = Object.assign(new URL(adminDatabaseUrl), { pathname: `/${databaseName}` }).toString();
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    // A first start migrates and seeds the demo project, whose users these are.
    await stop(await startCompiled(entry, env, port));
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-project.json'), 'utf8')) as {
      id: string;
      keys: { secret_server_key: string };
    };
    await client.connect();
    const generating = performance.now();
    await generate(client, demo.id, users);
    const generateSeconds = Math.round((performance.now() - generating) / 1000);

    const server = await startCompiled(entry, env, port);
    const headers = {
      'x-stack-access-type': 'server',
      'x-stack-project-id': demo.id,
      'x-stack-secret-server-key': demo.keys.secret_server_key,
    };
    const list = async (query: string) => {
      const response = await fetch(`${server.baseUrl}/api/v1/users?${query}`, { headers });
      if (response.status !== 200) throw new Error(`GET /users?${query}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { items: unknown[]; pagination?: { next_cursor?: string | null } };
    };
    try {
      const firstPage = await latency(async () => void (await list('limit=100')), requests);
      const hopping = performance.now();
      let cursor: string | undefined;
      const hops = 500;
      for (let hop = 0; hop < hops; hop++) {
        const page = await list(`limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        cursor = page.pagination?.next_cursor ?? undefined;
        if (!cursor) throw new Error(`no next_cursor after hop ${hop}`);
      }
      const hopSeconds = Math.round((performance.now() - hopping) / 100) / 10;
      const deepPage = await latency(async () => void (await list(`limit=100&cursor=${cursor}`)), requests);
      // Prefixes user-1000 … user-9999 (each matches itself, 10 five-digit and 100 six-digit numbers).
      const prefix = (index: number) => `user-${1000 + ((index * 7919) % 9000)}`;
      const matchesPerQuery = (await list(`limit=200&query=${prefix(0)}`)).items.length;
      const emailPrefix = await latency(async (index) => void (await list(`limit=100&query=${prefix(index)}`)), requests);
      return {
        users,
        generateSeconds,
        firstPage,
        deepPage: { ...deepPage, hops, hopSeconds },
        emailPrefix: { ...emailPrefix, matchesPerQuery },
      };
    } finally {
      await stop(server);
    }
  } finally {
    await client.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${databaseName} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

/** The figures as README table rows, each beside its target. */
export function usersListingRows(figures: UsersListingFigures): string[] {
  const { users, firstPage, deepPage, emailPrefix } = figures;
  const count = users.toLocaleString('en-US').replace(/,/g, ' ');
  return [
    `| \`GET /users?limit=100\` on ${count} users, first page (p99 ${firstPage.p99} ms; ${firstPage.requests} requests, one at a time) | ${firstPage.p50} ms | p50 ≤ 20 ms |`,
    `| \`GET /users\` page after ${deepPage.hops} \`next_cursor\` hops (the hops took ${deepPage.hopSeconds} s; p99 ${deepPage.p99} ms) | ${deepPage.p50} ms | p50 ≤ 20 ms |`,
    `| \`GET /users?query=user-NNNN\` email prefix search (${emailPrefix.matchesPerQuery} matches each; p99 ${emailPrefix.p99} ms) | ${emailPrefix.p50} ms | p50 ≤ 20 ms |`,
  ];
}
