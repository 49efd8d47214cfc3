import type { Insertable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { SsoSetupLinkRow, SsoSetupLinkTable } from './sso-setup.table.ts';

export const insertSetupLink = (db: DbHandle, row: Insertable<SsoSetupLinkTable>): Promise<SsoSetupLinkRow> =>
  kyselyOf(db).insertInto('sso_setup_link').values(row).returningAll().executeTakeFirstOrThrow();

export const listSetupLinks = (db: DbHandle, projectId: ProjectId, teamId: string): Promise<SsoSetupLinkRow[]> =>
  kyselyOf(db)
    .selectFrom('sso_setup_link')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();

/** Revokes the team's link (its session ends with it); undefined when the team has no such link. */
export const revokeSetupLink = (db: DbHandle, projectId: ProjectId, teamId: string, id: string): Promise<SsoSetupLinkRow | undefined> =>
  kyselyOf(db)
    .updateTable('sso_setup_link')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(new Date())) }))
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

/**
 * The one exchange of a link, by its token's digest: succeeds only while the link is unused, unrevoked and
 * unexpired (the row lock makes simultaneous exchanges queue, and the later ones then find it used).
 */
export const exchangeSetupLinkInAnyProject = (
  db: DbHandle,
  tokenHash: string,
  session: { tokenHash: string; expiresAt: Date; now: Date },
): Promise<SsoSetupLinkRow | undefined> =>
  kyselyOf(db)
    .updateTable('sso_setup_link')
    .set({ used_at: session.now, session_token_hash: session.tokenHash, session_expires_at: session.expiresAt })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', session.now)
    .returningAll()
    .executeTakeFirst();

/** A link by its token's digest (to say why an exchange was refused). */
export const findSetupLinkByTokenInAnyProject = (db: DbHandle, tokenHash: string): Promise<SsoSetupLinkRow | undefined> =>
  kyselyOf(db).selectFrom('sso_setup_link').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/** The link a setup session token belongs to, by the token's digest. */
export const findSetupSessionInAnyProject = (db: DbHandle, sessionTokenHash: string): Promise<SsoSetupLinkRow | undefined> =>
  kyselyOf(db).selectFrom('sso_setup_link').selectAll().where('session_token_hash', '=', sessionTokenHash).executeTakeFirst();
