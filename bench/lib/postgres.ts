// A fresh database on the benchmark's PostgreSQL server (TEST_DATABASE_URL or DATABASE_URL), dropped afterwards, so
// a benchmark never measures or leaves behind anything else's data.
import pg from 'pg';

export async function freshPostgres(serverUrl: string, label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rounds_bench_${label}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * Runs `measure` on a fresh database of the benchmark's PostgreSQL server (TEST_DATABASE_URL or DATABASE_URL), dropped
 * afterwards; without a server it says how to name one and answers no rows.
 */
export async function onFreshPostgres<Row>(label: string, measure: (url: string) => Promise<Row[]>): Promise<Row[]> {
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!serverUrl) {
    console.log('(PostgreSQL skipped: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)');
    return [];
  }
  const fresh = await freshPostgres(serverUrl, label);
  try {
    return await measure(fresh.url);
  } finally {
    await fresh.drop();
  }
}
