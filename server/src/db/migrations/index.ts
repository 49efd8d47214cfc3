import type { Migration } from 'kysely';
import * as tenancy from './0001-tenancy.ts';
import * as accounts from './0002-accounts.ts';
import * as replacedRefreshTokens from './0003-replaced-refresh-tokens.ts';
import * as primaryEmailOnUser from './0004-primary-email-on-user.ts';
import * as teamsAndPermissions from './0005-teams-and-permissions.ts';
import * as permissionClosure from './0006-permission-closure.ts';
import * as endUserApiKeys from './0007-end-user-api-keys.ts';
import * as projectDevelopmentFlag from './0008-project-development-flag.ts';
import * as metricsIndexes from './0009-metrics-indexes.ts';
import * as mfa from './0010-mfa.ts';
import * as cliLogin from './0011-cli-login.ts';
import * as oauth from './0012-oauth.ts';
import * as passkeys from './0013-passkeys.ts';
import * as notificationPreferences from './0014-notification-preferences.ts';
import * as userMetricsRollups from './0015-user-metrics-rollups.ts';
import * as projectLogosOnboarding from './0016-project-logos-onboarding.ts';
import * as expiryIndexes from './0017-expiry-indexes.ts';
import * as permissionGraphVersion from './0018-permission-graph-version.ts';

/** Every migration, in order. Names are stable: they are recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001-tenancy': tenancy,
  '0002-accounts': accounts,
  '0003-replaced-refresh-tokens': replacedRefreshTokens,
  '0004-primary-email-on-user': primaryEmailOnUser,
  '0005-teams-and-permissions': teamsAndPermissions,
  '0006-permission-closure': permissionClosure,
  '0007-end-user-api-keys': endUserApiKeys,
  '0008-project-development-flag': projectDevelopmentFlag,
  '0009-metrics-indexes': metricsIndexes,
  '0010-mfa': mfa,
  '0011-cli-login': cliLogin,
  '0012-oauth': oauth,
  '0013-passkeys': passkeys,
  '0014-notification-preferences': notificationPreferences,
  '0015-user-metrics-rollups': userMetricsRollups,
  '0016-project-logos-onboarding': projectLogosOnboarding,
  '0017-expiry-indexes': expiryIndexes,
  '0018-permission-graph-version': permissionGraphVersion,
};
