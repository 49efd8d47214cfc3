/**
 * Sign-up rule conditions: CEL expressions (the Common Expression Language, through
 * `@marcbachmann/cel-js`) over the sign-up context, with Stack's variable names. Parsing is
 * bounded (length and AST limits) and `matches` runs on RE2 (re2js, linear time) instead of
 * JavaScript's backtracking RegExp, so no condition can stall the event loop.
 */
import { type ASTNode, Environment } from '@marcbachmann/cel-js';
import { checkFailure, parseFailure, positionOf } from '../../../lib/cel-diagnostics.ts';
import { RE2JS } from 're2js';
import { TtlCache } from '../../../lib/ttl-cache.ts';

/** Longest condition a rule may hold (characters); longer ones are refused at save time. */
export const maxConditionLength = 2000;

/** The sign-up as conditions see it (Stack's names; absent values are empty strings, as Stack passes them). */
export type SignUpRuleContext = {
  email: string;
  emailDomain: string;
  countryCode: string;
  authMethod: string;
  oauthProvider: string;
  riskScores: { bot: number; free_trial_abuse: number };
};

/** Why a condition cannot be used: what is wrong and where (0-based offset; 1-based line and column). */
export class CelConditionError extends Error {
  constructor(
    message: string,
    readonly position: { offset: number; line: number; column: number },
  ) {
    super(message);
  }
}

const patterns = new TtlCache<string, RE2JS>(60 * 60_000, 500);

function re2Matches(text: string, pattern: string): boolean {
  let compiled = patterns.get(pattern);
  if (!compiled) {
    compiled = RE2JS.compile(pattern);
    patterns.set(pattern, compiled);
  }
  return compiled.matcher(text).find();
}

const environment = new Environment({
  limits: { maxAstNodes: 400, maxDepth: 32, maxListElements: 200, maxMapEntries: 50, maxCallArguments: 8 },
})
  .registerVariable('email', 'string')
  .registerVariable('emailDomain', 'string')
  .registerVariable('countryCode', 'string')
  .registerVariable('authMethod', 'string')
  .registerVariable('oauthProvider', 'string')
  .registerVariable({ name: 'riskScores', schema: { bot: 'int', free_trial_abuse: 'int' } })
  .registerFunction('string.re2Matches(string): bool', re2Matches)
  .registerFunction('re2Matches(string, string): bool', re2Matches);

/** A parsed, type-checked condition, ready to evaluate. */
export type CompiledCondition = (context: Record<string, unknown>) => unknown;

/** The library's built-in `matches` uses a backtracking RegExp; the calls are pointed at the RE2 one (same signature). */
function useRe2ForMatches(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) useRe2ForMatches(child);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const ast = node as ASTNode & { args: unknown };
  if ((ast.op === 'rcall' || ast.op === 'call') && Array.isArray(ast.args) && ast.args[0] === 'matches') ast.args[0] = 're2Matches';
  useRe2ForMatches(ast.args);
}

/** Literal regular expressions are compiled now, so a bad one is refused at save time rather than skipped at sign-up. */
function assertLiteralPatterns(source: string, node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) assertLiteralPatterns(source, child);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const ast = node as ASTNode & { args: unknown };
  if ((ast.op === 'rcall' || ast.op === 'call') && Array.isArray(ast.args) && ast.args[0] === 're2Matches') {
    const argumentList = (ast.op === 'rcall' ? ast.args[2] : ast.args[1]) as Array<ASTNode & { args: unknown }> | undefined;
    const pattern = argumentList?.at(-1);
    if (pattern?.op === 'value' && typeof pattern.args === 'string') {
      try {
        RE2JS.compile(pattern.args);
      } catch (error) {
        throw new CelConditionError(`Invalid regular expression: ${(error as Error).message}`, positionOf(source, pattern.start ?? 0));
      }
    }
  }
  assertLiteralPatterns(source, ast.args);
}

const compiled = new TtlCache<string, CompiledCondition>(60 * 60_000, 1000);

/** Parses and type-checks a condition (it must be a boolean over the sign-up context); throws CelConditionError. */
export function compileCondition(source: string): CompiledCondition {
  const cached = compiled.get(source);
  if (cached) return cached;
  if (source.length > maxConditionLength) {
    throw new CelConditionError(`The condition is longer than ${maxConditionLength} characters.`, positionOf(source, maxConditionLength));
  }
  let program: ReturnType<typeof environment.parse>;
  try {
    program = environment.parse(source);
  } catch (error) {
    const { summary, position } = parseFailure(source, error);
    throw new CelConditionError(summary, position);
  }
  useRe2ForMatches(program.ast);
  const check = program.check();
  if (!check.valid) {
    const { message, position } = checkFailure(source, check.error, 'The condition does not type-check.');
    throw new CelConditionError(message, position);
  }
  if (check.type !== 'bool' && check.type !== 'dyn') {
    throw new CelConditionError(`The condition must be a boolean, not ${check.type}.`, positionOf(source, 0));
  }
  assertLiteralPatterns(source, program.ast);
  const run: CompiledCondition = (context) => program(context);
  compiled.set(source, run);
  return run;
}

/** Whether the condition holds for this sign-up; throws when it cannot be evaluated (a non-boolean, a bad dynamic regex). */
export function conditionHolds(source: string, context: SignUpRuleContext): boolean {
  const result = compileCondition(source)({
    ...context,
    // CEL integers are BigInts in this library.
    riskScores: {
      bot: BigInt(Math.round(context.riskScores.bot)),
      free_trial_abuse: BigInt(Math.round(context.riskScores.free_trial_abuse)),
    },
  });
  if (typeof result !== 'boolean') throw new Error('The condition did not evaluate to a boolean.');
  return result;
}
