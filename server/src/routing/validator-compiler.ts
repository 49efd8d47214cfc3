import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { findUnsafeInput } from './unsafe-input.ts';

/**
 * Two Ajv instances: bodies are validated as sent (no type coercion, unknown fields rejected by the
 * spec's `additionalProperties: false`); query strings and path params arrive as strings, so
 * numbers and integers are coerced there.
 *
 * `validateSchema`: Ajv checks each schema against the JSON Schema meta-schema before compiling it,
 * which compiles the meta-schema itself first: about 35 ms of CPU in every process's first request
 * (the start-up's first 200, issue #20) and 20 ms more in its first request with a body, for schemas
 * generated from the spec, which do not change at run time. lazy-compilers.test.ts checks every one
 * of them against the meta-schema instead (`validateSchema: true`).
 */
export function createAjv(coerceTypes: boolean, { validateSchema = false }: { validateSchema?: boolean } = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, removeAdditional: false, strict: false, validateSchema });
  addFormats(ajv);
  ajv.addKeyword(maxJsonLengthKeyword);
  return ajv;
}

/**
 * `x-max-json-length: N` (the spec's free-form JSON, such as the three metadata kinds): the value
 * written as JSON is at most N characters. JSON Schema has no keyword for a whole value's size.
 */
const maxJsonLengthKeyword = {
  keyword: 'x-max-json-length',
  schemaType: 'number',
  errors: true,
  validate: function validateMaxJsonLength(limit: number, data: unknown) {
    const length = JSON.stringify(data ?? null).length;
    if (length <= limit) return true;
    (validateMaxJsonLength as { errors?: unknown[] }).errors = [
      { keyword: 'x-max-json-length', params: { limit }, message: `must be at most ${limit} characters written as JSON (it is ${length})` },
    ];
    return false;
  },
} as const;

const bodyAjv = createAjv(false);
const parameterAjv = createAjv(true);

type ValidationIssue = { keyword: string; instancePath: string; params: Record<string, unknown>; message?: string };

/** The value at a JSON pointer of the validated data. */
function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** A URL field that fails its format says why in the protocol's words: `{field} contains spaces` or `{field} is not a valid URL`. */
function wordUrlErrors(errors: ValidationIssue[], data: unknown): ValidationIssue[] {
  return errors.map((issue) => {
    if (issue.keyword !== 'format' || (issue.params.format !== 'uri' && issue.params.format !== 'url')) return issue;
    const value = valueAt(data, issue.instancePath);
    return { ...issue, message: typeof value === 'string' && /\s/.test(value) ? 'contains spaces' : 'is not a valid URL' };
  });
}

type Validate = ((data: unknown, context?: unknown) => boolean) & { errors?: unknown; schemaEnv?: unknown };

/**
 * Every request part is first checked for input no field accepts (NUL, unpaired surrogates, JSON
 * nested too deep: unsafe-input.ts), reported as a validation error like any other, then by its schema.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  // Compiled on the first request that reaches it, not for every operation at start-up.
  let compiled: Validate | undefined;
  const lazy: Validate = (data, context) => {
    compiled ??= compileValidator(route);
    const valid = compiled(data, context);
    lazy.errors = compiled.errors;
    return valid;
  };
  // Fastify passes the request as parent data to functions that have a schemaEnv (Ajv's), so coercion and defaults can replace a whole part.
  lazy.schemaEnv = true;
  return lazy as ReturnType<FastifySchemaCompiler<unknown>>;
};

function compileValidator({ schema, httpPart }: Parameters<FastifySchemaCompiler<unknown>>[0]): Validate {
  const validate = (httpPart === 'body' ? bodyAjv : parameterAjv).compile(schema as object) as Validate;
  const checked: Validate = (data, context) => {
    const unsafe = findUnsafeInput(data);
    if (unsafe) {
      checked.errors = [
        { keyword: 'unsafeInput', instancePath: unsafe.instancePath, schemaPath: '#', params: {}, message: unsafe.message },
      ];
      return false;
    }
    const valid = validate(data, context);
    checked.errors = validate.errors && wordUrlErrors(validate.errors as ValidationIssue[], data);
    return valid;
  };
  return checked;
}
