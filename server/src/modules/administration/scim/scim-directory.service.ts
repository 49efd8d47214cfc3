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
import { deleteDirectory, findDirectoryInAnyProject, insertDirectory, listDirectories } from './scim.repository.ts';
import type { ScimDirectoryRow } from './scim.table.ts';

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

  baseUrl(directoryId: string): string {
    return `${this.publicUrl.replace(/\/$/, '')}/api/v1/scim/v2/${directoryId}`;
  }

  async create(projectId: ProjectId, teamId: string, displayName: string): Promise<{ row: ScimDirectoryRow; token: string }> {
    const token = `scim_${randomBase32(52)}`;
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

  /** The directory the path names, if the bearer token is its own (any other token, of any team or project, is refused). */
  async authenticate(directoryId: string, authorization: string | undefined): Promise<ScimContext> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new ScimProtocolError(401, 'A bearer token is required.');
    const directory = await findDirectoryInAnyProject(this.db, directoryId);
    const expected = Buffer.from(directory?.token_hash ?? digestSecret('no directory'));
    const given = Buffer.from(digestSecret(token));
    if (!directory || expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new ScimProtocolError(401, 'The bearer token is not valid for this directory.');
    const project = await this.projects.find(directory.project_id);
    if (!project) throw new ScimProtocolError(401, 'The bearer token is not valid for this directory.');
    return { directory, project, baseUrl: this.baseUrl(directory.id) };
  }
}
