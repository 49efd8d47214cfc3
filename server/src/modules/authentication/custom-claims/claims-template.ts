/**
 * Custom claims templates (Gatehouse's own, issue #35): a JSON object whose keys are claim names and whose values are
 * CEL expressions (the Common Expression Language, through `@marcbachmann/cel-js`, as the sign-up rules use it) over
 * `user`, `team` (the selected team, or null) and `permissions` (the user's project permission ids). Checked whole at
 * save time; evaluated at each token issue, where an expression that fails leaves its claim out.
 */
import { Environment } from '@marcbachmann/cel-js';
import { checkFailure, parseFailure, type SourcePosition } from '../../../lib/cel-diagnostics.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';

/** Largest template (its JSON, UTF-8 bytes) and largest set of claims one evaluation may add. */
export const maxTemplateBytes = 4096;
export const maxClaimsBytes = 4096;
export const maxClaimsPerTemplate = 50;

/** What a template may name: letters, digits, `_`, `-`, `:` and `/` (no dots: config keys split on them). */
const claimNamePattern = /^[A-Za-z_][A-Za-z0-9_:/-]{0,99}$/;

/**
 * Claims a template may not set: JWT's registered claims, the claims every Gatehouse/Stack access token carries
 * (docs/protocol/overview.md §5), and those OpenID Connect and oidc-provider put in ID tokens and access tokens.
 */
export const reservedClaimNames: ReadonlySet<string> = new Set([
  ...['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti'],
  ...['project_id', 'branch_id', 'refresh_token_id', 'role', 'name', 'email', 'email_verified', 'selected_team_id'],
  ...['signed_up_at', 'is_anonymous', 'is_restricted', 'restricted_reason', 'requires_totp_mfa'],
  ...['azp', 'nonce', 'auth_time', 'acr', 'amr', 'at_hash', 'c_hash', 's_hash', 'sid', 'scope', 'client_id', 'cnf', 'typ'],
  ...['act', 'may_act', 'picture', 'sub_jwk', 'events', 'token_type'],
]);

export type ClaimsTemplate = Record<string, string>;

/** What the expressions see. Metadata is whatever JSON the user or team holds (`{}` when none). */
export type ClaimsContext = {
  user: Record<string, unknown>;
  team: Record<string, unknown> | null;
  permissions: string[];
};

export type TemplatePosition = SourcePosition;

/** Why a template cannot be saved: which claim (null: the template as a whole), what, and where in its expression. */
export class ClaimsTemplateError extends Error {
  constructor(
    message: string,
    readonly claim: string | null,
    readonly position: TemplatePosition | null,
  ) {
    super(message);
  }
}

const environment = new Environment({
  limits: { maxAstNodes: 200, maxDepth: 24, maxListElements: 100, maxMapEntries: 50, maxCallArguments: 8 },
})
  .registerVariable('user', 'map')
  .registerVariable('team', 'dyn')
  .registerVariable('permissions', 'list');

type Program = ReturnType<typeof environment.parse>;

/** A checked template: its claims' programs and the variables they read (`team` and `permissions` cost a query each). */
export type CompiledTemplate = {
  claims: ReadonlyArray<{ name: string; program: Program }>;
  reads: { team: boolean; permissions: boolean };
};

function variablesRead(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const child of node) variablesRead(child, found);
  else if (node && typeof node === 'object') {
    const ast = node as { op?: unknown; args?: unknown };
    if (ast.op === 'id' && typeof ast.args === 'string') found.add(ast.args);
    else variablesRead(ast.args, found);
  }
  return found;
}

function compileExpression(name: string, source: unknown): { program: Program; variables: Set<string> } {
  if (typeof source !== 'string' || source.trim() === '')
    throw new ClaimsTemplateError('The value must be a CEL expression (a non-empty string).', name, null);
  let program: Program;
  try {
    program = environment.parse(source);
  } catch (error) {
    const { summary, position } = parseFailure(source, error);
    throw new ClaimsTemplateError(summary.split('\n')[0] ?? 'Syntax error', name, position);
  }
  const check = program.check();
  if (!check.valid) {
    const { message, position } = checkFailure(source, check.error, 'The expression does not type-check.');
    throw new ClaimsTemplateError(message, name, position);
  }
  return { program, variables: variablesRead(program.ast, new Set()) };
}

const compiledTemplates = new TtlCache<string, CompiledTemplate>(60 * 60_000, 1000);

/** Checks a template as it is saved; throws ClaimsTemplateError (the first problem found). */
export function compileClaimsTemplate(template: unknown): CompiledTemplate {
  if (typeof template !== 'object' || template === null || Array.isArray(template)) {
    throw new ClaimsTemplateError('The template must be an object of claim names to CEL expressions.', null, null);
  }
  const key = JSON.stringify(template);
  const cached = compiledTemplates.get(key);
  if (cached) return cached;
  if (Buffer.byteLength(key) > maxTemplateBytes)
    throw new ClaimsTemplateError(`The template is larger than ${maxTemplateBytes} bytes.`, null, null);
  const entries = Object.entries(template as Record<string, unknown>);
  if (entries.length > maxClaimsPerTemplate)
    throw new ClaimsTemplateError(`The template may set at most ${maxClaimsPerTemplate} claims.`, null, null);
  const claims: Array<{ name: string; program: Program }> = [];
  const reads = { team: false, permissions: false };
  for (const [name, source] of entries) {
    if (!claimNamePattern.test(name)) {
      throw new ClaimsTemplateError(
        'A claim name is 1 to 100 letters, digits, "_", "-", ":" or "/", starting with a letter or "_".',
        name,
        null,
      );
    }
    if (reservedClaimNames.has(name)) throw new ClaimsTemplateError(`"${name}" is a reserved claim: Gatehouse sets it.`, name, null);
    const { program, variables } = compileExpression(name, source);
    reads.team ||= variables.has('team');
    reads.permissions ||= variables.has('permissions');
    claims.push({ name, program });
  }
  const compiled = { claims, reads };
  compiledTemplates.set(key, compiled);
  return compiled;
}

/** Whether a stored template sets any claim (the hot path's only check when none does). */
export function hasClaims(template: unknown): template is ClaimsTemplate {
  if (typeof template !== 'object' || template === null) return false;
  for (const _ in template) return true;
  return false;
}

/** A CEL value as JSON: integers (BigInt) as numbers, maps as objects; anything else (bytes, timestamps...) is refused. */
function toJson(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('not a finite number');
    return value;
  }
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]) => [String(key), toJson(item)]));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]));
  }
  throw new Error(`a ${typeof value} cannot be a claim`);
}

export type EvaluatedClaims = { claims: Record<string, unknown>; failures: Array<{ claim: string; message: string }>; oversized: boolean };

/**
 * The claims of a template for one user: a claim whose expression fails (a missing metadata key, a type mismatch) or
 * is null is left out and reported; when the claims together exceed `maxClaimsBytes` none are added.
 */
export function evaluateClaims(compiled: CompiledTemplate, context: ClaimsContext): EvaluatedClaims {
  const claims: Record<string, unknown> = {};
  const failures: Array<{ claim: string; message: string }> = [];
  for (const { name, program } of compiled.claims) {
    try {
      const value = toJson(program(context));
      if (value !== null) claims[name] = value;
    } catch (error) {
      failures.push({ claim: name, message: (error as Error).message.split('\n')[0] ?? 'evaluation failed' });
    }
  }
  if (Buffer.byteLength(JSON.stringify(claims)) > maxClaimsBytes) return { claims: {}, failures, oversized: true };
  return { claims, failures, oversized: false };
}
