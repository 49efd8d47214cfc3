import type { DbHandle } from '../db/handle.ts';
import type { Migrations } from '../db/migrate.ts';
import type { OperationHandlers } from '../routing/operation-handlers.ts';
import type { BackgroundJob } from './background-job.ts';
import type { AtRestCipher } from '../lib/at-rest-cipher.ts';

/** What every module's services are built with, besides the services it requires. */
export interface ModuleContext<Settings> {
  /** The database; services pass it (or a transaction of it) to their repositories. */
  readonly db: DbHandle;
  /** Base URL clients reach the server at (token issuers, links, OAuth callbacks). */
  readonly publicUrl: string;
  /** The instance secret keys are derived from (signing keys, sealed provider tokens). */
  readonly serverSecret: Buffer;
  /** Seals secrets stored in the database under a key it does not hold (lib/at-rest-cipher.ts). */
  readonly cipher: AtRestCipher;
  /** The module's own settings: read from the environment by `settings`, or given by a test. */
  readonly settings: Settings;
}

/** A feature, as the wiring sees it (see `defineModule`). */
export interface Module<Name extends string = string, Provides extends object = object, Settings = unknown> {
  readonly name: Name;
  /** The modules whose services this one's services use; the wiring creates those first. */
  readonly requires: readonly Module[];
  readonly migrations: Migrations;
  readSettings(environment: NodeJS.ProcessEnv): Settings;
  createServices(needs: never, context: ModuleContext<Settings>): Provides;
  createHandlers(services: never): Partial<OperationHandlers>;
  createJobs(services: never, context: ModuleContext<Settings>): readonly BackgroundJob[];
}

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void ? I : never;
type ProvidedBy<M> = M extends Module<string, infer Provides, infer _Settings> ? Provides : never;

/** The services of the modules listed (what a module's factory receives). */
export type ServicesOf<Modules extends readonly Module[]> = [Modules[number]] extends [never]
  ? Record<never, never>
  : UnionToIntersection<ProvidedBy<Modules[number]>>;

export interface ModuleDefinition<Name extends string, Requires extends readonly Module[], Provides extends object, Settings> {
  /** Unique; also the key of the module's settings in a test's overrides. */
  name: Name;
  requires?: Requires;
  /** Reads the module's settings from the environment (validated at start: a bad value stops it). */
  settings?: (environment: NodeJS.ProcessEnv) => Settings;
  /** Builds the module's services from the services it requires (interfaces, never repositories). */
  services?: (needs: ServicesOf<Requires>, context: ModuleContext<Settings>) => Provides;
  /** The handlers of the spec's operations this module serves, given its own and its required services. */
  handlers?: (services: Provides & ServicesOf<Requires>) => Partial<OperationHandlers>;
  /** Its migrations, named `NNNN-<what>` in the one global sequence (Kysely records the names). */
  migrations?: Migrations;
  jobs?: (services: Provides & ServicesOf<Requires>, context: ModuleContext<Settings>) => readonly BackgroundJob[];
}

/**
 * One feature: its services, its handlers, its migrations, its settings and its background jobs.
 * `modules/index.ts` lists every module once; `services.ts` and `app.ts` iterate over that list.
 */
export function defineModule<
  const Name extends string,
  const Requires extends readonly Module[] = [],
  Provides extends object = Record<never, never>,
  Settings = undefined,
>(definition: ModuleDefinition<Name, Requires, Provides, Settings>): Module<Name, Provides, Settings> {
  return {
    name: definition.name,
    requires: definition.requires ?? [],
    migrations: definition.migrations ?? {},
    readSettings: (environment) => (definition.settings ? definition.settings(environment) : (undefined as Settings)),
    createServices: (needs, context) => (definition.services ? definition.services(needs, context) : ({} as Provides)),
    createHandlers: (services) => definition.handlers?.(services) ?? {},
    createJobs: (services, context) => definition.jobs?.(services, context) ?? [],
  };
}
