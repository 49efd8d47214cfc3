import { randomUUID, timingSafeEqual } from 'node:crypto';
import { ScimDirectoryNotFoundError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { digestSecret } from '../../../lib/digest.ts';
import { randomBase32 } from '../../../lib/random.ts';
import { ScimProtocolError } from '../../../lib/scim-error.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { AuditLog } from '../audit-log/index.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import { deleteDirectory, findDirectoryInAnyProject, insertDirectory, listDirectories, rotateDirectoryToken } from './scim.repository.ts';
import type { ScimDirectoryRow } from './scim.table.ts';

/** How long a rotated-out token keeps working when the rotation does not say (hours). */
export const defaultTokenOverlapHours = 24;

const newToken = () => `scim_${randomBase32(52)}`;

/** Whether `token` is the one `hash` digests, in constant time. */
const tokenMatches = (hash: string | null, token: string) => {
  const expected = Buffer.from(hash ?? digestSecret('no token'));
  const given = Buffer.from(digestSecret(token));
  return hash !== null && expected.length === given.length && timingSafeEqual(expected, given);
};

/** A directory authenticated by its bearer token, with its project. */
export type ScimContext = { directory: ScimDirectoryRow; project: Project; baseUrl: string };

/** SCIM directories of teams: created with a token shown once, and the authentication of SCIM requests. */
export class ScimDirectoryService {
  constructor(
    private readonly db: DbHandle,
    private readonly projects: ProjectService,
    private readonly auditLog: AuditLog,
    private readonly publicUrl: string,
  ) {}

  /** The API's view of a directory (never its token). */
  toView(row: ScimDirectoryRow) {
    return {
      id: row.id,
      team_id: row.team_id,
      display_name: row.display_name,
      scim_base_url: this.baseUrl(row.id),
      created_at_millis: row.created_at.getTime(),
      previous_token_expires_at_millis: row.previous_token_expires_at?.getTime() ?? null,
    };
  }

  baseUrl(directoryId: string): string {
    return `${this.publicUrl.replace(/\/$/, '')}/api/v1/scim/v2/${directoryId}`;
  }

  async create(projectId: ProjectId, teamId: string, displayName: string): Promise<{ row: ScimDirectoryRow; token: string }> {
    const token = newToken();
    const row = await inTransaction(this.db, async (trx) => {
      const inserted = await insertDirectory(trx, {
        id: randomUUID(),
        project_id: projectId,
        team_id: teamId,
        display_name: displayName,
        token_hash: digestSecret(token),
      });
      const event = {
        action: 'scim.directory_created',
        teamId,
        target: { type: 'scim_directory', id: inserted.id },
        details: { display_name: displayName },
      };
      await this.auditLog.record(trx, projectId, event);
      return inserted;
    });
    return { row, token };
  }

  list(projectId: ProjectId, teamId: string): Promise<ScimDirectoryRow[]> {
    return listDirectories(this.db, projectId, teamId);
  }

  async delete(projectId: ProjectId, teamId: string, directoryId: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const row = await deleteDirectory(trx, projectId, teamId, directoryId);
      if (!row) throw new ScimDirectoryNotFoundError({ directory_id: directoryId });
      await this.auditLog.record(trx, projectId, {
        action: 'scim.directory_deleted',
        teamId,
        target: { type: 'scim_directory', id: row.id },
      });
    });
  }

  /**
   * A new bearer token for the directory (shown once). The token it replaces keeps working for `overlapHours`
   * (0: refused at once); a token rotated out earlier is dropped, so at most two tokens are ever valid.
   */
  async rotateToken(
    projectId: ProjectId,
    teamId: string,
    directoryId: string,
    overlapHours = defaultTokenOverlapHours,
  ): Promise<{ row: ScimDirectoryRow; token: string }> {
    const token = newToken();
    const previousExpiresAt = overlapHours > 0 ? new Date(Date.now() + overlapHours * 3_600_000) : null;
    const row = await inTransaction(this.db, async (trx) => {
      const rotated = await rotateDirectoryToken(trx, projectId, teamId, directoryId, {
        tokenHash: digestSecret(token),
        previousExpiresAt,
      });
      if (!rotated) throw new ScimDirectoryNotFoundError({ directory_id: directoryId });
      await this.auditLog.record(trx, projectId, {
        action: 'scim.token_rotated',
        teamId,
        target: { type: 'scim_directory', id: rotated.id },
        details: { overlap_hours: overlapHours, previous_token_expires_at: previousExpiresAt?.toISOString() ?? null },
      });
      return rotated;
    });
    return { row, token };
  }

  /** The directory the path names, if the bearer token is its own (any other token, of any team or project, is refused). */
  async authenticate(directoryId: string, authorization: string | undefined): Promise<ScimContext> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new ScimProtocolError(401, 'A bearer token is required.');
    const directory = await findDirectoryInAnyProject(this.db, directoryId);
    const current = tokenMatches(directory?.token_hash ?? null, token);
    // The rotated-out token, during its overlap window only.
    const previous =
      !current &&
      directory?.previous_token_expires_at != null &&
      directory.previous_token_expires_at.getTime() > Date.now() &&
      tokenMatches(directory.previous_token_hash, token);
    if (!directory || !(current || previous)) throw new ScimProtocolError(401, 'The bearer token is not valid for this directory.');
    const project = await this.projects.find(directory.project_id);
    if (!project) throw new ScimProtocolError(401, 'The bearer token is not valid for this directory.');
    return { directory, project, baseUrl: this.baseUrl(directory.id) };
  }
}
