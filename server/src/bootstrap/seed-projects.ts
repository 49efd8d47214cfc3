import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerEnv } from '../config/env.ts';
import type { Services } from '../services.ts';
import type { ProjectId } from '../tenancy/project-id.ts';
import type { ProjectKeyKind } from '../modules/platform/project-keys/key-format.ts';
import { demoPaymentsCatalogue } from './demo-catalogue.ts';

export type SeededProject = {
  id: string;
  displayName: string;
  keys: Record<ProjectKeyKind, string>;
  file: string;
  anonymousSignUp: boolean;
  /** Whether a team of dashboard owners owns it (the demo project: the first owner in development mode). */
  owned: boolean;
};

/** Development-friendly settings: password and magic-link sign-in, localhost callbacks allowed. */
const developmentConfig = {
  'auth.password.allowSignIn': true,
  'auth.otp.allowSignIn': true,
  'domains.allowLocalhost': true,
  'teams.allowClientTeamCreation': true,
  'users.allowClientUserDeletion': true,
};

/**
 * The demo project also lets the example app's visitors start anonymously (new projects start with it
 * off) and has a small payments catalogue in test mode, so the example app's /shop works at once.
 */
const demoConfig = { ...developmentConfig, 'auth.allowAnonymousSignUp': true, payments: demoPaymentsCatalogue };

const farFuture = () => new Date(Date.now() + 100 * 365 * 24 * 60 * 60 * 1000);

/**
 * Creates, once, the `internal` project and a demo project, each with a key set. Keys are stored
 * hashed, so their full values live only in `<dataDir>/<name>-project.json` (or come from SEED_* env).
 */
export async function seedProjects(services: Services, env: ServerEnv): Promise<{ internal: SeededProject; demo: SeededProject }> {
  await mkdir(env.dataDir, { recursive: true });
  const internal = await ensureProject(services, join(env.dataDir, 'internal-project.json'), {
    id: 'internal',
    displayName: 'Gatehouse dashboard',
    configOverride: developmentConfig,
    seedKeys: {},
  });
  const demo = await ensureProject(services, join(env.dataDir, 'demo-project.json'), {
    id: env.seed.projectId,
    displayName: 'Demo project',
    configOverride: demoConfig,
    seedKeys: {
      publishable_client_key: env.seed.publishableClientKey,
      secret_server_key: env.seed.secretServerKey,
      super_secret_admin_key: env.seed.superSecretAdminKey,
    },
  });
  return { internal, demo };
}

async function ensureProject(
  services: Services,
  file: string,
  wanted: {
    id?: string;
    displayName: string;
    configOverride: Record<string, unknown>;
    seedKeys: Partial<Record<ProjectKeyKind, string | undefined>>;
  },
): Promise<SeededProject> {
  const saved = await readSaved(file);
  const requestedId = (wanted.id ?? saved?.id ?? randomUUID()).toLowerCase();
  const project =
    (await services.projects.find(requestedId)) ??
    (await services.projects.create({ id: requestedId, displayName: wanted.displayName, configOverride: wanted.configOverride }));
  const id = project.id;
  const candidate: Partial<Record<ProjectKeyKind, string>> = {
    publishable_client_key: wanted.seedKeys.publishable_client_key ?? saved?.keys.publishable_client_key,
    secret_server_key: wanted.seedKeys.secret_server_key ?? saved?.keys.secret_server_key,
    super_secret_admin_key: wanted.seedKeys.super_secret_admin_key ?? saved?.keys.super_secret_admin_key,
  };
  const keys = (await allKeysValid(services, id, candidate))
    ? (candidate as Record<ProjectKeyKind, string>)
    : await createKeys(services, id, candidate);
  const seeded = {
    id,
    displayName: wanted.displayName,
    keys,
    file,
    anonymousSignUp: project.config.auth.allowAnonymousSignUp,
    owned: project.owner_team_id !== null,
  };
  await writeFile(file, `${JSON.stringify({ id, keys }, null, 2)}\n`, { mode: 0o600 });
  return seeded;
}

async function allKeysValid(services: Services, projectId: ProjectId, keys: Partial<Record<ProjectKeyKind, string>>): Promise<boolean> {
  const entries = Object.entries(keys) as Array<[ProjectKeyKind, string | undefined]>;
  for (const [kind, key] of entries) {
    if (!key || !(await services.apiKeys.isValidKey(projectId, kind, key))) return false;
  }
  return true;
}

/** A new key set; given keys (SEED_* env) are used as they are unless another project holds them. */
async function createKeys(services: Services, projectId: ProjectId, given: Partial<Record<ProjectKeyKind, string>>) {
  const keys: Partial<Record<ProjectKeyKind, true | string>> = {};
  for (const kind of ['publishable_client_key', 'secret_server_key', 'super_secret_admin_key'] as const) {
    const value = given[kind];
    keys[kind] = value && !(await services.apiKeys.findKeySetInAnyProject(kind, value)) ? value : true;
  }
  const created = await services.apiKeys.createKeySet({ projectId, description: 'Created at first start', expiresAt: farFuture(), keys });
  return created.keys as Record<ProjectKeyKind, string>;
}

async function readSaved(file: string): Promise<{ id: string; keys: Partial<Record<ProjectKeyKind, string>> } | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}
