import { type AdminAiChat, adminAiChat } from './admin-ai-chat.ts';
import { type AdminEmails, adminEmails } from './admin-emails.ts';
import { type AdminPayments, adminPayments } from './admin-payments.ts';
import type { OperationBody, OperationParams, OperationResult, Schema } from '@gatehouse/protocol/operation-types';
import { type AdminSignUpRules, adminSignUpRules } from './admin-sign-up-rules.ts';
import { type AdminWebhooks, adminWebhooks } from './admin-webhooks.ts';
import { type AppCall, definedOnly, queryBoolean } from './app-call.ts';
import type {
  AdminProject,
  InternalApiKey,
  InternalApiKeyCreated,
  PermissionDefinition,
  PermissionDefinitionCreate,
  PermissionDefinitionUpdate,
  ProjectMetrics,
  ProjectUpdate,
} from './app-types.ts';
import { type AdminAccessTokenSource, createBackendCall } from './backend-call.ts';
import { type ServerCapabilities, serverCapabilities } from './server-app.ts';
import type { ServerPayments } from './server-payments.ts';
import * as op from '@gatehouse/protocol/operations';

type AdminAppBase = { baseUrl: string; projectId: string; fetch?: typeof fetch };
/** With the project's super secret admin key, or with the access token of a dashboard user who owns the project. */
export type AdminAppOptions = AdminAppBase &
  ({ superSecretAdminKey: string; adminAccessToken?: never } | { adminAccessToken: AdminAccessTokenSource; superSecretAdminKey?: never });

/** The rendered project config (docs/protocol/entities.md Config): the spec's `ProjectConfig` (`auth`, `teams`, `rbac`, `domains`, `emails`...). */
export type ProjectConfig = Schema<'ProjectConfig'>;
/** A config override: keys are sections or dotted paths (`'auth.password.allowSignIn'`), values replace what they name. */
export type ProjectConfigOverride = Record<string, unknown>;
export type ConfigOverrideLevel = OperationParams<'updateProjectConfigOverride'>['level'];

type DefinitionMethods = {
  list(): Promise<PermissionDefinition[]>;
  /** PermissionIdAlreadyExistsError, ContainedPermissionNotFoundError. */
  create(definition: PermissionDefinitionCreate): Promise<PermissionDefinition>;
  /** A new `id` renames the permission (grants follow). */
  update(permissionId: string, changes: PermissionDefinitionUpdate): Promise<PermissionDefinition>;
  delete(permissionId: string): Promise<void>;
};

export type AdminApp = ServerCapabilities & {
  project: {
    get(): Promise<AdminProject>;
    /** Display name, description, production mode, and the config as the dashboard edits it. */
    update(changes: ProjectUpdate): Promise<AdminProject>;
    /** Deletes the project with everything in it. */
    delete(): Promise<void>;
  };
  config: {
    get(): Promise<ProjectConfig>;
    /** Merges the override (keys may be dotted paths, e.g. `{ 'auth.password.allowSignIn': true }`); resolves to the new rendered config. */
    override(override: ProjectConfigOverride, options?: { level?: ConfigOverrideLevel }): Promise<ProjectConfig>;
  };
  /** The project's own key sets (`pck_`/`ssk_`/`sak_`); full keys only in the answer of `create`. */
  keySets: {
    list(): Promise<InternalApiKey[]>;
    create(keySet: OperationBody<'createInternalApiKey'>): Promise<InternalApiKeyCreated>;
    get(keySetId: string): Promise<InternalApiKey>;
    update(keySetId: string, changes: { description?: string }): Promise<InternalApiKey>;
    revoke(keySetId: string): Promise<InternalApiKey>;
  };
  teamPermissionDefinitions: DefinitionMethods;
  projectPermissionDefinitions: DefinitionMethods;
  getMetrics(options?: { includeAnonymous?: boolean }): Promise<ProjectMetrics>;
  /** Sends a test email through the given SMTP settings; resolves to whether it went through. */
  sendTestEmail(email: OperationBody<'sendTestEmail'>): Promise<OperationResult<'sendTestEmail'>>;
  /** Email themes (and the selected one), templates, drafts and previews (render-email, with editable markers). */
  emails: AdminEmails;
  /** Webhook endpoints (create, update, enable, delete, rotate the secret), the delivery log, replay, test messages. */
  webhooks: AdminWebhooks;
  /** Sign-up rules (CEL conditions), their tester and statistics, and the password policy. */
  signUpRules: AdminSignUpRules;
  /** The payments catalogue (items, product lines, products, test mode) and the transactions with refunds. */
  payments: ServerPayments & AdminPayments;
  /** The AI assistant: answers from the server's AI provider, threads of saved messages. */
  aiChat: AdminAiChat;
};

/**
 * The app of admin tooling: everything the server app does, plus the project itself, its config,
 * key sets, permission definitions, metrics, a test email, webhooks and the AI chat. Authenticates with the super secret
 * admin key, or with a dashboard user's access token (pass a function to hand out a fresh one).
 *
 * @example
 * ```ts
 * const admin = createAdminApp({ baseUrl: 'http://localhost:8102', projectId, superSecretAdminKey: process.env.GATEHOUSE_ADMIN_KEY! });
 * await admin.project.update({ display_name: 'Acme', config: { sign_up_enabled: false } });
 * await admin.config.override({ 'auth.password.allowSignIn': true });
 * const { total_users } = await admin.getMetrics();
 *
 * // A dashboard user of the `internal` project administering a project of their team:
 * const dashboard = createAdminApp({ baseUrl, projectId, adminAccessToken: () => internalApp.getAccessToken() });
 * ```
 */
export function createAdminApp(options: AdminAppOptions): AdminApp {
  const call = createBackendCall({ ...options, accessType: 'admin' });
  const server = serverCapabilities(options.projectId, call);
  return {
    ...server,
    project: {
      get: () => call(op.getAdminProject),
      update: (changes) => call(op.updateAdminProject, { body: changes }),
      delete: async () => {
        await call(op.deleteAdminProject);
      },
    },
    config: {
      get: async () => JSON.parse((await call(op.getProjectConfig)).config_string) as ProjectConfig,
      override: async (override, overrideOptions = {}) => {
        const params = { level: overrideOptions.level ?? 'project' };
        const answer = await call(op.updateProjectConfigOverride, { params, body: { config_override_string: JSON.stringify(override) } });
        return JSON.parse(answer.config_string) as ProjectConfig;
      },
    },
    keySets: {
      list: async () => (await call(op.listInternalApiKeys)).items,
      create: (keySet) => call(op.createInternalApiKey, { body: keySet }),
      get: (keySetId) => call(op.getInternalApiKey, { params: { api_key_id: keySetId } }),
      update: (keySetId, changes) => call(op.updateInternalApiKey, { params: { api_key_id: keySetId }, body: changes }),
      revoke: (keySetId) => call(op.updateInternalApiKey, { params: { api_key_id: keySetId }, body: { revoked: true } }),
    },
    teamPermissionDefinitions: permissionDefinitions(call, 'team'),
    projectPermissionDefinitions: permissionDefinitions(call, 'project'),
    getMetrics: (metricsOptions = {}) =>
      call(op.getProjectMetrics, { query: definedOnly({ include_anonymous: queryBoolean(metricsOptions.includeAnonymous) }) }),
    sendTestEmail: (email) => call(op.sendTestEmail, { body: email }),
    emails: adminEmails(call),
    webhooks: adminWebhooks(call),
    signUpRules: adminSignUpRules(call),
    payments: { ...server.payments, ...adminPayments(call) },
    aiChat: adminAiChat(call),
  };
}

function permissionDefinitions(call: AppCall, scope: 'team' | 'project'): DefinitionMethods {
  if (scope === 'team') {
    return {
      list: async () => (await call(op.listTeamPermissionDefinitions)).items,
      create: (definition) => call(op.createTeamPermissionDefinition, { body: definition }),
      update: (permission_id, changes) => call(op.updateTeamPermissionDefinition, { params: { permission_id }, body: changes }),
      delete: async (permission_id) => {
        await call(op.deleteTeamPermissionDefinition, { params: { permission_id } });
      },
    };
  }
  return {
    list: async () => (await call(op.listProjectPermissionDefinitions)).items,
    create: (definition) => call(op.createProjectPermissionDefinition, { body: definition }),
    update: (permission_id, changes) => call(op.updateProjectPermissionDefinition, { params: { permission_id }, body: changes }),
    delete: async (permission_id) => {
      await call(op.deleteProjectPermissionDefinition, { params: { permission_id } });
    },
  };
}
