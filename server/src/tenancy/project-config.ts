/**
 * The project config tree of the protocol (docs/protocol/entities.md §Config) with its defaults, and how an
 * override (a JSON object whose keys may be dotted paths) is rendered onto it.
 */
import type { Schema } from '@gatehouse/protocol/operation-types';
import { type JsonObject, isJsonObject } from './config-input.ts';

/** The rendered config: the spec's `ProjectConfig` schema (what `GET /internal/config` answers). */
export type ProjectConfig = Schema<'ProjectConfig'>;
/** One OAuth provider of the config (`auth.oauth.providers.<id>`). */
export type OAuthProviderConfig = Schema<'ConfigOAuthProvider'>;

/** Default theme id of the built-in email theme (themes arrive with the email issue). */
export const defaultEmailThemeId = '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac';

export const defaultProjectConfig: ProjectConfig = {
  sourceOfTruth: { type: 'hosted' },
  project: { requirePublishableClientKey: false },
  rbac: { permissions: {}, defaultPermissions: { teamCreator: { team_admin: true }, teamMember: { team_member: true }, signUp: {} } },
  teams: { createPersonalTeamOnSignUp: false, allowClientTeamCreation: false },
  users: { allowClientUserDeletion: false },
  onboarding: { requireEmailVerification: false },
  apiKeys: { enabled: { team: false, user: false } },
  apps: { installed: {} },
  auth: {
    allowSignUp: true,
    password: { allowSignIn: false },
    passwordPolicy: { minLength: 8, maxLength: 70, checkBreached: false },
    botChallenge: { mode: 'off', provider: 'turnstile', siteKey: '', secretKey: '', onProviderOutage: 'allow', minScore: 0.5 },
    otp: { allowSignIn: false },
    passkey: { allowSignIn: false },
    oauth: { accountMergeStrategy: 'link_method', providers: {} },
    signUpRules: {},
    signUpRulesDefaultAction: 'allow',
    allowAnonymousSignUp: false,
    sessions: { rotateRefreshTokens: false },
  },
  domains: { allowLocalhost: false, trustedDomains: {} },
  emails: { selectedThemeId: defaultEmailThemeId, themes: {}, templates: {}, server: { isShared: true } },
  payments: { blockNewPurchases: false, testMode: true, productLines: {}, products: {}, items: {} },
  dataVault: { stores: {} },
};

/** Path segments that would reach an object's prototype; never a config key. */
export const unsafeKeySegments: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Defaults with the override applied. A dotted key (`a.b.c`) sets the value at that path; a plain
 * key's object value merges into the defaults, so a partial section changes only what it names.
 * A key applies before the keys nested under it (`auth.oauth.providers` before
 * `auth.oauth.providers.github.allowSignIn`), whatever order the store keeps them in (jsonb sorts keys).
 */
export function renderConfig(override: JsonObject): ProjectConfig {
  const rendered = structuredClone(defaultProjectConfig) as unknown as JsonObject;
  const entries = Object.entries(override).map(([key, value]) => ({ key, value, path: key.split('.') }));
  entries.sort((a, b) => a.path.length - b.path.length);
  for (const { key, value, path } of entries) setPath(rendered, path, value, key.includes('.'));
  return rendered as unknown as ProjectConfig;
}

/**
 * The override with `entries` merged in so that each entry wins over what the override already says
 * about the same part of the tree: older keys nested under an entry are dropped when the entry
 * replaces that part (a dotted key, or a value that is not an object), or when the merged object
 * sets them; an older dotted key above a merged value takes the merged value in.
 */
export function mergeOverride(existing: JsonObject, entries: JsonObject): JsonObject {
  const merged: JsonObject = { ...existing };
  for (const [key, value] of Object.entries(entries)) {
    const replaces = key.includes('.') || !isJsonObject(value);
    for (const olderKey of Object.keys(merged)) {
      if (!olderKey.startsWith(`${key}.`)) continue;
      const rest = olderKey.slice(key.length + 1).split('.');
      const covered = replaces ? 'all' : coverage(value as JsonObject, rest);
      if (covered === 'all') delete merged[olderKey];
      else if (covered !== 'none') {
        const holder: JsonObject = { value: merged[olderKey] };
        setPath(holder, ['value'], covered.value);
        merged[olderKey] = holder.value;
      }
    }
    delete merged[key];
    merged[key] = value;
  }
  return merged;
}

/** How much of the tree at `path` a merged object sets: all of it, part of it (this value), or none. */
function coverage(value: JsonObject, path: string[]): 'all' | 'none' | { value: JsonObject } {
  let node: unknown = value;
  for (const segment of path) {
    if (!isJsonObject(node)) return 'all';
    if (!Object.hasOwn(node, segment)) return 'none';
    node = node[segment];
  }
  return isJsonObject(node) ? { value: node } : 'all';
}

function setPath(target: JsonObject, path: string[], value: unknown, replace = false): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (unsafeKeySegments.has(head)) return;
  if (rest.length > 0) {
    if (!isJsonObject(target[head])) target[head] = {};
    setPath(target[head] as JsonObject, rest, value, replace);
  } else if (!replace && isJsonObject(value) && isJsonObject(target[head])) {
    for (const [key, nested] of Object.entries(value)) setPath(target[head] as JsonObject, key.split('.'), nested);
  } else {
    target[head] = structuredClone(value);
  }
}

/**
 * The override without anything at `path`: dotted keys at or under it are dropped, and an object
 * value of a key above it loses the nested entry.
 */
export function withoutConfigPath(override: JsonObject, path: string[]): JsonObject {
  const dotted = path.join('.');
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(override)) {
    if (key === dotted || key.startsWith(`${dotted}.`)) continue;
    if (dotted.startsWith(`${key}.`) && value && typeof value === 'object') {
      result[key] = withoutNested(value as JsonObject, path.slice(key.split('.').length));
    } else result[key] = value;
  }
  return result;
}

function withoutNested(value: JsonObject, path: string[]): JsonObject {
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(value, head)) return value;
  const copy = { ...value };
  if (rest.length === 0) delete copy[head];
  else if (copy[head] && typeof copy[head] === 'object') copy[head] = withoutNested(copy[head] as JsonObject, rest);
  return copy;
}
