import type { Insertable, Updateable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EnrolmentPolicy, SsoConnectionRow, SsoConnectionTable, SsoFlowData, TeamDomainRow } from './sso.table.ts';

type ConnectionInsert = Omit<Insertable<SsoConnectionTable>, 'created_at' | 'project_id'>;

export async function insertConnection(db: DbHandle, projectId: ProjectId, row: ConnectionInsert): Promise<SsoConnectionRow> {
  return kyselyOf(db)
    .insertInto('sso_connection')
    .values({ ...row, project_id: projectId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateConnection(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  changes: Omit<Updateable<SsoConnectionTable>, 'id' | 'project_id' | 'team_id' | 'protocol'>,
): Promise<SsoConnectionRow | undefined> {
  return kyselyOf(db)
    .updateTable('sso_connection')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function findConnection(db: DbHandle, projectId: ProjectId, id: string): Promise<SsoConnectionRow | undefined> {
  return kyselyOf(db).selectFrom('sso_connection').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** The connection of an IdP's answer: the ACS and callback URLs name no project, only the connection (a random UUID). */
export function findConnectionInAnyProject(db: DbHandle, id: string): Promise<SsoConnectionRow | undefined> {
  return kyselyOf(db).selectFrom('sso_connection').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listConnections(db: DbHandle, projectId: ProjectId, teamId?: string): Promise<SsoConnectionRow[]> {
  let query = kyselyOf(db).selectFrom('sso_connection').selectAll().where('project_id', '=', projectId);
  if (teamId) query = query.where('team_id', '=', teamId);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** The deleted connection's team, or undefined when there was none. */
export async function deleteConnection(db: DbHandle, projectId: ProjectId, id: string): Promise<{ team_id: string } | undefined> {
  return kyselyOf(db)
    .deleteFrom('sso_connection')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returning('team_id')
    .executeTakeFirst();
}

export async function insertFlow(
  db: DbHandle,
  flow: { id: string; projectId: ProjectId; connectionId: string; data: SsoFlowData; expiresAt: Date },
): Promise<void> {
  await kyselyOf(db)
    .insertInto('sso_flow')
    .values({
      id: flow.id,
      project_id: flow.projectId,
      connection_id: flow.connectionId,
      data: JSON.stringify(flow.data),
      expires_at: flow.expiresAt,
    })
    .execute();
}

/** Takes (deletes and answers) an unexpired flow of the connection: each flow finishes once. */
export async function takeFlow(db: DbHandle, connectionId: string, id: string): Promise<SsoFlowData | undefined> {
  const row = await kyselyOf(db)
    .deleteFrom('sso_flow')
    .where('connection_id', '=', connectionId)
    .where('id', '=', id)
    .where('expires_at', '>', new Date())
    .returning('data')
    .executeTakeFirst();
  return row?.data as SsoFlowData | undefined;
}

/** An unexpired flow of the connection, left in place (node-saml's InResponseTo check). */
export async function findLiveFlow(db: DbHandle, connectionId: string, id: string): Promise<{ id: string } | undefined> {
  return kyselyOf(db)
    .selectFrom('sso_flow')
    .select('id')
    .where('connection_id', '=', connectionId)
    .where('id', '=', id)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
}

export async function findUsedAssertion(
  db: DbHandle,
  connectionId: string,
  assertionId: string,
): Promise<{ assertion_id: string } | undefined> {
  return kyselyOf(db)
    .selectFrom('sso_used_assertion')
    .select('assertion_id')
    .where('connection_id', '=', connectionId)
    .where('assertion_id', '=', assertionId)
    .executeTakeFirst();
}

/** Records a SAML assertion id; false when it was already used with this connection (a replay). */
export async function recordAssertion(db: DbHandle, connectionId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
  const inserted = await kyselyOf(db)
    .insertInto('sso_used_assertion')
    .values({ connection_id: connectionId, assertion_id: assertionId, expires_at: expiresAt })
    .onConflict((conflict) => conflict.columns(['connection_id', 'assertion_id']).doNothing())
    .returning('assertion_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findIdentityUser(db: DbHandle, connectionId: string, subject: string): Promise<string | undefined> {
  const row = await kyselyOf(db)
    .selectFrom('sso_identity')
    .select('user_id')
    .where('connection_id', '=', connectionId)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.user_id;
}

export async function insertIdentity(
  db: DbHandle,
  projectId: ProjectId,
  connectionId: string,
  subject: string,
  userId: string,
): Promise<void> {
  await kyselyOf(db)
    .insertInto('sso_identity')
    .values({ project_id: projectId, connection_id: connectionId, subject, user_id: userId })
    .onConflict((conflict) => conflict.columns(['connection_id', 'subject']).doNothing())
    .execute();
}

export async function insertDomain(
  db: DbHandle,
  row: { id: string; projectId: ProjectId; teamId: string; domain: string; token: string; policy: EnrolmentPolicy },
): Promise<TeamDomainRow> {
  return kyselyOf(db)
    .insertInto('team_domain')
    .values({
      id: row.id,
      project_id: row.projectId,
      team_id: row.teamId,
      domain: row.domain,
      verification_token: row.token,
      enrolment_policy: row.policy,
      verified_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findDomain(db: DbHandle, projectId: ProjectId, id: string): Promise<TeamDomainRow | undefined> {
  return kyselyOf(db).selectFrom('team_domain').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export function findDomainClaim(db: DbHandle, teamId: string, domain: string): Promise<TeamDomainRow | undefined> {
  return kyselyOf(db).selectFrom('team_domain').selectAll().where('team_id', '=', teamId).where('domain', '=', domain).executeTakeFirst();
}

export function listDomains(db: DbHandle, projectId: ProjectId, teamId?: string): Promise<TeamDomainRow[]> {
  let query = kyselyOf(db).selectFrom('team_domain').selectAll().where('project_id', '=', projectId);
  if (teamId) query = query.where('team_id', '=', teamId);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** The verified domain of the project with this name (one team holds it). */
export function findVerifiedDomain(db: DbHandle, projectId: ProjectId, domain: string): Promise<TeamDomainRow | undefined> {
  return kyselyOf(db)
    .selectFrom('team_domain')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('domain', '=', domain)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
}

export async function setDomainFields(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  changes: { verified_at?: Date | null; enrolment_policy?: EnrolmentPolicy },
): Promise<TeamDomainRow | undefined> {
  return kyselyOf(db)
    .updateTable('team_domain')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The deleted claim's team and domain, or undefined when there was none. */
export async function deleteDomain(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
): Promise<{ team_id: string; domain: string } | undefined> {
  return kyselyOf(db)
    .deleteFrom('team_domain')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returning(['team_id', 'domain'])
    .executeTakeFirst();
}

/** Sign-ins the IdP never answered and assertion ids past their validity (a replay of those fails the time check anyway). */
export async function deleteExpiredSsoRowsAcrossProjects(db: DbHandle, now: Date): Promise<{ flows: number; assertions: number }> {
  const flows = await kyselyOf(db).deleteFrom('sso_flow').where('expires_at', '<=', now).executeTakeFirst();
  const assertions = await kyselyOf(db).deleteFrom('sso_used_assertion').where('expires_at', '<=', now).executeTakeFirst();
  return { flows: Number(flows.numDeletedRows), assertions: Number(assertions.numDeletedRows) };
}

/** The first enabled connection of a team (home-realm discovery). */
export function findEnabledTeamConnection(db: DbHandle, projectId: ProjectId, teamId: string): Promise<SsoConnectionRow | undefined> {
  return kyselyOf(db)
    .selectFrom('sso_connection')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('enabled', '=', true)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}
