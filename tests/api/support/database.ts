// A fresh, migrated database per test file: in-memory PGlite by default, or a new database on the PostgreSQL
// server named by TEST_DATABASE_URL (dropped again afterwards). Both start from a copy of one freshly migrated
// database, made once per set of migrations, instead of migrating each file's database.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/src/db/client';
import { listMigrations, migrate, migrationsDir } from '../../../server/src/db/migrate';

const TEMPLATE_DIR = 'tmp/pglite-templates';

/** Names the set of migrations: a template made from other migrations is never used. */
function migrationsFingerprint(): string {
  const fingerprint = createHash('sha256');
  for (const name of listMigrations()) fingerprint.update(name).update(readFileSync(join(migrationsDir, name)));
  return fingerprint.digest('hex').slice(0, 16);
}

/**
 * A dump of a freshly migrated PGlite, made once per set of migrations and shared by every test file: starting from
 * it takes about a second, where creating and migrating an empty PGlite takes six or more.
 */
async function migratedPgliteDump(): Promise<Blob> {
  const file = join(TEMPLATE_DIR, `${migrationsFingerprint()}.tar`);
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

/**
 * The name of a freshly migrated database on the PostgreSQL server, made once per set of migrations and kept on the
 * server for later runs: each file's database is a `CREATE DATABASE … TEMPLATE` copy of it (a fraction of a second),
 * where migrating a new one takes seconds. An advisory lock makes workers, and other checkouts sharing the server,
 * wait for the one that builds it; it is built under another name and renamed, so a half-built one is never copied.
 */
async function migratedPostgresTemplate(admin: pg.Client, serverUrl: string): Promise<string> {
  const template = `rounds_template_${migrationsFingerprint()}`;
  await admin.query('SELECT pg_advisory_lock(727275)');
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) {
      const building = `${template}_building_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const database = await openDatabase({ url: urlOfDatabase(serverUrl, building), poolSize: 1 });
      try {
        await migrate(database);
      } finally {
        await database.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(727275)');
  }
  return template;
}

function urlOfDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
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
  try {
    if (options.migrateBefore) await admin.query(`CREATE DATABASE ${name}`);
    else await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await migratedPostgresTemplate(admin, serverUrl)}`);
  } finally {
    await admin.end();
  }
  const url = urlOfDatabase(serverUrl, name);
  const database = await openDatabase({ url, poolSize: 5 });
  if (options.migrateBefore) await migrate(database, { before: options.migrateBefore });
  return {
    database,
    url,
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
