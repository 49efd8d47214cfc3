import { handleOf } from './db/handle.ts';
import type { DatabaseHandle } from './db/create-database.ts';
import type { Migrations } from './db/migrate.ts';
import { baselineMigrations } from './db/migrations/index.ts';
import { migrationsOf, type SettingsOverrides, wireModules } from './kernel/wire-modules.ts';
import { modules } from './modules/index.ts';
import type { EncryptionKeys } from './lib/at-rest-cipher.ts';

export type ServiceOptions = {
  publicUrl: string;
  serverSecret: Buffer;
  /** ENCRYPTION_KEY (and ENCRYPTION_KEYS_PREVIOUS) from the environment; none: a key derived from serverSecret. */
  encryptionKeys?: EncryptionKeys;
  /** Where modules read their settings (`process.env` at start); a test passes none and gets the defaults. */
  environment?: NodeJS.ProcessEnv;
  /** Settings given instead of the environment's, by module name (a test's email log, OAuth endpoints). */
  settings?: SettingsOverrides<typeof modules>;
};

/** The baseline migrations and every module's, by name (`migrateToLatest` orders them). */
export const migrations: Migrations = migrationsOf(modules, baselineMigrations);

/** Every module's services (wired once per app), its handlers and its background jobs. */
export function createServer(db: DatabaseHandle['db'], options: ServiceOptions) {
  const server = wireModules(modules, { db: handleOf(db), ...options });
  // `/ready` answers 200 only once every one of these has been applied.
  server.services.health.expectMigrations(Object.keys(migrations));
  return server;
}

export type Server = ReturnType<typeof createServer>;
/** The services of every module by name (`app.services`), as handlers' tests and the seeding reach them. */
export type Services = Server['services'];
