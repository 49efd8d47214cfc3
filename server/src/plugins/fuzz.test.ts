import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { routeTable } from '../generated/route-table.ts';
import type { RouteDefinition } from '../routing/route-definition.ts';
import type { TestProject } from '@gatehouse/testing/test-context';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * A bounded fuzz over every operation of the spec (issue #12): valid credentials, a valid body built
 * from the schema, then one thing broken at a time: each body field given a wrong type, a NUL, an
 * unpaired surrogate, a huge string, 5,000-deep JSON, a bad UUID; required fields missing; bodies of
 * the wrong JSON type or content type; query and path parameters likewise; broken credentials.
 * Every answer must be below 500, within the spec (every request goes through the contract checker,
 * so each error is in the envelope and declared by the operation) and come within 10 seconds. Each
 * operation gets a project, user and token of its own (some operations delete them).
 */
const env = withTestContext();

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  minItems?: number;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: unknown;
};

/** A value the schema accepts, as far as a small generator can tell (patterns are not followed). */
function validValue(schema: Schema | undefined, name = ''): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.oneOf ?? schema.anyOf;
  if (choice?.[0]) return validValue(choice[0], name);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => validValue(part, name)));
  const types = [schema.type ?? (schema.properties ? 'object' : [])].flat().filter((type) => type !== 'null');
  switch (types[0]) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = validValue(schema.properties?.[key], key);
      return value;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => validValue(schema.items, name));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return stringFor(schema, name);
    default:
      return types.length === 0 && schema.type === undefined ? { any: 'json' } : null;
  }
}

function stringFor(schema: Schema, name: string): string {
  if (name === 'host') return '127.0.0.1';
  switch (schema.format) {
    case 'email':
      return `fuzz-${randomUUID().slice(0, 8)}@example.com`;
    case 'uuid':
      return randomUUID();
    case 'uri':
      return 'http://localhost:3000/callback';
    case 'date-time':
      return new Date().toISOString();
  }
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

const nested = (levels: number) => '['.repeat(levels) + '"deep"' + ']'.repeat(levels);
/** Broken values, each as JSON text so that deep nesting need not be built as an object. */
const brokenValues = (schema: Schema): Array<[string, string]> => {
  const types = [schema.type ?? []].flat();
  return [
    ['wrong type', types.includes('string') ? '12345' : types.includes('object') ? '"a string"' : '{"an":"object"}'],
    ['NUL', '"a\\u0000b"'],
    ['unpaired surrogate', '"a\\ud800b"'],
    ['huge string', JSON.stringify('h'.repeat(200_000))],
    ['deep JSON', nested(5000)],
    ['bad UUID', '"not-a-uuid"'],
    ['null', 'null'],
    ['negative number', '-1'],
    ['huge number', '1e308'],
    ['empty array', '[]'],
  ];
};

type Outcome = { operation: string; mutation: string; status: number | 'hang' | 'contract'; detail: string };
const outcomes: Outcome[] = [];
let requests = 0;
const statuses = new Map<string, number>();

const routes = routeTable as readonly RouteDefinition[];
// Skipped: none. Listed here if an operation ever must be (with why).

afterAll(() => {
  const count = (test: (outcome: Outcome) => boolean) => outcomes.filter(test).length;
  const serverErrors = count((outcome) => typeof outcome.status === 'number' && outcome.status >= 500);
  const hangs = count((outcome) => outcome.status === 'hang');
  const outsideSpec = count((outcome) => outcome.status === 'contract');
  if (process.env.FUZZ_STATUSES) console.log([...statuses].sort((a, b) => b[1] - a[1]));
  console.log(
    `fuzz: ${requests} requests over ${routes.length} operations, ${serverErrors} answers of 5xx, ${hangs} hangs, ${outsideSpec} answers outside the spec`,
  );
});

type Setup = { project: TestProject; accessToken: string; refreshToken: string; userId: string };

async function setUp(): Promise<Setup> {
  const project = await env.context.createProject({
    'auth.password.allowSignIn': true,
    'auth.otp.allowSignIn': true,
    'auth.passkey.allowSignIn': true,
    'apiKeys.enabled.user': true,
    'apiKeys.enabled.team': true,
    'domains.trustedDomains': { app: { baseUrl: 'http://localhost:3000', handlerPath: '/handler' } },
  });
  const user = await env.context.services.users.create(
    project.project,
    { primary_email: `fuzz-${randomUUID()}@example.com`, password: 'correct horse battery' },
    'server',
  );
  const tokens = await env.context.services.signIn.signIn(project.project, user);
  return { project, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, userId: user.id };
}

function headersFor(route: RouteDefinition, setup: Setup): Record<string, string> {
  if (route.auth === 'none') return {};
  const type = route.accessTypes.includes('server') ? 'server' : route.accessTypes.includes('admin') ? 'admin' : 'client';
  return { ...setup.project.headers[type], 'x-stack-access-token': setup.accessToken, 'x-stack-refresh-token': setup.refreshToken };
}

function validParams(route: RouteDefinition, setup: Setup): Record<string, string> {
  const properties = (route.schema.params as Schema | undefined)?.properties ?? {};
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      if (name === 'user_id') return [name, setup.userId];
      if (name === 'project_id') return [name, setup.project.project.id];
      if (name === 'provider_id' && schema.format !== 'uuid') return [name, 'github'];
      if (name === 'level') return [name, 'project'];
      if (name === 'permission_id') return [name, 'fuzz_permission'];
      return [name, schema.format === 'uuid' ? randomUUID() : 'x'];
    }),
  );
}

const urlOf = (route: RouteDefinition, params: Record<string, string>, query = '') =>
  route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => params[name] ?? 'x') + (query ? `?${query}` : '');

describe.each(routes.map((route) => ({ route, name: `${route.method} ${route.url}` })))('fuzz $name', ({ route, name }) => {
  it('answers every broken request below 500, within the spec', async () => {
    const setup = await setUp();
    const headers = headersFor(route, setup);
    const params = validParams(route, setup);
    const bodySchema = route.schema.body as Schema | undefined;
    const validBody = bodySchema ? (validValue(bodySchema) as Record<string, unknown>) : undefined;
    const local: Outcome[] = [];

    const send = async (mutation: string, options: { url?: string; payload?: string | Buffer; headers?: Record<string, string> }) => {
      requests += 1;
      const request = env.context.request({
        method: route.method,
        url: options.url ?? urlOf(route, params),
        headers: { ...headers, ...(options.payload !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        payload: options.payload,
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'hang'>((resolve) => {
        timer = setTimeout(() => resolve('hang'), 10_000);
      });
      try {
        const response = await Promise.race([request, timeout]);
        if (response === 'hang') local.push({ operation: name, mutation, status: 'hang', detail: '' });
        else
          statuses.set(
            `${response.status} ${response.body?.code ?? ''}`,
            (statuses.get(`${response.status} ${response.body?.code ?? ''}`) ?? 0) + 1,
          );
        if (response !== 'hang' && response.status >= 500)
          local.push({ operation: name, mutation, status: response.status, detail: response.text.slice(0, 200) });
      } catch (error) {
        // The contract checker refuses a 5xx (no operation declares one): count it as what it is.
        const message = (error as Error).message;
        const status = Number(/\nstatus (\d{3}),/.exec(message)?.[1] ?? 0);
        local.push({ operation: name, mutation, status: status >= 500 ? status : 'contract', detail: message.slice(0, 400) });
      } finally {
        clearTimeout(timer);
      }
    };

    // Broken credentials.
    if (route.auth !== 'none') {
      await send('garbage access token', { headers: { 'x-stack-access-token': 'not.a.jwt' } });
      await send('unknown access type', { headers: { 'x-stack-access-type': 'root' } });
      await send('project id not a UUID', { headers: { 'x-stack-project-id': 'not-a-uuid' } });
      await send('project id NUL', { headers: { 'x-stack-project-id': `${randomUUID()}\u0000` } });
    }

    // Path parameters.
    for (const param of Object.keys(params)) {
      for (const [mutation, value] of [
        ['bad UUID', 'not-a-uuid'],
        ['NUL', 'a%00b'],
        ['unpaired surrogate (bad UTF-8)', 'a%ED%A0%80b'],
        ['bad escape', 'a%E0%A4%A'],
        ['over-long', 'p'.repeat(600)],
        ['just over maxLength', 'p'.repeat(257)],
        ['encoded slash', 'a%2Fb'],
      ] as const) {
        await send(`path ${param}: ${mutation}`, { url: urlOf(route, { ...params, [param]: value }) });
      }
    }

    // Query parameters.
    const queryProperties = Object.entries((route.schema.querystring as Schema | undefined)?.properties ?? {});
    for (const [param] of queryProperties) {
      for (const [mutation, value] of [
        ['NUL', `${param}=a%00b`],
        ['unpaired surrogate (bad UTF-8)', `${param}=a%ED%A0%80b`],
        ['bad escape', `${param}=a%E0%A4%A`],
        ['huge', `${param}=${'q'.repeat(10_000)}`],
        ['bad UUID', `${param}=not-a-uuid`],
        ['wrong type', `${param}=-1.5e400`],
        ['repeated', `${param}=1&${param}=2`],
      ] as const) {
        await send(`query ${param}: ${mutation}`, { url: urlOf(route, params, value) });
      }
    }

    if (bodySchema && validBody !== undefined) {
      const base = JSON.stringify(validBody);
      await send('valid body', { payload: base });
      await send('empty object', { payload: '{}' });
      for (const [mutation, payload] of [
        ['array body', '[1,2]'],
        ['null body', 'null'],
        ['string body', '"text"'],
        ['deep body', nested(5000)],
        ['truncated JSON', base.slice(0, -1)],
        ['raw control character', '{"a":"\u0000"}'],
        ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
      ] as const) {
        await send(mutation, { payload });
      }
      for (const [mutation, contentType, payload] of [
        ['text/plain', 'text/plain', base],
        ['xml', 'application/xml', '<a/>'],
        ['multipart', 'multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
        ['form with NUL', 'application/x-www-form-urlencoded', 'a=%00&email=b%00'],
        ['json as UTF-16', 'application/json; charset=utf-16', base],
        ['octet-stream', 'application/octet-stream', base],
      ] as const) {
        await send(`content type ${mutation}`, { payload, headers: { 'content-type': contentType } });
      }
      for (const [field, schema] of Object.entries(bodySchema.properties ?? {})) {
        for (const [mutation, value] of brokenValues(schema)) {
          const payload = `${base.slice(0, -1)}${base === '{}' ? '' : ','}${JSON.stringify(field)}:${value}}`;
          await send(`body ${field}: ${mutation}`, { payload });
        }
        if ((bodySchema.required ?? []).includes(field)) {
          const { [field]: _dropped, ...rest } = validBody;
          await send(`body ${field}: missing`, { payload: JSON.stringify(rest) });
        }
      }
    }
    outcomes.push(...local);
    expect(local, JSON.stringify(local, null, 1).slice(0, 4000)).toEqual([]);
  }, 120_000);
});
