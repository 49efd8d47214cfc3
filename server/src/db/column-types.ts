import type { ColumnType } from 'kysely';

/** A JSON column: read as parsed JSON, written as JSON text (or null). */
export type JsonColumn = ColumnType<unknown, string | null, string | null>;
