import { type Kysely, sql } from 'kysely';
import type { Database } from '../../server/src/db/schema.ts';

/**
 * Inserts `count` users into a project in one statement: sign-up times over the last 60 days,
 * activity after sign-up, a country for most, several sign-up methods, a few anonymous.
 * `tsx scripts/src/generate-users.ts <project id> <count>` against DATABASE_URL.
 */
export async function generateUsers(db: Kysely<Database>, projectId: string, count: number): Promise<void> {
  await sql`
    insert into project_user (id, project_id, display_name, signed_up_at, last_active_at, is_anonymous, country_code, sign_up_method)
    select gen_random_uuid(), ${projectId}, 'User ' || n,
      now() - (random() * interval '60 days') as signed_up,
      now() - (random() * interval '30 days'),
      n % 50 = 0,
      (array['US', 'DE', 'FR', 'GB', 'BR', 'IN', 'JP', null])[1 + n % 8],
      (array['password', 'otp', 'oauth', 'passkey'])[1 + n % 4]
    from generate_series(1, ${count}) as n`.execute(db);
  // As autovacuum would: the visibility map lets the metrics read only their covering indexes.
  await sql`vacuum analyze project_user`.execute(db);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [projectId, count] = process.argv.slice(2);
  if (!projectId || !process.env.DATABASE_URL)
    throw new Error('usage: DATABASE_URL=… tsx scripts/src/generate-users.ts <project id> [count]');
  const { createDatabase } = await import('../../server/src/db/create-database.ts');
  const database = await createDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '' });
  await generateUsers(database.db, projectId, Number(count ?? 100_000));
  await database.close();
}
