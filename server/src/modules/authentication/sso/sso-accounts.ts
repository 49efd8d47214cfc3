import {
  ContactChannelAlreadyUsedForAuthBySomeoneElseError,
  SignUpNotEnabledError,
  UserEmailAlreadyExistsError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { AuditLog } from '../../administration/audit-log/index.ts';
import type { PermissionService } from '../../organisations/permissions/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import { findIdentityUser, findVerifiedDomain, insertIdentity } from './sso.repository.ts';
import type { AttributeMapping, SsoConnectionRow } from './sso.table.ts';

/** Who the IdP says signed in. */
export type SsoPerson = { subject: string; email: string | null; name: string | null; groups: string[] };

const conflict = (email: string, wouldWork: boolean) =>
  new ContactChannelAlreadyUsedForAuthBySomeoneElseError({
    type: 'email',
    contact_channel_value: email,
    would_work_if_email_was_verified: wouldWork,
  });

/**
 * The user an SSO sign-in ends with: the one linked to this IdP account; else, when the email is
 * another user's sign-in email, the project's merge strategy (`link_method` links only when that
 * user verified it; `raise_error` refuses; `allow_duplicates` creates a new user whose copy of the
 * email does not sign in); else a new user (JIT). Every SSO user is a member of the connection's
 * team, with the team permissions its IdP groups map to. An IdP is trusted with an address only on a
 * domain its team verified: any other address never links to an existing account (a team's IdP
 * could otherwise assert someone else's address and take their account) and is stored unverified.
 */
export class SsoAccounts {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
    private readonly teams: TeamService,
    private readonly permissions: PermissionService,
    private readonly auditLog: AuditLog,
    private readonly log: (message: string) => void = (message) => console.warn(message),
  ) {}

  /**
   * One transaction: the JIT user (its creation a savepoint inside it), the IdP account's link, the
   * team membership and mapped permissions, and the `sso.signed_in` audit entry. Any step refused
   * leaves none of them (no user without its link, no audit entry of a sign-in that did not happen).
   */
  async signIn(project: Project, connection: SsoConnectionRow, person: SsoPerson): Promise<{ userId: string; isNewUser: boolean }> {
    return inTransaction(this.db, async (trx) => {
      const linked = await findIdentityUser(trx, connection.id, person.subject);
      const outcome = linked ? { userId: linked, isNewUser: false } : await this.firstSignIn(trx, project, connection, person);
      await insertIdentity(trx, project.id, connection.id, person.subject, outcome.userId);
      await this.teams.joinIn(trx, project, connection.team_id, outcome.userId);
      await this.grantMapped(trx, project, connection, outcome.userId, person.groups);
      await this.auditLog.record(trx, project.id, {
        action: 'sso.signed_in',
        teamId: connection.team_id,
        target: { type: 'user', id: outcome.userId },
        actor: { type: 'user', id: outcome.userId },
        details: { connection_id: connection.id, protocol: connection.protocol, is_new_user: outcome.isNewUser },
      });
      return outcome;
    });
  }

  /**
   * The team permissions the person's groups map to. Mappings are checked when saved; a permission deleted since
   * is skipped with a log line, so that the owner's clean-up does not lock the team's people out.
   */
  private async grantMapped(trx: DbHandle, project: Project, connection: SsoConnectionRow, userId: string, groups: string[]) {
    const wanted = mappedPermissions(connection.attribute_mapping, groups);
    const missing = new Set(await this.permissions.undefinedTeamPermissions(project.id, wanted, trx));
    if (missing.size > 0)
      this.log(
        `SSO connection ${connection.id} of project ${project.id} maps groups to team permissions that no longer exist, skipped: ${[...missing].join(', ')}`,
      );
    for (const permissionId of wanted.filter((id) => !missing.has(id)))
      await this.permissions.grantTeam(project.id, connection.team_id, userId, permissionId, trx);
  }

  private async firstSignIn(trx: DbHandle, project: Project, connection: SsoConnectionRow, person: SsoPerson) {
    const email = person.email as string;
    let emailSignsIn = true;
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const verified = await findVerifiedDomain(trx, project.id, domain);
    const trusted = verified?.team_id === connection.team_id;
    const owner = await this.users.findAuthEmail(project.id, email);
    if (owner) {
      if (!trusted) throw conflict(email, false);
      switch (project.config.auth.oauth.accountMergeStrategy) {
        case 'raise_error':
          throw conflict(email, false);
        case 'allow_duplicates':
          emailSignsIn = false;
          break;
        default:
          // The IdP of a team vouches for its people's addresses; the existing account must have proved it too.
          if (!owner.is_verified) throw conflict(email, true);
          return { userId: owner.user_id, isNewUser: false };
      }
    }
    if (!project.config.auth.allowSignUp) throw new SignUpNotEnabledError();
    try {
      const user = await this.users.create(
        project,
        {
          display_name: person.name?.slice(0, 256) ?? null,
          primary_email: email,
          primary_email_verified: trusted,
          primary_email_auth_enabled: emailSignsIn,
        },
        'oauth',
        `sso:${connection.protocol}`,
      );
      return { userId: user.id, isNewUser: true };
    } catch (error) {
      if (error instanceof UserEmailAlreadyExistsError) throw conflict(email, false);
      throw error;
    }
  }
}

/** The permissions `groups` map to through the mapping's `group_permissions` (shared with SCIM groups). */
export function mappedPermissions(mapping: AttributeMapping, groups: string[]): string[] {
  const table = mapping.group_permissions ?? {};
  return [...new Set(groups.flatMap((group) => table[group] ?? []))];
}
