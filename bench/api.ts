// `npm run bench:api`: requests/s and latency of login and current-user, on embedded PGlite and (when
// TEST_DATABASE_URL or DATABASE_URL is set) on PostgreSQL. Each runs the real app on a loopback port.
import autocannon from 'autocannon';
import pino from 'pino';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase, type Database } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { createBusinessAccount } from '../server/src/modules/business-account';
import { onFreshPostgres } from './lib/postgres';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const PASSWORD = 'benchmark password';

async function measure(label: string, database: Database) {
  await migrate(database);
  const config = { ...loadConfig({ APP_SECRET: 'bench-secret-bench-secret-bench-secret' }), requestsPerMinute: 1_000_000, loginMaxFailures: 1000 };
  const log = pino({ level: 'silent' });
  const ctx = createContext(config, database, log);
  await createBusinessAccount(ctx.db, { name: 'Bench Care', admin: { email: 'bench@bench.test', password: PASSWORD, first_name: 'Ben' } });
  const app = await buildApp({ ctx, logger: log, spaDir: '/nonexistent' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@bench.test', password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };

  const rows = [];
  for (const [name, options] of [
    ['POST /api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@bench.test', password: PASSWORD }), path: '/api/auth/login' }],
    ['GET /api/auth/user', { method: 'GET', headers: { authorization: `Bearer ${token}` }, path: '/api/auth/user' }],
  ] as const) {
    const { path, ...request } = options;
    const result = await autocannon({ url: `${url}${path}`, connections: CONNECTIONS, duration: DURATION_SECONDS, ...request } as autocannon.Options);
    rows.push({
      database: label, call: name, 'req/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99,
      errors: result.errors + result.non2xx,
    });
  }
  await app.close();
  await database.close();
  return rows;
}

const rows = await measure('PGlite', await openDatabase({}));
rows.push(...(await onFreshPostgres('api', async (url) => measure('PostgreSQL', await openDatabase({ url })))));
console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s per call; login cost is dominated by scrypt (N=16384).`);
console.table(rows);
