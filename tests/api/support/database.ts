// A fresh, migrated database per test file: in-memory PGlite by default, or a new database on the PostgreSQL
// server named by TEST_DATABASE_URL (dropped again afterwards).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/src/db/client';
import { listMigrations, migrate, migrationsDir } from '../../../server/src/db/migrate';

const TEMPLATE_DIR = 'tmp/pglite-templates';

/**
 * A dump of a freshly migrated PGlite, made once per set of migrations and shared by every test file: starting from
 * it takes about a second, where creating and migrating an empty PGlite takes six or more.
 */
async function migratedPgliteDump(): Promise<Blob> {
  const fingerprint = createHash('sha256');
  for (const name of listMigrations()) fingerprint.update(name).update(readFileSync(join(migrationsDir, name)));
  const file = join(TEMPLATE_DIR, `${fingerprint.digest('hex').slice(0, 16)}.tar`);
  if (!existsSync(file)) {
    const database = await openDatabase({});
    await migrate(database);
    const dump = await ((database.db as unknown as { $client: PGlite }).$client).dumpDataDir('none');
    await database.close();
    mkdirSync(TEMPLATE_DIR, { recursive: true });
    // Written aside and renamed, so a file running at the same time never reads half a dump.
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  return new Blob([readFileSync(file)]);
}

export interface TestDatabase {
  database: Database;
  /** The PostgreSQL database's URL, for other processes to open it; null on PGlite (one process's database). */
  url: string | null;
  drop(): Promise<void>;
}

/**
 * `migrateBefore`: apply only the migrations named before it (the test applies the rest itself).
 * `serverUrl`: the PostgreSQL server to create it on instead of TEST_DATABASE_URL's (a test's own throwaway server).
 */
export async function createTestDatabase(options: { migrateBefore?: string; serverUrl?: string } = {}): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = options.migrateBefore ? await openDatabase({}) : await openDatabase({ loadDataDir: await migratedPgliteDump() });
    if (options.migrateBefore) await migrate(database, { before: options.migrateBefore });
    return { database, url: null, drop: () => database.close() };
  }
  const name = `rounds_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 5 });
  await migrate(database, { before: options.migrateBefore });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
