import { CustomClaimsTemplateInvalidError } from '@gatehouse/protocol/errors';
import type { Project } from '../../../tenancy/project.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { PermissionService } from '../../organisations/permissions/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import { type ClaimsContext, ClaimsTemplateError, compileClaimsTemplate, evaluateClaims, hasClaims } from './claims-template.ts';

/** A template about to be saved, checked whole: a problem is CUSTOM_CLAIMS_TEMPLATE_INVALID, with the claim and position. */
export function assertValidClaimsTemplate(template: unknown): void {
  try {
    compileClaimsTemplate(template);
  } catch (error) {
    if (!(error instanceof ClaimsTemplateError)) throw error;
    const where = error.claim === null ? 'Custom claims' : `Custom claim ${error.claim}`;
    const at = error.position ? ` (line ${error.position.line}, column ${error.position.column})` : '';
    throw new CustomClaimsTemplateInvalidError(
      { claim: error.claim, message: error.message, position: error.position },
      `${where}: ${error.message}${at}`,
    );
  }
}

const metadata = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function userContext(user: UserRecord): ClaimsContext['user'] {
  return {
    id: user.id,
    display_name: user.display_name,
    primary_email: user.primary_email,
    primary_email_verified: user.primary_email_verified ?? false,
    profile_image_url: user.profile_image_url,
    is_anonymous: user.is_anonymous,
    signed_up_at_millis: BigInt(user.signed_up_at.getTime()),
    client_metadata: metadata(user.client_metadata),
    client_read_only_metadata: metadata(user.client_read_only_metadata),
    server_metadata: metadata(user.server_metadata),
  };
}

/**
 * Evaluates claims templates for a user at token issue. Never fails the issue: a claim that cannot be evaluated is
 * left out, claims over the size limit are all left out, and either is logged (the owner's template is at fault, not
 * the user's sign-in).
 */
export class CustomClaimsService {
  constructor(
    private readonly users: UserService,
    private readonly permissions: PermissionService,
    private readonly log: (message: string) => void = (message) => console.warn(message),
  ) {}

  /** The claims `template` gives `userId` (one query for the user, one more each if it reads `team` or `permissions`). */
  async claimsFor(project: Project, template: unknown, userId: string, source: string): Promise<Record<string, unknown>> {
    if (!hasClaims(template)) return {};
    const user = await this.users.find(project.id, userId);
    return user ? this.claimsForUser(project, template, user, source) : {};
  }

  /** As `claimsFor`, for a user already read. */
  async claimsForUser(project: Project, template: unknown, user: UserRecord, source: string): Promise<Record<string, unknown>> {
    if (!hasClaims(template)) return {};
    let compiled: ReturnType<typeof compileClaimsTemplate>;
    try {
      compiled = compileClaimsTemplate(template);
    } catch (error) {
      // Saved templates were checked; one that no longer compiles (a stricter version) adds nothing.
      this.log(`Custom claims of ${source} in project ${project.id} skipped: ${(error as Error).message}`);
      return {};
    }
    const [team, permissions] = await Promise.all([
      compiled.reads.team && user.selected_team_id ? this.selectedTeam(project, user.selected_team_id) : null,
      compiled.reads.permissions ? this.projectPermissions(project, user.id) : [],
    ]);
    const result = evaluateClaims(compiled, { user: userContext(user), team, permissions });
    for (const failure of result.failures) {
      this.log(`Custom claim ${failure.claim} of ${source} in project ${project.id} left out: ${failure.message}`);
    }
    if (result.oversized) this.log(`Custom claims of ${source} in project ${project.id} left out: larger than the limit`);
    return result.claims;
  }

  private async selectedTeam(project: Project, teamId: string): Promise<ClaimsContext['team']> {
    const view = (await this.users.teams.provider.views(project.id, [teamId])).get(teamId)?.server;
    if (!view) return null;
    return {
      id: view.id,
      display_name: view.display_name,
      profile_image_url: view.profile_image_url,
      client_metadata: metadata(view.client_metadata),
      client_read_only_metadata: metadata(view.client_read_only_metadata),
      server_metadata: metadata(view.server_metadata),
    };
  }

  private async projectPermissions(project: Project, userId: string): Promise<string[]> {
    const grants = await this.permissions.listProjectGrants(project.id, { userId, recursive: true });
    return [...new Set(grants.map((grant) => grant.id))].sort();
  }
}
