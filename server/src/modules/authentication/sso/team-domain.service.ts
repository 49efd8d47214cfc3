import { randomBytes, randomUUID } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { Schema } from '@gatehouse/protocol/operation-types';
import { TeamDomainAlreadyVerifiedError, TeamDomainNotFoundError, TeamDomainVerificationFailedError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { AuditLog } from '../../administration/audit-log/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { SsoSettings } from './sso-settings.ts';
import {
  deleteDomain,
  findDomain,
  findDomainClaim,
  findEnabledTeamConnection,
  findVerifiedDomain,
  insertDomain,
  listDomains,
  setDomainFields,
} from './sso.repository.ts';
import type { EnrolmentPolicy, TeamDomainRow } from './sso.table.ts';

export const verificationRecordName = (domain: string) => `_gatehouse-verification.${domain}`;
export const verificationRecordValue = (token: string) => `gatehouse-domain-verification=${token}`;

const dnsTimeoutMillis = 3000;

/**
 * Teams' email domains: a claim, its DNS TXT proof (asked of the configured resolver at each
 * verify: a removed record unverifies), home-realm discovery, and the enrolment of new users whose
 * verified primary email is on a verified domain.
 */
export class TeamDomainService {
  constructor(
    private readonly db: DbHandle,
    private readonly teams: TeamService,
    private readonly settings: SsoSettings,
    private readonly auditLog: AuditLog,
  ) {}

  async create(project: Project, body: Schema<'TeamDomainCreate'>): Promise<TeamDomainRow> {
    await this.teams.get(project.id, body.team_id);
    const domain = body.domain.toLowerCase();
    const existing = await findDomainClaim(this.db, body.team_id, domain);
    if (existing) return existing;
    try {
      return await inTransaction(this.db, async (trx) => {
        const row = await insertDomain(trx, {
          id: randomUUID(),
          projectId: project.id,
          teamId: body.team_id,
          domain,
          token: randomBytes(20).toString('hex'),
          policy: body.enrolment_policy ?? 'invitation_only',
        });
        await this.audit(trx, project.id, 'sso.domain_added', row);
        return row;
      });
    } catch (error) {
      // The same claim made at the same moment: answer the one that won.
      if (isUniqueViolation(error)) return (await findDomainClaim(this.db, body.team_id, domain)) as TeamDomainRow;
      throw error;
    }
  }

  list(projectId: ProjectId, teamId?: string): Promise<TeamDomainRow[]> {
    return listDomains(this.db, projectId, teamId);
  }

  async get(projectId: ProjectId, id: string): Promise<TeamDomainRow> {
    const row = await findDomain(this.db, projectId, id);
    if (!row) throw new TeamDomainNotFoundError({ domain_id: id });
    return row;
  }

  async update(projectId: ProjectId, id: string, body: Schema<'TeamDomainUpdate'>): Promise<TeamDomainRow> {
    await this.get(projectId, id);
    if (body.enrolment_policy === undefined) return this.get(projectId, id);
    return (await setDomainFields(this.db, projectId, id, { enrolment_policy: body.enrolment_policy })) ?? this.get(projectId, id);
  }

  async delete(projectId: ProjectId, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const deleted = await deleteDomain(trx, projectId, id);
      if (!deleted) throw new TeamDomainNotFoundError({ domain_id: id });
      await this.audit(trx, projectId, 'sso.domain_removed', { id, ...deleted });
    });
  }

  async verify(projectId: ProjectId, id: string): Promise<TeamDomainRow> {
    const row = await this.get(projectId, id);
    const name = verificationRecordName(row.domain);
    const expected = verificationRecordValue(row.verification_token);
    if (!(await this.hasTxtRecord(name, expected))) {
      if (row.verified_at) await setDomainFields(this.db, projectId, id, { verified_at: null });
      throw new TeamDomainVerificationFailedError(
        { domain: row.domain, record_name: name, record_value: expected },
        `No TXT record ${name} with the value ${expected} was found.`,
      );
    }
    const holder = await findVerifiedDomain(this.db, projectId, row.domain);
    if (holder && holder.id !== row.id) throw new TeamDomainAlreadyVerifiedError({ domain: row.domain });
    if (row.verified_at) return row;
    try {
      return await inTransaction(this.db, async (trx) => {
        const verified = (await setDomainFields(trx, projectId, id, { verified_at: new Date() })) as TeamDomainRow;
        await this.audit(trx, projectId, 'sso.domain_verified', verified);
        return verified;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new TeamDomainAlreadyVerifiedError({ domain: row.domain });
      throw error;
    }
  }

  private audit(trx: DbHandle, projectId: ProjectId, action: string, row: { id: string; team_id: string; domain: string }) {
    return this.auditLog.record(trx, projectId, {
      action,
      teamId: row.team_id,
      target: { type: 'team_domain', id: row.id },
      details: { domain: row.domain },
    });
  }

  /** The enabled connection of the team that verified the email's domain. */
  async discover(projectId: ProjectId, email: string): Promise<{ connection_id: string | null; protocol: 'saml' | 'oidc' | null }> {
    const domain = domainOf(email);
    const verified = domain ? await findVerifiedDomain(this.db, projectId, domain) : undefined;
    const connection = verified ? await findEnabledTeamConnection(this.db, projectId, verified.team_id) : undefined;
    return { connection_id: connection?.id ?? null, protocol: connection?.protocol ?? null };
  }

  /** A new user (in its creating transaction): joins the team of a verified domain whose policy is `automatic`. */
  async enrol(trx: DbHandle, project: Project, user: UserRecord): Promise<void> {
    const email = user.primary_email;
    if (!email || !user.primary_email_verified || user.is_anonymous) return;
    const domain = domainOf(email);
    const verified = domain ? await findVerifiedDomain(trx, project.id, domain) : undefined;
    if (verified?.enrolment_policy === 'automatic') await this.teams.joinIn(trx, project, verified.team_id, user.id);
  }

  private async hasTxtRecord(name: string, expected: string): Promise<boolean> {
    const resolver = new Resolver({ timeout: dnsTimeoutMillis, tries: 1 });
    if (this.settings.dnsServers.length > 0) resolver.setServers(this.settings.dnsServers);
    try {
      // A TXT record may come split in strings of up to 255 characters; its value is their concatenation.
      const records = await resolver.resolveTxt(name);
      return records.some((chunks) => chunks.join('') === expected);
    } catch {
      return false;
    }
  }
}

function domainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 ? email.slice(at + 1).toLowerCase() : null;
}

export function toTeamDomainView(row: TeamDomainRow): Schema<'TeamDomain'> {
  return {
    id: row.id,
    team_id: row.team_id,
    domain: row.domain,
    enrolment_policy: row.enrolment_policy as EnrolmentPolicy,
    verified: row.verified_at !== null,
    verified_at_millis: row.verified_at?.getTime() ?? null,
    verification_record_name: verificationRecordName(row.domain),
    verification_record_value: verificationRecordValue(row.verification_token),
  };
}
