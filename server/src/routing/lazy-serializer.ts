import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled on the first response it
 * writes instead of for every operation and status at start-up: compiling all of them took most of
 * the start-up's CPU (about 2.5 s of 11 s under load), for routes a process may never answer.
 */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => {
      serialize ??= compile(route);
      return serialize(doc);
    };
  };
};
