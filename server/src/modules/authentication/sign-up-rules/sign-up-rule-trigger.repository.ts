import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { SignUpRuleActionType } from './sign-up-rules.ts';

export async function insertTriggers(
  db: DbHandle,
  projectId: ProjectId,
  rows: ReadonlyArray<{ rule_id: string; action: SignUpRuleActionType; user_id: string | null }>,
): Promise<void> {
  if (rows.length === 0) return;
  await kyselyOf(db)
    .insertInto('sign_up_rule_trigger')
    .values(rows.map((row) => ({ ...row, project_id: projectId })))
    .execute();
}

/** Matches per rule, action and hour (UTC, truncated) since `since`. */
export async function countTriggersByHour(
  db: DbHandle,
  projectId: ProjectId,
  since: Date,
): Promise<Array<{ rule_id: string; action: SignUpRuleActionType; hour: Date; count: number }>> {
  const hour = sql<Date>`date_trunc('hour', created_at, 'UTC')`;
  const rows = await kyselyOf(db)
    .selectFrom('sign_up_rule_trigger')
    .select(['rule_id', 'action', hour.as('hour'), sql<string>`count(*)`.as('count')])
    .where('project_id', '=', projectId)
    .where('created_at', '>=', since)
    .groupBy(['rule_id', 'action', hour])
    .execute();
  return rows.map((row) => ({ ...row, hour: new Date(row.hour), count: Number(row.count) }));
}
