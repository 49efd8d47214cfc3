import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { describe, expect, it } from 'vitest';
import { routeTable, sharedSchemas } from '../generated/route-table.ts';
import { lazySerializerFactory } from './lazy-serializer.ts';
import type { RouteDefinition } from './route-definition.ts';
import { createAjv, validatorCompiler } from './validator-compiler.ts';

/**
 * Validators and response serializers compile on first use (start-up no longer compiles them all),
 * so a schema that cannot compile would only show on its first request: compile every one here.
 */
describe('lazily compiled schemas', () => {
  const routes = routeTable as readonly RouteDefinition[];

  it('compiles every request schema of every operation, and validates with it', () => {
    let compiled = 0;
    for (const route of routes) {
      for (const [httpPart, schema] of Object.entries({
        params: route.schema.params,
        querystring: route.schema.querystring,
        body: route.schema.body,
      })) {
        if (!schema) continue;
        const validate = validatorCompiler({ schema, method: route.method, url: route.url, httpPart }) as unknown as (
          data: unknown,
        ) => boolean;
        // A value of the wrong type everywhere: compiling happens on this first call, and it must reject it.
        expect(validate(httpPart === 'body' ? 42 : 'not an object'), `${route.operationId} ${httpPart}`).toBe(false);
        compiled++;
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });

  it('every request schema is valid against the JSON Schema meta-schema (the server skips that check at run time)', () => {
    const checking = { body: createAjv(false, { validateSchema: true }), other: createAjv(true, { validateSchema: true }) };
    let checked = 0;
    for (const route of routes) {
      for (const [httpPart, schema] of Object.entries({
        params: route.schema.params,
        querystring: route.schema.querystring,
        body: route.schema.body,
      })) {
        if (!schema) continue;
        const ajv = httpPart === 'body' ? checking.body : checking.other;
        expect(ajv.validateSchema(schema), `${route.operationId} ${httpPart}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
        // Compiling with the check on throws for a schema the meta-schema refuses.
        expect(() => ajv.compile(schema), `${route.operationId} ${httpPart}`).not.toThrow();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Not vacuous: a schema only the meta-schema refuses (a negative length) is refused here, compiled at run time.
    const negativeLength = { type: 'string', minLength: -1 };
    expect(checking.body.validateSchema(negativeLength)).toBe(false);
    expect(() => checking.body.compile(negativeLength)).toThrow(/schema is invalid/);
    expect(() => createAjv(false).compile(negativeLength)).not.toThrow();
  });

  it('compiles every response schema of every operation', () => {
    const external = Object.fromEntries(sharedSchemas.map((schema) => [(schema as { $id: string }).$id, schema]));
    // What the lazy factory runs on first use, run now: it throws when a schema does not compile.
    const compile = SerializerSelector()(external, {});
    let compiled = 0;
    for (const route of routes) {
      for (const [httpStatus, schema] of Object.entries(route.schema.response ?? {})) {
        expect(typeof compile({ schema, method: route.method, url: route.url, httpStatus }), `${route.operationId} ${httpStatus}`).toBe(
          'function',
        );
        compiled++;
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });

  it('compiles a serializer on its first response only', () => {
    const compile = lazySerializerFactory({}, {});
    const serialize = compile({
      schema: { type: 'object', properties: { a: { type: 'string' } } },
      method: 'GET',
      url: '/',
      httpStatus: '200',
    });
    expect(serialize({ a: 'x', b: 'dropped' })).toBe('{"a":"x"}');
    expect(serialize({ a: 'y' })).toBe('{"a":"y"}');
  });

  it('resolves references to the shared schemas itself (the app does not add them to Fastify)', () => {
    const serialize = lazySerializerFactory(
      {},
      {},
    )({
      schema: { type: 'object', properties: { email: { $ref: 'AdminEmailConfig#' } } },
      method: 'GET',
      url: '/',
      httpStatus: '200',
    });
    // AdminEmailConfig has additionalProperties: false, so the reference was followed.
    expect(serialize({ email: { type: 'standard', host: 'smtp.example.com', port: 25, leaked: 'x' } })).toBe(
      '{"email":{"type":"standard","host":"smtp.example.com","port":25}}',
    );
  });
});
