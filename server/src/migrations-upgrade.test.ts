import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from './db/create-database.ts';
import { type Migrations, migrateToLatest } from './db/migrate.ts';
import { migrations } from './services.ts';

/**
 * The names every database created before the modules recorded in `kysely_migration`, in order.
 * Moving a migration into its module keeps its name, so such a database re-runs nothing.
 */
const releasedNames = [
  '0001-tenancy',
  '0002-accounts',
  '0003-replaced-refresh-tokens',
  '0004-primary-email-on-user',
  '0005-teams-and-permissions',
  '0006-permission-closure',
  '0007-end-user-api-keys',
  '0008-project-development-flag',
  '0009-metrics-indexes',
  '0010-mfa',
  '0011-cli-login',
  '0012-oauth',
  '0013-passkeys',
  '0014-notification-preferences',
  '0015-user-metrics-rollups',
  '0016-project-logos-onboarding',
  '0017-expiry-indexes',
  '0018-permission-graph-version',
];

/** The migrator of that release: those names, each with the migration that now lives in its module. */
const released: Migrations = Object.fromEntries(releasedNames.map((name) => [name, migrations[name] as Migrations[string]]));

type Recorded = { name: string; timestamp: string };
// biome-ignore lint/suspicious/noExplicitAny: the migration table is outside the app's schema
const recorded = async (db: Kysely<any>): Promise<Recorded[]> => {
  const { rows } = await sql<Recorded>`select name, timestamp from kysely_migration order by timestamp, name`.execute(db);
  return rows;
};

/** Migrates with the release's migrator, then starts the current one on the same database. */
// biome-ignore lint/suspicious/noExplicitAny: the migration table is outside the app's schema
async function upgrade(db: Kysely<any>): Promise<void> {
  await migrateToLatest(db, released);
  const before = await recorded(db);
  expect(before.map((row) => row.name)).toEqual(releasedNames);
  await migrateToLatest(db, migrations);
  const after = await recorded(db);
  // Nothing re-ran (same rows, same times); only migrations newer than the release may have been added.
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after.slice(before.length).every((row) => row.name > (releasedNames.at(-1) as string))).toBe(true);
}

// Removed after the file: PGlite may still write to its folder just after closing.
const dataDirs: string[] = [];
afterAll(() => {
  for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('keep the names and the order databases recorded; modules only add later ones', () => {
    const names = Object.keys(migrations).sort();
    expect(names.slice(0, releasedNames.length)).toEqual(releasedNames);
    expect(names.slice(releasedNames.length).every((name) => /^\d{4}-[a-z0-9-]+$/.test(name) && name > '0018')).toBe(true);
  });

  it('start a PGlite database migrated before the modules with nothing re-run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-upgrade-'));
    dataDirs.push(dataDir);
    const database = await createDatabase({ dataDir });
    try {
      await upgrade(database.db);
    } finally {
      await database.close();
    }
  });

  it('start a database whose release lacked a migration named before ones it ran (feature ranges)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-upgrade-'));
    dataDirs.push(dataDir);
    const names = Object.keys(migrations).sort();
    const added = names.find((name) => name > '0018' && name < (names.at(-1) as string)) as string;
    const earlier: Migrations = Object.fromEntries(
      names.filter((name) => name !== added).map((name) => [name, migrations[name] as Migrations[string]]),
    );
    const database = await createDatabase({ dataDir });
    try {
      await migrateToLatest(database.db, earlier);
      const before = await recorded(database.db);
      await migrateToLatest(database.db, migrations);
      const after = await recorded(database.db);
      expect(after.map((row) => row.name).sort()).toEqual(names);
      // Only the missing one ran; the others kept their rows.
      expect(after.filter((row) => row.name !== added)).toEqual(before);
    } finally {
      await database.close();
    }
  });

  it('start a Postgres database migrated before the modules with nothing re-run', async () => {
    const url = new URL(inject('databaseUrl'));
    const name = `gatehouse_upgrade_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    url.pathname = `/${name}`;
    const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
    try {
      await upgrade(db);
    } finally {
      // The pool has ended (every connection closed) before the drop.
      await db.destroy();
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });
});
