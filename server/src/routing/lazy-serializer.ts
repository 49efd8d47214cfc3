import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { sharedSchemas } from '../generated/route-table.ts';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * The schemas response schemas refer to as `{ "$ref": "<$id>#" }`, by `$id`. They are given to
 * fast-json-stringify here rather than registered with Fastify's `addSchema`: once an app has added
 * a schema, Fastify rebuilds its compilers for every route when the app gets ready, each time with a
 * copy of all the added schemas (about 600 copies of 107 schemas, ~20 ms of every start, issue #20).
 */
const sharedSchemasById: Record<string, unknown> = Object.fromEntries(sharedSchemas.map((schema) => [schema.$id, schema]));

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled on the first response it
 * writes instead of for every operation and status at start-up: compiling all of them took most of
 * the start-up's CPU (about 2.5 s of 11 s under load), for routes a process may never answer.
 * References to the shared schemas resolve without Fastify knowing them.
 */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()({ ...sharedSchemasById, ...(externalSchemas as Record<string, unknown> | undefined) }, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => {
      serialize ??= compile(route);
      return serialize(doc);
    };
  };
};
