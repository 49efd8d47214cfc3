import { PlainHttpError } from '../lib/plain-http-error.ts';

/** A config section as JSON (before its values are checked). */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export const isIntegerIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** Refuses a config about to be saved (the messages are listed in the spec, updateProjectConfigOverride). */
export function rejectConfig(message: string): never {
  throw new PlainHttpError(400, message);
}
