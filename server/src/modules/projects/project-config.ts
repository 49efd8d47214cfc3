/**
 * The project config tree of the protocol (entities.md §Config) with its defaults, and how an
 * override (a JSON object whose keys may be dotted paths) is rendered onto it.
 */
export type OAuthProviderConfig = {
  type?: string;
  isShared?: boolean;
  clientId?: string;
  clientSecret?: string;
  allowSignIn?: boolean;
  allowConnectedAccounts?: boolean;
  [setting: string]: unknown;
};

export type ProjectConfig = {
  sourceOfTruth: { type: 'hosted' };
  project: { requirePublishableClientKey: boolean };
  rbac: {
    permissions: Record<string, { description?: string; scope?: 'team' | 'project'; containedPermissionIds?: Record<string, true> }>;
    defaultPermissions: { teamCreator: Record<string, true>; teamMember: Record<string, true>; signUp: Record<string, true> };
  };
  teams: { createPersonalTeamOnSignUp: boolean; allowClientTeamCreation: boolean };
  users: { allowClientUserDeletion: boolean };
  onboarding: { requireEmailVerification: boolean };
  apiKeys: { enabled: { team: boolean; user: boolean } };
  apps: { installed: Record<string, { enabled: boolean }> };
  auth: {
    allowSignUp: boolean;
    password: { allowSignIn: boolean };
    otp: { allowSignIn: boolean };
    passkey: { allowSignIn: boolean };
    oauth: { accountMergeStrategy: 'link_method' | 'raise_error' | 'allow_duplicates'; providers: Record<string, OAuthProviderConfig> };
    signUpRules: Record<string, unknown>;
    signUpRulesDefaultAction: 'allow' | 'reject';
    /** Anonymous sign-up (`/auth/anonymous/sign-up`); the Stack SDKs expect it on. */
    allowAnonymousSignUp: boolean;
    /** Opt-in refresh-token rotation with reuse detection (the Stack SDKs ignore a returned token). */
    sessions: { rotateRefreshTokens: boolean };
  };
  domains: { allowLocalhost: boolean; trustedDomains: Record<string, { baseUrl: string; handlerPath: string }> };
  emails: {
    selectedThemeId: string;
    themes: Record<string, { displayName: string; tsxSource: string }>;
    templates: Record<string, { displayName: string; tsxSource: string; themeId?: string | false }>;
    server: {
      isShared: boolean;
      provider?: 'resend' | 'smtp' | 'managed';
      host?: string;
      port?: number;
      username?: string;
      password?: string;
      senderName?: string;
      senderEmail?: string;
    };
  };
  payments: {
    blockNewPurchases: boolean;
    testMode: boolean;
    productLines: Record<string, unknown>;
    products: Record<string, unknown>;
    items: Record<string, unknown>;
  };
  dataVault: { stores: Record<string, { displayName: string }> };
};

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
    otp: { allowSignIn: false },
    passkey: { allowSignIn: false },
    oauth: { accountMergeStrategy: 'link_method', providers: {} },
    signUpRules: {},
    signUpRulesDefaultAction: 'allow',
    allowAnonymousSignUp: true,
    sessions: { rotateRefreshTokens: false },
  },
  domains: { allowLocalhost: false, trustedDomains: {} },
  emails: { selectedThemeId: defaultEmailThemeId, themes: {}, templates: {}, server: { isShared: true } },
  payments: { blockNewPurchases: false, testMode: true, productLines: {}, products: {}, items: {} },
  dataVault: { stores: {} },
};

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Defaults with the override applied. A dotted key (`a.b.c`) sets the value at that path; a plain
 * key's object value merges into the defaults, so a partial section changes only what it names.
 */
export function renderConfig(override: JsonObject): ProjectConfig {
  const rendered = structuredClone(defaultProjectConfig) as unknown as JsonObject;
  for (const [key, value] of Object.entries(override)) setPath(rendered, key.split('.'), value, key.includes('.'));
  return rendered as unknown as ProjectConfig;
}

function setPath(target: JsonObject, path: string[], value: unknown, replace = false): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length > 0) {
    if (!isObject(target[head])) target[head] = {};
    setPath(target[head] as JsonObject, rest, value, replace);
  } else if (!replace && isObject(value) && isObject(target[head])) {
    for (const [key, nested] of Object.entries(value)) setPath(target[head] as JsonObject, key.split('.'), nested);
  } else {
    target[head] = structuredClone(value);
  }
}
