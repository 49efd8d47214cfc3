import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OperationName, OperationResult } from '@gatehouse/protocol';
import type { FastifyInstance, InjectOptions } from 'fastify';
import openapi from '@gatehouse/server/src/generated/openapi.json' with { type: 'json' };
import { routeTable } from '@gatehouse/server/src/generated/route-table.ts';
import { routePattern } from '@gatehouse/server/src/plugins/route-pattern.ts';

type ResponseSpec = { content?: Record<string, { schema?: unknown }>; $ref?: string };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(openapi, 'openapi');

const operations = routeTable.map((route) => ({
  route,
  pattern: routePattern(route.url),
}));

/**
 * A checked answer. `Body` is the success body of the operation a request names (`operation`), from the
 * generated operation types: reading a field the spec does not declare fails typecheck. Requests that name
 * no operation keep an untyped body (`any`), as every test did before.
 */
// biome-ignore lint/suspicious/noExplicitAny: the untyped default of requests that name no operation
export type ContractResponse<Body = any> = {
  operationId: string | undefined;
  /** The real status (after undoing the status override). */
  status: number;
  httpStatus: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  /** Parsed JSON for JSON responses, else the text; already checked against the spec. An error answer's body is the error (read it with expectError). */
  body: Body;
};

/** A request for `contractRequest`; `operation` names the operation it must reach and types the answer's body. */
export type ContractRequest<Id extends OperationName | undefined = undefined> = InjectOptions & { url: string; operation?: Id };
/** What a catalogued error answer adds to the body (absent on a success). */
// biome-ignore lint/suspicious/noExplicitAny: each code's details differ; expectError checks them by value
type ErrorFields = { code?: string; error?: string; details?: Record<string, any> };
type SuccessOrError<Body> = [Body] extends [object] ? Body & ErrorFields : Body | (ErrorFields & { code: string });
/**
 * The body type of a request's answer: its operation's success body (with the fields an error answer has
 * instead), or `any` when it names none.
 */
// biome-ignore lint/suspicious/noExplicitAny: the untyped default of requests that name no operation
export type ContractBody<Id extends OperationName | undefined> = Id extends OperationName ? SuccessOrError<OperationResult<Id>> : any;

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

function validatorFor(pointer: string) {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

function resolveResponse(response: ResponseSpec): ResponseSpec {
  if (!response.$ref) return response;
  const name = response.$ref.split('/').pop() as string;
  return (openapi.components.responses as Record<string, ResponseSpec>)[name] as ResponseSpec;
}

/**
 * Sends a request through `app.inject` and checks the answer against the spec: the status is one the
 * operation declares, the body matches the declared schema, and the known-error header equals
 * `body.code`. Every checked (operation, status, code) is recorded for the coverage report of `pnpm test`.
 */
export async function contractRequest<Id extends OperationName | undefined = undefined>(
  app: FastifyInstance,
  request: ContractRequest<Id>,
): Promise<ContractResponse<ContractBody<Id>>> {
  const { operation, ...options } = request;
  const response = await app.inject(options);
  const method = (options.method ?? 'GET').toUpperCase();
  const path = options.url.split('?')[0] as string;
  const match = operations.find((operation) => operation.route.method === method && operation.pattern.test(path));
  const headers = response.headers;
  const actualHeader = headers['x-stack-actual-status'];
  const status = actualHeader === undefined ? response.statusCode : Number(actualHeader);
  const contentType = String(headers['content-type'] ?? '');
  const isJson = contentType.startsWith('application/json');
  const body = isJson ? JSON.parse(response.body) : response.body;
  const fail = (problem: string): never => {
    throw new Error(`contract violation on ${method} ${options.url}: ${problem}\nstatus ${status}, body: ${response.body.slice(0, 500)}`);
  };

  if (!headers['x-stack-request-id']) fail('no x-stack-request-id header');
  if (actualHeader !== undefined) {
    if (response.statusCode !== 200 || status < 400 || status >= 500) fail('status override must turn only 4xx into 200');
    if (headers['x-hexclave-actual-status'] !== actualHeader) fail('x-hexclave-actual-status differs from x-stack-actual-status');
  }
  const knownError = headers['x-stack-known-error'];
  if (knownError !== headers['x-hexclave-known-error']) fail('the two known-error headers differ');
  if (knownError !== undefined && (!isJson || body?.code !== knownError)) fail(`known-error header ${knownError} does not equal body.code`);
  // RATE_LIMITED is the one catalogued error sent without the header (known-error-reply.ts says why).
  if (status >= 400 && isJson && typeof body?.code === 'string' && knownError === undefined && body.code !== 'RATE_LIMITED')
    fail('catalogued error without known-error header');
  if (body?.code === 'RATE_LIMITED' && (status !== 429 || knownError !== undefined || !headers['retry-after']))
    fail('RATE_LIMITED must be a 429 with Retry-After and without the known-error header');

  if (!match) {
    if (status !== 404 && status !== 405) fail('no operation matches and the answer is not 404/405');
    return { operationId: undefined, status, httpStatus: response.statusCode, headers, text: response.body, body };
  }
  const { route } = match;
  if (operation !== undefined && route.operationId !== operation) fail(`the request names ${operation} but reaches ${route.operationId}`);
  const specPath = route.specPath;
  const declared = (openapi.paths as unknown as Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>)[specPath]?.[
    method.toLowerCase()
  ];
  // DATABASE_BUSY and DATABASE_UNAVAILABLE may answer any operation (declared once, in components/responses; see v1.yaml's Errors).
  const anyOperation =
    status === 503 && (knownError === 'DATABASE_BUSY' || knownError === 'DATABASE_UNAVAILABLE')
      ? { $ref: `#/components/responses/${knownError}` }
      : undefined;
  const responseSpec = declared?.responses[String(status)] ?? anyOperation;
  if (!responseSpec) fail(`status ${status} is not declared by ${route.operationId}`);
  const resolved = resolveResponse(responseSpec as ResponseSpec);
  const declaredTypes = Object.keys(resolved.content ?? {});
  if (declaredTypes.length > 0 && !declaredTypes.some((type) => contentType.startsWith(type))) {
    fail(`content type ${contentType} is not one of ${declaredTypes.join(', ')}`);
  }
  if (anyOperation && !headers['retry-after']) fail(`${knownError} without Retry-After`);
  if (isJson && resolved.content?.['application/json']?.schema) {
    const pointer = `/paths/${escapePointer(specPath)}/${method.toLowerCase()}/responses/${status}`;
    const schemaPointer = (responseSpec as ResponseSpec).$ref
      ? `/components/responses/${(responseSpec as ResponseSpec).$ref?.split('/').pop()}/content/application~1json/schema`
      : `${pointer}/content/application~1json/schema`;
    const validate = validatorFor(schemaPointer);
    if (!validate(body)) fail(`body does not match the declared schema: ${ajv.errorsText(validate.errors?.slice(0, 5))}`);
  }
  recordCoverage(route.operationId, status, typeof body?.code === 'string' && status >= 400 ? body.code : undefined);
  return { operationId: route.operationId, status, httpStatus: response.statusCode, headers, text: response.body, body };
}

function recordCoverage(operationId: string, status: number, code: string | undefined): void {
  const dir = process.env.CONTRACT_COVERAGE_DIR;
  if (!dir) return;
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify({ operationId, status, code })}\n`);
}

/** The ways `value` breaks the spec's component schema `name` (`''` when it matches). */
export function schemaErrors(name: string, value: unknown): string {
  const validate = validatorFor(`/components/schemas/${escapePointer(name)}`);
  return validate(value) ? '' : ajv.errorsText(validate.errors?.slice(0, 5));
}
