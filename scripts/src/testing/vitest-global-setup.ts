import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { migrations } from '../../../server/src/services.ts';
import { type ThrowawayPostgres, startThrowawayPostgres } from './throwaway-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One Postgres for the whole run: a throwaway server unless DATABASE_URL names one. Tests get a
 * fresh database in it, migrated once; files isolate themselves by creating their own projects.
 */
export default async function setup(project: TestProject) {
  const server: ThrowawayPostgres | undefined = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres();
  const adminUrl = process.env.DATABASE_URL ?? (server?.url as string);
  const databaseName = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
  await migrateToLatest(db, migrations);
  await db.destroy();
  project.provide('databaseUrl', url.toString());

  return async () => {
    await admin.query(`drop database if exists ${databaseName} with (force)`).catch(() => undefined);
    await admin.end();
    server?.stop();
  };
}
