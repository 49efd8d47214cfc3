import { describe, expect, it } from 'vitest';
import { emitRouteTable } from './emit-route-table.ts';
import { tinySpec } from './testing/tiny-spec.ts';

/** The JSON value a generated module assigns to `name` (compactJson writes plain JSON). */
function constOf(content: string, name: string): unknown {
  const match = new RegExp(`export const ${name} = ([\\s\\S]*?) as const satisfies`).exec(content);
  if (!match?.[1]) throw new Error(`no const ${name}`);
  return JSON.parse(match[1]);
}

describe('emitRouteTable', () => {
  const [file] = emitRouteTable(tinySpec());
  const routes = constOf(file?.content ?? '', 'routeTable') as Array<Record<string, unknown>>;

  it('writes one module with the operation ids, the shared schemas and one route per operation', () => {
    expect(file?.path).toBe('server/src/generated/route-table.ts');
    expect(file?.content).toMatch(/^\/\* eslint-disable \*\//);
    expect(file?.content).toContain('export type OperationId = "getUser" | "signInWithPassword";');
    expect(routes.map((route) => route.operationId)).toEqual(['getUser', 'signInWithPassword']);
  });

  it('mounts routes under the server path with Fastify parameters and states access, limits and statuses', () => {
    const [getUser, signIn] = routes;
    expect(getUser).toMatchObject({
      method: 'GET',
      url: '/api/v1/users/:user_id',
      specPath: '/users/{user_id}',
      auth: 'required',
      accessTypes: ['server', 'admin'],
      user: 'optional',
      rateLimit: null,
      successStatus: 200,
      successContentType: 'application/json',
      bodyRequired: false,
    });
    expect(signIn).toMatchObject({
      method: 'POST',
      auth: 'optional',
      accessTypes: [],
      rateLimit: 'sign-in',
      successContentType: 'text/plain',
    });
    expect(signIn?.bodyRequired).toBe(true);
  });

  it('builds closed params and query schemas from path-level and referenced parameters', () => {
    const schema = routes[0]?.schema as Record<string, unknown> | undefined;
    expect(schema?.params).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['user_id'],
      properties: { user_id: { type: 'string', format: 'uuid' } },
    });
    expect(schema?.querystring).toEqual({
      type: 'object',
      additionalProperties: false,
      required: [],
      properties: { expand: { type: 'string', enum: ['teams'] } },
    });
  });

  it('inlines the request body without documentation keywords and refers to shared response schemas', () => {
    const signIn = routes[1]?.schema as Record<string, unknown> | undefined;
    expect(signIn?.body).toEqual({
      type: 'object',
      required: ['email', 'password'],
      properties: { email: { type: 'string' }, password: { type: 'string' } },
    });
    expect(signIn?.response).toBeUndefined();
    expect((routes[0]?.schema as Record<string, unknown> | undefined)?.response).toEqual({ '200': { $ref: 'User#' } });
    const shared = constOf(file?.content ?? '', 'sharedSchemas') as Array<Record<string, unknown>>;
    expect(shared).toEqual([expect.objectContaining({ $id: 'User', type: 'object', required: ['id'] })]);
  });

  it('lists the error codes each status declares, through unions, without abstract families', () => {
    expect(routes[0]?.errorCodes).toEqual({ '404': ['USER_NOT_FOUND'] });
    expect(routes[1]?.errorCodes).toEqual({ '400': ['EMAIL_PASSWORD_MISMATCH', 'SCHEMA_ERROR'] });
  });

  it('refuses an operation without a success response', () => {
    const spec = tinySpec();
    const operation = spec.paths['/users/{user_id}']?.get;
    if (operation) delete operation.responses['200'];
    expect(() => emitRouteTable(spec)).toThrow('getUser declares no 2xx or 3xx response');
  });
});
