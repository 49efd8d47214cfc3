import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
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
  if (await nothingPending(db, migrations)) return;
  const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };
  // Features number their migrations in ranges of their own (emails 0020-0029, payments 0030-0039…),
  // so a release can bring a migration named before one a database already ran: run it rather than
  // refuse the database. Each touches only its own module's tables, so their relative order is free.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/** Migrations by name: the name is what the database records, so it never changes once released. */
export type Migrations = Readonly<Record<string, Migration>>;

/**
 * One query at start-up when the schema is current (every restart but the first after an upgrade):
 * the names the database recorded are exactly those given. Anything else (a missing table, a new or
 * an unknown migration) goes through Kysely's migrator, which locks, migrates or refuses.
 */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
async function nothingPending(db: Kysely<any>, migrations: Migrations): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const given = Object.keys(migrations);
    const recorded = new Set(rows.map((row) => row.name));
    return recorded.size === given.length && given.every((name) => recorded.has(name));
  } catch {
    return false;
  }
}
