import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';

export type SignalKeys = { ip: string | null; subnet: string | null; email_skeleton: string | null };

export async function insertSignal(db: DbHandle, projectId: ProjectId, keys: SignalKeys): Promise<void> {
  await kyselyOf(db)
    .insertInto('sign_up_signal')
    .values({ ...keys, project_id: projectId })
    .execute();
}

/** Earlier attempts of the project since `since` sharing the IP, the subnet, the email skeleton. */
export async function countSignals(db: DbHandle, projectId: ProjectId, keys: SignalKeys, since: Date) {
  const count = (column: keyof SignalKeys) =>
    keys[column] === null ? sql<string>`0` : sql<string>`count(*) filter (where ${sql.ref(column)} = ${keys[column]})`;
  const row = await kyselyOf(db)
    .selectFrom('sign_up_signal')
    .select([count('ip').as('ip'), count('subnet').as('subnet'), count('email_skeleton').as('email_skeleton')])
    .where('project_id', '=', projectId)
    .where('created_at', '>=', since)
    .where((where) =>
      where.or([
        where('ip', '=', keys.ip ?? ''),
        where('subnet', '=', keys.subnet ?? ''),
        where('email_skeleton', '=', keys.email_skeleton ?? ''),
      ]),
    )
    .executeTakeFirst();
  // With no key at all the select has no aggregate, so no matching row means no row: nothing counted.
  if (!row) return { ip: 0, subnet: 0, emailSkeleton: 0 };
  return { ip: Number(row.ip), subnet: Number(row.subnet), emailSkeleton: Number(row.email_skeleton) };
}

/** Drops attempts older than `before` (the scores look back a day; a month is kept for investigation). */
export async function deleteSignalsBeforeAcrossProjects(db: DbHandle, before: Date): Promise<number> {
  const result = await kyselyOf(db).deleteFrom('sign_up_signal').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
