import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { jwtVerify } from 'jose';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../../server/src/app.ts';
import { createDatabase } from '../../../server/src/db/create-database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { createServer, migrations } from '../../../server/src/services.ts';
import { defaultEmailThemeId } from '../../../server/src/tenancy/project-config.ts';
import { type DerivedFloor, deriveFloor } from './operations/derived-floors.ts';
import { createFixtureRows } from './operations/fixture-rows.ts';
import { registerDerivedFloors, registerReadFloors } from './operations/floor-routes.ts';
import { readFloors } from './operations/read-floors.ts';
import { captureStatements, installStatementCapture } from './operations/statement-capture.ts';
import { buildPermissionGraph } from './permission-graph.ts';
import { registerUpdateQuantityFloor } from './update-quantity-floor.ts';
import { generateUsers } from '../generate-users.ts';

/**
 * The processes under load, apart from the load generator: the platform on real Postgres, and two
 * bare Fastify floors (a static route; and a route that verifies an ES256 JWT and selects one row by
 * primary key). Prints one JSON line with where to find them and the credentials to use.
 */
const databaseUrl = process.env.DATABASE_URL as string;
// Before the first connection: the per-operation bench derives floors from the statements our handlers send.
installStatementCapture();
const database = await createDatabase({ databaseUrl, dataDir: '', poolSize: 10 });
await migrateToLatest(database.db, migrations);
const serverSecret = createHash('sha256').update('bench').digest();
const server = createServer(database.db, {
  publicUrl: 'http://127.0.0.1',
  serverSecret,
  settings: { email: { log: () => {} } },
});
const { services } = server;
const project = await services.projects.create({
  displayName: 'Bench project',
  configOverride: {
    'auth.password.allowSignIn': true,
    // The per-operation bench reads a user API key and a team API key.
    'apiKeys.enabled.user': true,
    'apiKeys.enabled.team': true,
    // The per-operation bench reads a webhook endpoint on loopback (disabled: nothing is delivered to it),
    // and its authorize redirects name a callback on localhost.
    'domains.allowLocalhost': true,
    // The per-operation bench's OAuth authorize redirect and a linked account (the provider is never contacted).
    'auth.oauth.providers': {
      github: {
        type: 'github',
        isShared: false,
        clientId: 'benchclient',
        clientSecret: 'benchsecret',
        allowSignIn: true,
        allowConnectedAccounts: true,
      },
    },
    // Payments: an item whose quantity is the ledger plus what an owned product grants every month.
    payments: {
      items: { credits: { displayName: 'Credits', customerType: 'user' } },
      products: {
        plan: {
          displayName: 'Plan',
          customerType: 'user',
          prices: { monthly: { USD: '9', interval: [1, 'month'] } },
          includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
        },
      },
    },
  },
});
const { keys } = await services.apiKeys.createKeySet({
  projectId: project.id,
  description: 'bench',
  expiresAt: new Date(Date.now() + 3_600_000),
  keys: { publishable_client_key: true, secret_server_key: true, super_secret_admin_key: true },
});
const email = `bench-${Date.now()}@example.com`;
const password = 'bench password 123';
const user = await services.users.create(project, { primary_email: email, primary_email_auth_enabled: true, password }, 'server');
const tokens = await services.signIn.signIn(project, user);
const team = await services.teams.create(project, { display_name: 'Bench team' });
await services.teams.addMember(project, team.id, user.id);
await buildPermissionGraph(services, project.id, team.id, user.id);
// Payments customers: the signed-in user and 31 more, each owning the plan and a ledger entry.
const paymentUsers = [user.id];
for (let index = 1; index < 32; index++)
  paymentUsers.push((await services.users.create(project, { display_name: `Buyer ${index}` }, 'server')).id);
for (const id of paymentUsers) {
  await services.payments.grant(
    project,
    { type: 'user', id },
    { productId: 'plan', product: services.payments.productFor(project, 'plan', 'server'), quantity: 1, source: 'grant' },
  );
  await services.payments.updateQuantity(project, { type: 'user', id }, 'credits', { delta: 1_000_000_000, allowNegative: false });
}
// The per-operation bench: 32 teams and 2 000 users in no team (membership adds), and the values reads are asked about.
const spareTeamIds: string[] = [];
for (let index = 0; index < 32; index++) spareTeamIds.push((await services.teams.create(project, { display_name: `Spare ${index}` })).id);
await generateUsers(database.db, project.id, 2_000);
const spareUserIds = (
  await sql<{ id: string }>`select id from project_user where project_id = ${project.id} and display_name like 'User %'`.execute(
    database.db,
  )
).rows.map((row) => row.id);
const contactChannel = await sql<{ id: string }>`select id from contact_channel where user_id = ${user.id} limit 1`.execute(database.db);
const fixtureRows: Record<string, string> = {
  project_id: project.id,
  user_id: user.id,
  team_id: team.id,
  customer_type: 'user',
  customer_id: user.id,
  item_id: 'credits',
  ...(contactChannel.rows[0] ? { contact_channel_id: contactChannel.rows[0].id } : {}),
  // Rows the email, config and webhook reads ask for by id.
  theme_id: defaultEmailThemeId,
  draft_id: await services.emailContent.drafts.create(project, { display_name: 'Bench draft' }),
  email_id: await services.email.recordSkipped(project.id, { to: email, kind: 'custom', subject: 'Bench', reason: 'Bench row.' }),
  level: 'project',
  endpoint_id: (await services.webhookEndpoints.create(project, { url: 'http://127.0.0.1:9/bench', enabled: false })).id,
};
// A project of 100 000 users for the metrics endpoint.
const bigProject = await services.projects.create({ displayName: 'Metrics project' });
const bigKeys = await services.apiKeys.createKeySet({
  projectId: bigProject.id,
  description: 'bench',
  expiresAt: new Date(Date.now() + 3_600_000),
  keys: { super_secret_admin_key: true },
});
// Only when the metrics endpoint is measured: a part run alone (`BENCH_ONLY=per-operation`) starts in seconds.
const metricsMeasured = new RegExp(process.env.BENCH_ONLY ?? '.').test('GET /internal/metrics');
await generateUsers(database.db, bigProject.id, metricsMeasured ? Number(process.env.BENCH_METRICS_USERS ?? 100_000) : 0);
// Throughput is the point here: rate limits would only measure 429s.
const app = await buildApp({ server, rateLimits: null });
// The rows the other GET operations read, made through the API (SCIM, SSO, OAuth consent, purchase code, …).
const fixture: Record<string, string> = {
  ...fixtureRows,
  ...(await createFixtureRows({
    app,
    projectId: project.id,
    keys: keys as Record<string, string>,
    accessToken: tokens.access_token,
    userId: user.id,
    teamId: team.id,
    purchaserId: spareUserIds[0] as string,
    unsubscribeSecret: serverSecret,
  })),
};
await app.listen({ port: 0, host: '127.0.0.1' });

const floor = Fastify({ logger: false });
floor.get('/bare', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'string' } } } } } }, async () => ({
  id: project.id,
}));
// The same work /users/me cannot avoid: verify the token's signature, read the user's row.
const publicKey = services.signingKeys.keyPair(project.id, 'normal').publicKey;
floor.get('/jwt-and-row', async (request) => {
  const { payload } = await jwtVerify(String(request.headers['x-stack-access-token']), publicKey, { algorithms: ['ES256'] });
  const { rows } = await sql<{
    id: string;
    display_name: string | null;
  }>`select id, display_name from project_user where id = ${payload.sub}`.execute(database.db);
  return rows[0];
});
// The floors of the per-operation bench: own pool of the platform's size, statements prepared by name.
const floorPool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
registerReadFloors(floor, floorPool, { keys: keys as Record<string, string>, publicKey }, readFloors, fixture);
const derivedFloors = new Map<string, DerivedFloor>();
registerDerivedFloors(floor, floorPool, { keys: keys as Record<string, string>, publicKey }, derivedFloors);
// Floor B with the two statements get-item makes (request authentication's user read, then the item read): the cause, measured.
const itemStatement = readFloors.getCustomerItem?.statement as string;
floor.get('/jwt-user-and-item', async (request) => {
  const { payload } = await jwtVerify(String(request.headers['x-stack-access-token']), publicKey, { algorithms: ['ES256'] });
  await floorPool.query({
    name: 'bench-user',
    text: 'select * from project_user where project_id = $1 and id = $2',
    values: [project.id, payload.sub],
  });
  const { rows } = await floorPool.query({ name: 'bench-item', text: itemStatement, values: [project.id, 'user', payload.sub, 'credits'] });
  return { items: rows };
});
registerUpdateQuantityFloor(floor, floorPool, { projectId: project.id, serverKey: keys.secret_server_key as string });
await floor.listen({ port: 0, host: '127.0.0.1' });

const portOf = (server: typeof floor) => (server.server.address() as { port: number }).port;
console.log(
  JSON.stringify({
    appPort: portOf(app as unknown as typeof floor),
    floorPort: portOf(floor),
    projectId: project.id,
    keys,
    email,
    password,
    tokens,
    teamId: team.id,
    userId: user.id,
    paymentUsers,
    fixture,
    spareTeamIds,
    spareUserIds,
    metricsProjectId: bigProject.id,
    metricsAdminKey: bigKeys.keys.super_secret_admin_key,
  }),
);
/** What the parent asks for a floor to derive: the request the bench will send, as our server gets it. */
type DeriveRequest = { operationId: string; path: string; headers: Record<string, string> };
process.on('message', async (message: unknown) => {
  if (message === 'memory') process.send?.({ rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024) });
  if (typeof message !== 'object' || message === null || (message as { type?: string }).type !== 'derive-floors') return;
  // Each request twice to warm the caches, then once captured: the floor replays what a warm request reads.
  const derived: Record<string, { counts: DerivedFloor['counts']; status: number; statement?: string }> = {};
  for (const request of (message as { requests: DeriveRequest[] }).requests) {
    const send = () => app.inject({ method: 'GET', url: `/api/v1${request.path}`, headers: request.headers });
    await send();
    await send();
    const { result, statements } = await captureStatements(send);
    const floor = deriveFloor(statements);
    derivedFloors.set(request.operationId, floor);
    derived[request.operationId] = { counts: floor.counts, status: result.statusCode, statement: floor.statement };
  }
  process.send?.({ type: 'derived-floors', derived });
});
process.once('SIGTERM', async () => {
  await app.close();
  await floor.close();
  await floorPool.end();
  await database.close();
  process.exit(0);
});
