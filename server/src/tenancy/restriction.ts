import type { components } from '@gatehouse/protocol/api-types';
import type { Project } from './project.ts';
import type { UserRow } from './user.table.ts';

export type RestrictedReason = components['schemas']['RestrictedReason'];

/**
 * Anonymous users are always restricted; then an unverified primary email when the project requires
 * verification; then an administrator's restriction.
 */
export function restrictionOf(
  project: Pick<Project, 'config'>,
  user: Pick<UserRow, 'is_anonymous' | 'primary_email_verified' | 'restricted_by_admin'>,
): RestrictedReason | null {
  if (user.is_anonymous) return { type: 'anonymous' };
  if (project.config.onboarding.requireEmailVerification && !user.primary_email_verified) return { type: 'email_not_verified' };
  if (user.restricted_by_admin) return { type: 'restricted_by_administrator' };
  return null;
}
