/**
 * A uuid as Postgres' `uuid` type reads it: 8-4-4-4-12 hex digits, either case. (The `uuid` package's
 * `validate` also checks the version and variant nibbles; ids here are any value Postgres accepts.)
 */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => uuidPattern.test(value);
