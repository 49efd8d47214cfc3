import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../generated/route-table.ts';
import type { RouteDefinition } from '../routing/route-definition.ts';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * Bad input on every operation of the spec: each gets a catalogued 400, never a 500, and the
 * request reaches validation because it carries valid credentials for an allowed access type.
 */
const env = withTestContext();

type JsonSchemaNode = {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  maxLength?: number;
  additionalProperties?: unknown;
};
const routes = routeTable as readonly RouteDefinition[];
const withBody = routes.filter((route) => route.schema.body !== undefined);

function urlOf(route: RouteDefinition, params: Record<string, string> = {}): string {
  return route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => params[name] ?? exampleParams[name]?.() ?? randomUUID());
}
/** Well-formed values for path parameters that are not UUIDs, so requests get past the params. */
const exampleParams: Record<string, () => string> = {
  project_id: () => env.project.project.id,
  permission_id: () => 'some_permission',
  level: () => 'project',
  customer_type: () => 'user',
};
/** Valid credentials of an allowed access type and a signed-in user, so requests reach validation. */
function headersOf(route: RouteDefinition): Record<string, string> {
  if (route.auth === 'none') return {};
  const type = route.accessTypes.includes('server') ? 'server' : route.accessTypes.includes('admin') ? 'admin' : 'client';
  return { ...env.project.headers[type], 'x-stack-access-token': accessToken };
}
let accessToken: string;
beforeAll(async () => {
  const { project } = env.project;
  const user = await env.context.services.users.create(project, { primary_email: 'bad-input@example.com' }, 'server');
  accessToken = (await env.context.services.signIn.signIn(project, user)).access_token;
});
/**
 * SCIM operations answer in SCIM's own error shape (RFC 7644 §3.12, `application/scim+json`), which SCIM
 * clients read, instead of the catalogue's envelope; without a directory token they refuse before validation.
 */
const isScim = (route: RouteDefinition) => route.specPath.startsWith('/scim/');
function expectRefusal(
  route: RouteDefinition,
  response: { status: number; headers: Record<string, unknown>; body: unknown },
  code: string,
) {
  if (!isScim(route)) return expect((response.body as { code?: string }).code).toBe(code);
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(String(response.headers['content-type'])).toMatch(/^application\/scim\+json/);
  const body = (typeof response.body === 'string' ? JSON.parse(response.body) : response.body) as { schemas?: string[] };
  expect(body.schemas).toContain('urn:ietf:params:scim:api:messages:2.0:Error');
}
const send = (route: RouteDefinition, options: { url?: string; payload?: string; contentType?: string }) =>
  env.context.request({
    method: route.method,
    url: options.url ?? urlOf(route),
    headers: { ...headersOf(route), ...(options.contentType ? { 'content-type': options.contentType } : {}) },
    payload: options.payload,
  });

describe.each(routes.map((route) => ({ ...route, name: `${route.method} ${route.url}` })))('$name', (route) => {
  // Browser navigations (OAuth authorize and callback) ignore unknown query parameters instead.
  const closedQuery = (route.schema.querystring as JsonSchemaNode | undefined)?.additionalProperties === false;
  it.runIf(closedQuery)('rejects an unknown query field with SCHEMA_ERROR', async () => {
    const response = await send(route, { url: `${urlOf(route)}?unexpected_field=1` });
    if (!isScim(route)) expect(response.status).toBe(400);
    expectRefusal(route, response, 'SCHEMA_ERROR');
  });

  it('never answers a malformed JSON body with a 5xx', async () => {
    const response = await send(route, { payload: '{"truncated": ', contentType: 'application/json' });
    expect(response.status).toBeLessThan(500);
    if (route.method !== 'GET') expectRefusal(route, response, 'BODY_PARSING_ERROR');
  });

  const stringParams = Object.entries((route.schema.params as JsonSchemaNode | undefined)?.properties ?? {}).filter(
    ([, schema]) => schema.maxLength,
  );
  it.runIf(stringParams.length > 0)('rejects an over-long path parameter with SCHEMA_ERROR', async () => {
    for (const [name, schema] of stringParams) {
      const response = await send(route, { url: urlOf(route, { [name]: 'p'.repeat((schema.maxLength as number) + 1) }) });
      expectRefusal(route, response, 'SCHEMA_ERROR');
    }
  });
});

describe.each(withBody.map((route) => ({ ...route, name: `${route.method} ${route.url}` })))('body of $name', (route) => {
  const body = route.schema.body as JsonSchemaNode;
  const json = (value: unknown) => send(route, { payload: JSON.stringify(value), contentType: 'application/json' });

  it('rejects an unsupported content type with BODY_PARSING_ERROR', async () => {
    const response = await send(route, { payload: '<xml/>', contentType: 'application/xml' });
    if (!isScim(route)) expect(response.status).toBe(400);
    expectRefusal(route, response, 'BODY_PARSING_ERROR');
  });

  it('rejects a body of the wrong type with SCHEMA_ERROR', async () => {
    const response = await json(['not', 'an', 'object']);
    expectRefusal(route, response, 'SCHEMA_ERROR');
  });

  it.runIf(body.additionalProperties === false && !isScim(route))('rejects an unknown body field with SCHEMA_ERROR', async () => {
    const response = await json({ unexpected_field: true });
    expect(response.body.code).toBe('SCHEMA_ERROR');
    expect(response.body.details.message).toContain('unexpected_field');
  });

  const properties = Object.entries(body.properties ?? {});
  it.runIf(properties.length > 0 && !isScim(route))(
    'rejects each field given a value of the wrong type, and over-long strings',
    async () => {
      for (const [name, schema] of properties) {
        const types = [schema.type ?? []].flat();
        // A field typed "any JSON" has no wrong type.
        if (types.length === 0) continue;
        const wrong = types.includes('string') ? 12345 : 'a string where another type belongs';
        const response = await json({ [name]: wrong });
        expect(response.body.code, name).toBe('SCHEMA_ERROR');
        expect(response.body.details.message).toContain(name);
        if (schema.maxLength) {
          const long = await json({ [name]: 'l'.repeat(schema.maxLength + 1) });
          expect(long.body.code, `${name} over maxLength`).toBe('SCHEMA_ERROR');
        }
      }
    },
  );
});
