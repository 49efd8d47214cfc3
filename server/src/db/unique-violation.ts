/** True for Postgres' unique_violation (23505) from pg or PGlite, optionally on a given index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, constraint: violated, message } = error as { code?: string; constraint?: string; message?: string };
  if (code !== '23505') return false;
  return constraint === undefined || violated === constraint || (message?.includes(constraint) ?? false);
}
