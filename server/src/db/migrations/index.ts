import type { Migration } from 'kysely';
import * as tenancy from './0001-tenancy.ts';

/** Every migration, in order. Names are stable: they are recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001-tenancy': tenancy,
};
