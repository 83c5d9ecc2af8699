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
