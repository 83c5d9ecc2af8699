// A fresh, migrated database per test file: in-memory PGlite by default, or a new database on the PostgreSQL
// server named by TEST_DATABASE_URL (dropped again afterwards).
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/src/db/client';
import { migrate } from '../../../server/src/db/migrate';

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
    const database = await openDatabase({});
    await migrate(database, { before: options.migrateBefore });
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
