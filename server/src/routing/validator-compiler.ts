import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Two Ajv instances: bodies are validated as sent (no type coercion, unknown fields rejected by the
 * spec's `additionalProperties: false`); query strings and path params arrive as strings, so
 * numbers and integers are coerced there.
 */
function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, removeAdditional: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = createAjv(false);
const parameterAjv = createAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : parameterAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
