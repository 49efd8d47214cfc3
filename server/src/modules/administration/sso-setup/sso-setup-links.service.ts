import { randomUUID } from 'node:crypto';
import type { Schema } from '@gatehouse/protocol/operation-types';
import {
  SsoSetupLinkAlreadyUsedError,
  SsoSetupLinkExpiredError,
  SsoSetupLinkNotFoundError,
  SsoSetupLinkRevokedError,
  SsoSetupSessionInvalidError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { digestSecret } from '../../../lib/digest.ts';
import { randomBase32 } from '../../../lib/random.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { AuditLog } from '../audit-log/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import {
  exchangeSetupLinkInAnyProject,
  findSetupLinkByTokenInAnyProject,
  findSetupSessionInAnyProject,
  insertSetupLink,
  listSetupLinks,
  revokeSetupLink,
} from './sso-setup.repository.ts';
import type { SsoSetupLinkRow } from './sso-setup.table.ts';

/** How long a link can be opened when its creator does not say (minutes). */
export const defaultLinkMinutes = 24 * 60;
/** How long the setup session an exchange opens lasts. */
export const sessionMillis = 60 * 60_000;

/** A valid setup session: the link it was opened with names its project and team. */
export type SetupSession = { link: SsoSetupLinkRow; projectId: ProjectId; teamId: string };

export function toSetupLinkView(row: SsoSetupLinkRow, now = Date.now()): Schema<'SsoSetupLink'> {
  const status = row.revoked_at ? 'revoked' : row.used_at ? 'used' : row.expires_at.getTime() <= now ? 'expired' : 'active';
  return {
    id: row.id,
    team_id: row.team_id,
    status,
    created_at_millis: row.created_at.getTime(),
    expires_at_millis: row.expires_at.getTime(),
    used_at_millis: row.used_at?.getTime() ?? null,
    revoked_at_millis: row.revoked_at?.getTime() ?? null,
  };
}

/**
 * Self-serve setup links: created by the project owner (or the API) for one team, exchanged once by the team's
 * IT admin for a one-hour setup session of that team; revoking the link ends the session.
 */
export class SsoSetupLinkService {
  constructor(
    private readonly db: DbHandle,
    private readonly teams: TeamService,
    private readonly auditLog: AuditLog,
    private readonly publicUrl: string,
  ) {}

  /** The setup page, with the token in the fragment (browsers never send it to a server, nor in a Referer). */
  setupUrl(token: string): string {
    return `${this.publicUrl.replace(/\/$/, '')}/dashboard/sso-setup#token=${token}`;
  }

  async create(projectId: ProjectId, teamId: string, expiresInMinutes = defaultLinkMinutes) {
    await this.teams.get(projectId, teamId);
    const token = `ssol_${randomBase32(52)}`;
    const row = await inTransaction(this.db, async (trx) => {
      const inserted = await insertSetupLink(trx, {
        id: randomUUID(),
        project_id: projectId,
        team_id: teamId,
        token_hash: digestSecret(token),
        expires_at: new Date(Date.now() + expiresInMinutes * 60_000),
        revoked_at: null,
        used_at: null,
        session_token_hash: null,
        session_expires_at: null,
      });
      await this.audit(trx, projectId, 'sso_setup.link_created', inserted, { expires_at: inserted.expires_at.toISOString() });
      return inserted;
    });
    return { ...toSetupLinkView(row), token, url: this.setupUrl(token) };
  }

  async list(projectId: ProjectId, teamId: string): Promise<Schema<'SsoSetupLink'>[]> {
    await this.teams.get(projectId, teamId);
    const now = Date.now();
    return (await listSetupLinks(this.db, projectId, teamId)).map((row) => toSetupLinkView(row, now));
  }

  async revoke(projectId: ProjectId, teamId: string, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const row = await revokeSetupLink(trx, projectId, teamId, id);
      if (!row) throw new SsoSetupLinkNotFoundError({ setup_link_id: id });
      await this.audit(trx, projectId, 'sso_setup.link_revoked', row);
    });
  }

  /** The link's one exchange for a setup session; a refusal says whether the link is unknown, used, revoked or expired. */
  async exchange(token: string): Promise<Schema<'SsoSetupSession'>> {
    const sessionToken = `ssos_${randomBase32(52)}`;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + sessionMillis);
    const tokenHash = digestSecret(token);
    const link = await inTransaction(this.db, async (trx) => {
      const exchanged = await exchangeSetupLinkInAnyProject(trx, tokenHash, { tokenHash: digestSecret(sessionToken), expiresAt, now });
      if (exchanged) {
        const actor = { type: 'sso_setup_link' as const, id: exchanged.id };
        await this.audit(trx, exchanged.project_id, 'sso_setup.link_used', exchanged, {}, actor);
      }
      return exchanged;
    });
    if (link) return { session_token: sessionToken, expires_at_millis: expiresAt.getTime(), team_id: link.team_id };
    const refused = await findSetupLinkByTokenInAnyProject(this.db, tokenHash);
    if (!refused) throw new SsoSetupLinkNotFoundError({});
    const details = { setup_link_id: refused.id };
    if (refused.revoked_at) throw new SsoSetupLinkRevokedError(details);
    if (refused.used_at) throw new SsoSetupLinkAlreadyUsedError(details);
    throw new SsoSetupLinkExpiredError(details);
  }

  /** The setup session an `Authorization: Bearer` header names, while it lasts and its link is not revoked. */
  async authenticate(authorization: string | undefined): Promise<SetupSession> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new SsoSetupSessionInvalidError({ reason: 'missing' });
    const link = await findSetupSessionInAnyProject(this.db, digestSecret(token));
    if (!link) throw new SsoSetupSessionInvalidError({ reason: 'unknown' });
    if (link.revoked_at) throw new SsoSetupSessionInvalidError({ reason: 'revoked' });
    if (!link.session_expires_at || link.session_expires_at.getTime() <= Date.now())
      throw new SsoSetupSessionInvalidError({ reason: 'expired' });
    return { link, projectId: link.project_id, teamId: link.team_id };
  }

  private audit(
    trx: DbHandle,
    projectId: ProjectId,
    action: string,
    row: SsoSetupLinkRow,
    details: Record<string, unknown> = {},
    actor?: { type: 'sso_setup_link'; id: string },
  ) {
    return this.auditLog.record(trx, projectId, {
      action,
      teamId: row.team_id,
      target: { type: 'sso_setup_link', id: row.id },
      details,
      ...(actor ? { actor } : {}),
    });
  }
}
