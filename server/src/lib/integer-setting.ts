/** The range an integer setting may take, and how its error says so (`<NAME> must be <expected>, got "<value>"`). */
export type IntegerRange = { min: number; max?: number; expected: string };

/**
 * Parses an integer environment variable: undefined when it is unset or empty (the reader then takes its
 * default), else its value, which must be written as plain decimal digits within `range`; anything else stops
 * the start. `config/settings.ts` wraps it with the settings' names; it lives in `lib/` so that code below
 * `config/` (which imports `lib/`) reads its settings the same way.
 */
export function parseIntegerSetting(env: NodeJS.ProcessEnv, name: string, range: IntegerRange): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= range.min && value <= (range.max ?? Number.MAX_SAFE_INTEGER)))
    throw new Error(`${name} must be ${range.expected}, got ${JSON.stringify(raw)}`);
  return value;
}
