/** Where and why a CEL expression (`@marcbachmann/cel-js`) is refused: shared by sign-up rule conditions and claims templates. */
import { ParseError } from '@marcbachmann/cel-js';

/** A place in an expression: the character offset, and the 1-based line and column a person would look for. */
export type SourcePosition = { offset: number; line: number; column: number };

export function positionOf(source: string, offset: number): SourcePosition {
  const before = source.slice(0, Math.max(0, Math.min(offset, source.length)));
  const lines = before.split('\n');
  return { offset: before.length, line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** What the library says of an expression it could not parse, and where. */
export function parseFailure(source: string, error: unknown): { summary: string; position: SourcePosition } {
  const range = (error as ParseError).range as { start?: number } | undefined;
  const summary = error instanceof ParseError ? ((error as ParseError & { summary?: string }).summary ?? 'Syntax error') : String(error);
  return { summary, position: positionOf(source, range?.start ?? 0) };
}

/** What the library says of an expression that does not type-check (its summary or first line, else `fallback`), and where. */
export function checkFailure(source: string, error: unknown, fallback: string): { message: string; position: SourcePosition } {
  const failure = error as (Error & { range?: { start?: number }; summary?: string }) | undefined;
  return {
    message: failure?.summary ?? failure?.message.split('\n')[0] ?? fallback,
    position: positionOf(source, failure?.range?.start ?? 0),
  };
}
