import type { DbHandle } from '../db/handle.ts';
import type { Migrations } from '../db/migrate.ts';
import type { OperationHandlers } from '../routing/operation-handlers.ts';
import type { BackgroundJob } from './background-job.ts';
import { AtRestCipher, type EncryptionKeys } from '../lib/at-rest-cipher.ts';
import type { Module, ModuleContext, ServicesOf } from './module.ts';

type SettingsOf<M> = M extends Module<string, object, infer Settings> ? Settings : never;

/** Settings a caller (a test, a benchmark) gives instead of the environment's, by module name. */
export type SettingsOverrides<Modules extends readonly Module[]> = {
  [M in Modules[number] as M['name']]?: Partial<SettingsOf<M>>;
};

export type WiringOptions<Modules extends readonly Module[]> = {
  db: DbHandle;
  publicUrl: string;
  serverSecret: Buffer;
  /** ENCRYPTION_KEY and its predecessors; without them secrets at rest are sealed under a key derived from serverSecret. */
  encryptionKeys?: EncryptionKeys;
  /** Where modules read their settings from (`process.env` at start; a test passes none). */
  environment?: NodeJS.ProcessEnv;
  settings?: SettingsOverrides<Modules>;
};

export type WiredModules<Modules extends readonly Module[]> = {
  services: ServicesOf<Modules>;
  handlers: Partial<OperationHandlers>;
  jobs: BackgroundJob[];
};

/**
 * The modules in an order where each comes after those it requires: the list's order where that
 * allows, so the wiring is the same at every start. A module required but not listed, two with one
 * name, or a cycle of requirements stop the start.
 */
export function orderModules(modules: readonly Module[]): Module[] {
  const listed = new Map<string, Module>();
  for (const module of modules) {
    if (listed.has(module.name)) throw new Error(`module ${module.name} is listed twice`);
    listed.set(module.name, module);
  }
  const ordered: Module[] = [];
  const placed = new Set<string>();
  const visiting: string[] = [];
  const place = (module: Module) => {
    if (placed.has(module.name)) return;
    if (visiting.includes(module.name)) throw new Error(`modules require each other: ${[...visiting, module.name].join(' -> ')}`);
    if (listed.get(module.name) !== module) throw new Error(`module ${module.name} is required but not in the module list`);
    visiting.push(module.name);
    for (const required of module.requires) place(required);
    visiting.pop();
    placed.add(module.name);
    ordered.push(module);
  };
  for (const module of modules) place(module);
  return ordered;
}

/** Every migration of the modules, by name (a name given twice stops the start). */
export function migrationsOf(modules: readonly Module[], baseline: Migrations = {}): Migrations {
  const all: Record<string, Migrations[string]> = { ...baseline };
  for (const module of modules) {
    for (const [name, migration] of Object.entries(module.migrations)) {
      if (all[name]) throw new Error(`migration ${name} of module ${module.name} is defined twice`);
      all[name] = migration;
    }
  }
  return all;
}

/** Creates each module's services (after those it requires), then its handlers and jobs. */
export function wireModules<const Modules extends readonly Module[]>(
  modules: Modules,
  options: WiringOptions<Modules>,
): WiredModules<Modules> {
  const services: Record<string, object> = {};
  const cipher = new AtRestCipher(options.serverSecret, options.encryptionKeys);
  const provided = new Map<string, Record<string, object>>();
  const contexts = new Map<string, ModuleContext<unknown>>();
  const overrides = (options.settings ?? {}) as Record<string, object | undefined>;
  const ordered = orderModules(modules);
  for (const module of ordered) {
    const read = module.readSettings(options.environment ?? {});
    const override = overrides[module.name];
    const settings = override ? { ...(read as object), ...override } : read;
    const context: ModuleContext<unknown> = {
      db: options.db,
      publicUrl: options.publicUrl,
      serverSecret: options.serverSecret,
      cipher,
      settings,
    };
    const needs = Object.assign({}, ...module.requires.map((required) => provided.get(required.name)));
    const own = module.createServices(needs as never, context) as Record<string, object>;
    for (const name of Object.keys(own)) {
      if (services[name]) throw new Error(`service ${name} of module ${module.name} is provided twice`);
    }
    Object.assign(services, own);
    provided.set(module.name, own);
    contexts.set(module.name, context);
  }
  const handlers: Record<string, unknown> = {};
  const jobs: BackgroundJob[] = [];
  for (const module of ordered) {
    const visible = Object.assign({}, ...module.requires.map((required) => provided.get(required.name)), provided.get(module.name));
    for (const [operationId, handler] of Object.entries(module.createHandlers(visible as never))) {
      if (handlers[operationId]) throw new Error(`operation ${operationId} is handled twice (again by module ${module.name})`);
      handlers[operationId] = handler;
    }
    jobs.push(...module.createJobs(visible as never, contexts.get(module.name) as ModuleContext<never>));
  }
  return { services: services as ServicesOf<Modules>, handlers: handlers as Partial<OperationHandlers>, jobs };
}
