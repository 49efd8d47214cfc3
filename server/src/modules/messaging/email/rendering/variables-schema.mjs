// A template's `variablesSchema`, compiled and checked on the render thread (render-worker.mjs), never
// on the server's event loop. Plain JavaScript, like the worker, so that Node loads it with no loader.
import { createHash } from 'node:crypto';
import Ajv from 'ajv';
import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

/**
 * Ajv's engine for `pattern` and `patternProperties`: RE2, whose matching is linear in the input, so
 * an owner's pattern such as `^(a|a)*$` cannot backtrack for seconds. RE2 has no lookaround or
 * backreferences: a pattern using them does not compile (the schema is refused).
 */
const re2 = Object.assign(
  (pattern) => {
    const compiled = RE2JS.compile(pattern);
    return { test: (input) => compiled.test(input) };
  },
  { code: 're2js' },
);

/** Compiled schemas by the hash of their JSON; each with an Ajv of its own (see `compile`). */
const compiled = new LRUCache({ max: 100 });

/** A schema Ajv cannot compile: its message says why. */
export class InvalidSchemaError extends Error {}

/**
 * Compiles the schema (cached) and, when `variables` are given, checks them: `null` when they
 * match, else Ajv's description of the first mismatch. Throws InvalidSchemaError for a schema that
 * is not a valid draft-07 schema, has a `$ref` it does not itself define, or is asynchronous.
 */
export function checkVariables(schema, variables) {
  const key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
  let entry = compiled.get(key);
  if (!entry) {
    entry = compile(schema);
    compiled.set(key, entry);
  }
  if (variables === undefined) return null;
  const { ajv, validate } = entry;
  return validate(variables) ? null : ajv.errorsText(validate.errors, { dataVar: 'variables' });
}

function compile(schema) {
  // An Ajv per schema, which keeps nothing it compiles (`addUsedSchema: false`): a schema's `$id`
  // names nothing outside it, so two templates (of one project or of two) never collide.
  const ajv = new Ajv({ allErrors: false, strict: false, addUsedSchema: false, logger: false, code: { regExp: re2 } });
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new InvalidSchemaError(
      `The template's variablesSchema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (validate.$async)
    throw new InvalidSchemaError("The template's variablesSchema is not a valid JSON Schema: $async schemas are not supported.");
  return { ajv, validate };
}
