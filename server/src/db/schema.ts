import type { Generated } from 'kysely';

/**
 * The database: one interface every table joins by declaration merging (`declare module` in the
 * `*.table.ts` file of the folder that owns it), so this file names no feature.
 */
export interface Database {
  server_secret: ServerSecretTable;
}

/** The instance secret, when SERVER_SECRET is not set (see server-secret.ts). */
export interface ServerSecretTable {
  id: Generated<number>;
  secret: Buffer;
  created_at: Generated<Date>;
}
