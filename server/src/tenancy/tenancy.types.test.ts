import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DbHandle } from '../db/handle.ts';
import { findUserRecord } from '../modules/identity/users/user.repository.ts';
import { deleteSessionsOfUser } from '../modules/authentication/sessions/session.repository.ts';
import { insertTeam } from '../modules/organisations/teams/team.repository.ts';
import type * as auditLogRepository from '../modules/administration/audit-log/audit-log.repository.ts';
import type * as scimRepository from '../modules/administration/scim/scim.repository.ts';
import type * as ssoSetupRepository from '../modules/administration/sso-setup/sso-setup.repository.ts';
import type * as oauthProviderRepository from '../modules/authentication/oauth-provider/oauth-provider.repository.ts';
import type * as providerStoreRepository from '../modules/authentication/oauth-provider/provider-store.repository.ts';
import type * as ssoRepository from '../modules/authentication/sso/sso.repository.ts';
import type * as aiChatRepository from '../modules/administration/ai-chat/ai-chat.repository.ts';
import type * as apiKeyRepository from '../modules/platform/project-keys/api-key.repository.ts';
import type * as cacheInvalidationRepository from '../modules/platform/cache-invalidation/cache-invalidation.repository.ts';
import type * as cliLoginRepository from '../modules/authentication/cli-login/cli-login.repository.ts';
import type * as configSourceRepository from '../modules/administration/admin-api/config-source.repository.ts';
import type * as contactChannelRepository from '../modules/identity/contact-channels/contact-channel.repository.ts';
import type * as emailDraftRepository from '../modules/messaging/email/email-draft.repository.ts';
import type * as dataVaultRepository from '../modules/identity/data-vault/data-vault.repository.ts';
import type * as emailOutboxRepository from '../modules/messaging/email/email-outbox.repository.ts';
import type * as emailSendRepository from '../modules/messaging/send-email/email-send.repository.ts';
import type * as endUserApiKeyRepository from '../modules/identity/user-api-keys/end-user-api-key.repository.ts';
import type * as eventRepository from '../modules/platform/events/event.repository.ts';
import type * as metricsRepository from '../modules/administration/admin-api/metrics.repository.ts';
import type * as rateLimitCounterRepository from '../modules/platform/rate-limit-counters/rate-limit-counter.repository.ts';
import type * as healthRepository from '../modules/administration/health/health.repository.ts';
import type * as expiredRowsRepository from '../modules/administration/maintenance/expired-rows.repository.ts';
import type * as mfaRepository from '../modules/authentication/mfa/mfa.repository.ts';
import type * as notificationPreferenceRepository from '../modules/messaging/notification-preferences/notification-preference.repository.ts';
import type * as knownDeviceRepository from '../modules/authentication/sign-in-alerts/known-device.repository.ts';
import type * as signUpRuleTriggerRepository from '../modules/authentication/sign-up-rules/sign-up-rule-trigger.repository.ts';
import type * as signUpSignalRepository from '../modules/authentication/sign-up-rules/sign-up-signal.repository.ts';
import type * as oauthAccountRepository from '../modules/authentication/oauth/oauth-account.repository.ts';
import type * as oauthFlowRepository from '../modules/authentication/oauth/oauth-flow.repository.ts';
import type * as passkeyRepository from '../modules/authentication/passkeys/passkey.repository.ts';
import type * as customerProductRepository from '../modules/billing/payments/customer-product.repository.ts';
import type * as itemLedgerRepository from '../modules/billing/payments/item-ledger.repository.ts';
import type * as purchaseCodeRepository from '../modules/billing/payments/purchase-code.repository.ts';
import type * as paymentTransactionRepository from '../modules/billing/payments/transaction.repository.ts';
import type * as stripeRepository from '../modules/billing/payments/stripe.repository.ts';
import type * as permissionRepository from '../modules/organisations/permissions/permission.repository.ts';
import type * as projectRepository from '../modules/platform/projects/project.repository.ts';
import type * as sessionRefreshRepository from '../modules/authentication/sessions/session-refresh.repository.ts';
import type * as sessionRepository from '../modules/authentication/sessions/session.repository.ts';
import type * as teamRepository from '../modules/organisations/teams/team.repository.ts';
import type * as userRepository from '../modules/identity/users/user.repository.ts';
import type * as verificationCodeRepository from '../modules/authentication/verification-codes/verification-code.repository.ts';
import type * as webhookEndpointRepository from '../modules/messaging/webhooks/webhook-endpoint.repository.ts';
import type * as webhookMessageRepository from '../modules/messaging/webhooks/webhook-message.repository.ts';
import type { ProjectId } from './project-id.ts';

/**
 * Tenancy as a type: a repository call cannot be written without the project it is scoped to.
 * `pnpm typecheck` compiles this file: each `@ts-expect-error` below must be an error, and every
 * exported function of every repository must name its project. Nothing here touches a database.
 */

/** Whether a repository function's scope parameter (the one after the handle) names the tenant. */
type NamesTenant<Scope> = string extends Scope
  ? false
  : [Scope] extends [ProjectId]
    ? true
    : Scope extends { project_id: ProjectId } | { projectId: ProjectId }
      ? true
      : false;
type Scoped<F> = F extends (db: DbHandle, scope: infer Scope, ...rest: never[]) => unknown ? NamesTenant<Scope> : false;

/**
 * The repository functions that do not name a project. Allowed: names ending in `InAnyProject` or
 * `AcrossProjects` (a lookup by an unguessable secret, the cleanup of expired rows), and the tenants'
 * own table (finding a project by a requested id, creating one, the projects some teams own).
 */
type Allowed = `${string}InAnyProject` | `${string}AcrossProjects` | 'findProjectById' | 'insertProject' | 'listProjectsOwnedBy';
/**
 * Functions of child tables keyed by a parent row (a SCIM directory, an SSO connection, a team) that their
 * service has first loaded in its project. Named one by one so that any new function still has to name its
 * project; turning these into project-scoped signatures is open work (issue #34).
 */
type ScopedThroughParent =
  | 'listScimUsers'
  | 'findScimUser'
  | 'updateScimUser'
  | 'listScimGroups'
  | 'findScimGroup'
  | 'updateScimGroup'
  | 'deleteScimGroup'
  | 'takeFlow'
  | 'findLiveFlow'
  | 'findUsedAssertion'
  | 'recordAssertion'
  | 'findIdentityUser'
  | 'findDomainClaim';
type Unscoped<Repository> = {
  [Name in keyof Repository]: Repository[Name] extends (...args: never[]) => unknown
    ? Name extends Allowed | ScopedThroughParent
      ? never
      : Scoped<Repository[Name]> extends true
        ? never
        : Name
    : never;
}[keyof Repository];

describe('tenancy as a type', () => {
  it('refuses a repository call without its project, or with a plain string for one', () => {
    // Compiled, never called: each marked line must fail to compile.
    const calls = (db: DbHandle, projectId: ProjectId, someId: string) => {
      // @ts-expect-error a plain string is not a project id
      void findUserRecord(db, someId, 'user id');
      // @ts-expect-error the project cannot be left out
      void deleteSessionsOfUser(db, 'user id');
      // @ts-expect-error a row of a tenant's table carries its project id, which must be one
      void insertTeam(db, { id: 'team', project_id: someId, display_name: 'Team' });
      void findUserRecord(db, projectId, 'user id');
      void deleteSessionsOfUser(db, projectId, 'user id');
      void insertTeam(db, { id: 'team', project_id: projectId, display_name: 'Team' });
    };
    expect(calls).toBeTypeOf('function');
  });

  it('holds for every function of every repository', () => {
    expectTypeOf<Unscoped<typeof auditLogRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof scimRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof ssoSetupRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof oauthProviderRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof providerStoreRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof ssoRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof aiChatRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof apiKeyRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof cacheInvalidationRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof cliLoginRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof configSourceRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof contactChannelRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof emailDraftRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof dataVaultRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof emailOutboxRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof emailSendRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof endUserApiKeyRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof eventRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof metricsRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof expiredRowsRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof healthRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof rateLimitCounterRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof mfaRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof knownDeviceRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof notificationPreferenceRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof oauthAccountRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof oauthFlowRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof passkeyRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof customerProductRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof itemLedgerRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof purchaseCodeRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof paymentTransactionRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof stripeRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof permissionRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof projectRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof sessionRefreshRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof sessionRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof signUpRuleTriggerRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof signUpSignalRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof teamRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof userRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof verificationCodeRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof webhookEndpointRepository>>().toEqualTypeOf<never>();
    expectTypeOf<Unscoped<typeof webhookMessageRepository>>().toEqualTypeOf<never>();
  });

  it('checks every repository there is', () => {
    const modules = new URL('../modules/', import.meta.url);
    const onDisk = (readdirSync(modules, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.repository.ts'))
      .map((file) => `../modules/${file}`)
      .sort();
    const checked = [...readFileSync(new URL(import.meta.url), 'utf8').matchAll(/import type \* as \w+ from '([^']+\.repository\.ts)'/g)]
      .map((match) => match[1])
      .sort();
    expect(checked).toEqual(onDisk);
  });
});
