import type { Migrations } from '../migrate.ts';
import * as tenancy from './0001-tenancy.ts';
import * as accounts from './0002-accounts.ts';
import * as primaryEmailOnUser from './0004-primary-email-on-user.ts';
import * as teamsAndPermissions from './0005-teams-and-permissions.ts';

/**
 * The baseline: the first migrations, which created the tables of several features at once. Every
 * later migration belongs to the module whose tables it changes (its `migrations`); the migrator
 * runs them all in the order of their names, which databases have recorded and never change.
 */
export const baselineMigrations: Migrations = {
  '0001-tenancy': tenancy,
  '0002-accounts': accounts,
  '0004-primary-email-on-user': primaryEmailOnUser,
  '0005-teams-and-permissions': teamsAndPermissions,
};
