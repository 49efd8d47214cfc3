import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
/**
 * Brings the schema up to date with the given migrations (the baseline and every module's, see
 * services.ts); Kysely runs the missing ones in the order of their names and refuses a database
 * that ran one no longer given. Its migration lock makes concurrent starts safe.
 */
export async function migrateToLatest(
  // biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
  db: Kysely<any>,
  migrations: Migrations,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/** Migrations by name: the name is what the database records, so it never changes once released. */
export type Migrations = Readonly<Record<string, Migration>>;
