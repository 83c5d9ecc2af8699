// `npm run bench:lists`: latency of the clients list (page 1, plain and searched) and of the appointments range
// with 20,000 clients and 200,000 appointments, on embedded PGlite and (when TEST_DATABASE_URL or DATABASE_URL is
// set) on PostgreSQL. The appointments calls are the page's own: the day schedule's whole day and the table's pages
// of a week (the first and a late one); the whole week unpaged is measured too, for comparison. Each runs against
// the real product in its own process and is measured with autocannon; the appointments calls run again with the
// list cache off.
// BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 4), BENCH_ONLY=pglite|postgres.
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Temporal } from 'temporal-polyfill';
import { openDatabase, queryRows, type Database, type Db } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { appointments, clients, clientTags, practitioners, tags } from '../server/src/db/schema';
import { generateAppointments, generateClients, generatePractitioners } from '../server/src/demo/generate';
import { SAMPLE_TIME_ZONE, SeededRandom } from '../server/src/sample-data';
import { startProduct } from '../tests/e2e/support/server';
import { freshPostgres } from './lib/postgres';
import { BENCH_EMAIL, BENCH_PASSWORD, createBenchBusiness, insertInBatches } from './lib/seed';

const CLIENTS = 20_000;
const APPOINTMENTS = 200_000;
const PRACTITIONERS = 60;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
/** The visits run from here for as many weekdays as 200,000 appointments take (about two and a half years). */
const FIRST_DAY = Temporal.PlainDate.from('2025-01-06');
const WEEK = { start: '2026-03-02', end: '2026-03-08' };


/** Seeds one business with the benchmark's clients and appointments (deterministic). */
export async function seedListsData(db: Db): Promise<void> {
  const started = performance.now();
  const random = new SeededRandom(5);
  const { businessAccountId, locationIds, typeIds } = await createBenchBusiness(db);
  const generatedPractitioners = generatePractitioners(random, PRACTITIONERS);
  const practitionerIds = (await db.insert(practitioners).values(generatedPractitioners.map((p) => ({
    business_account_id: businessAccountId, first_name: p.first_name, last_name: p.last_name, profession: p.profession, active: p.active, time_zone: SAMPLE_TIME_ZONE,
  }))).returning({ id: practitioners.id })).map((row) => row.id);
  const tagIds = (await db.insert(tags).values(['High needs', 'Falls risk', 'Diabetic', 'Key safe', 'Interpreter'].map((name) => ({ business_account_id: businessAccountId, name })))
    .returning({ id: tags.id })).map((row) => row.id);

  const generatedClients = generateClients(random, CLIENTS);
  const clientIds: number[] = [];
  await insertInBatches(generatedClients, async (batch) => {
    const rows = await db.insert(clients).values(batch.map((c) => ({
      business_account_id: businessAccountId, first_name: c.first_name, last_name: c.last_name, dob: c.dob, email: c.email,
      phone_numbers: [{ number: c.phone, phone_type: 'Mobile' }], time_zone: SAMPLE_TIME_ZONE, availability: c.availability, ...(c.address ?? {}),
    }))).returning({ id: clients.id });
    clientIds.push(...rows.map((row) => row.id));
  });
  const taggings = clientIds.filter((_, index) => index % 4 === 0).map((client_id, index) => ({ client_id, tag_id: tagIds[index % tagIds.length] }));
  await insertInBatches(taggings, (batch) => db.insert(clientTags).values(batch));

  const weekdays = Math.ceil(APPOINTMENTS / (generatedPractitioners.filter((p) => p.active).length * 5.5)) + 10;
  const generated = generateAppointments(random, {
    practitioners: generatedPractitioners, clientCount: CLIENTS, firstDay: FIRST_DAY, days: Math.ceil(weekdays * 7 / 5),
  }).slice(0, APPOINTMENTS);
  await insertInBatches(generated, (batch) => db.insert(appointments).values(batch.map((a) => {
    const client = generatedClients[a.clientIndex];
    return {
      business_account_id: businessAccountId, client_id: clientIds[a.clientIndex], practitioner_id: practitionerIds[a.practitionerIndex],
      appointment_type_id: typeIds[a.typeIndex], business_location_id: locationIds[a.locationIndex],
      starts_at: a.starts_at, ends_at: a.ends_at, arrive_at: a.starts_at, notes: a.notes, ...(client.address ?? {}),
    };
  })));
  // The state autovacuum keeps a live database in: statistics gathered, visibility map set.
  await db.execute(sql`VACUUM ANALYZE`);
  const last = generated[generated.length - 1].starts_at.toISOString().slice(0, 10);
  console.log(`  seeded ${CLIENTS} clients and ${generated.length} appointments (${FIRST_DAY} to ${last}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Prints how the database runs a clients search: it must be a trigram index lookup, not a scan. */
async function showSearchPlan(db: Db) {
  const plan = await queryRows<{ 'QUERY PLAN': string }>(db, sql`EXPLAIN ANALYZE SELECT count(*) FROM clients c
    WHERE c.business_account_id = 1 AND c.search_text LIKE '%harrison%' AND c.search_text LIKE '%khan%'`);
  const lines = plan.map((row) => row['QUERY PLAN']);
  const scan = lines.find((line) => /Scan on clients|Scan using|Index Scan on/.test(line))?.trim();
  console.log(`  search plan: ${scan}; ${lines.find((line) => line.startsWith('Execution Time'))}`);
}

/**
 * Seeds the database, closes it, and measures the product started on it in a process of its own (as `npm start`
 * runs it), so the load generator here does not share the server's event loop.
 */
const CLIENT_CALLS: [string, string][] = [
  ['clients page 1', '/api/clients?page=1&per_page=10'],
  ['clients q=smith', '/api/clients?page=1&per_page=10&q=smith'],
  ['clients q=0412 (phone)', '/api/clients?page=1&per_page=10&q=0412'],
  ['clients sort=suburb p50', '/api/clients?page=50&per_page=20&sort=suburb'],
];
const APPOINTMENT_CALLS: [string, string][] = [
  ['appointments day (schedule)', `/api/appointments?start_date=${WEEK.start}&end_date=${WEEK.start}`],
  ['appointments week, page 1 of 30', `/api/appointments?start_date=${WEEK.start}&end_date=${WEEK.end}&page=1&per_page=50`],
  ['appointments week, page 29 of 30', `/api/appointments?start_date=${WEEK.start}&end_date=${WEEK.end}&page=29&per_page=50`],
  ['appointments week, unpaged', `/api/appointments?start_date=${WEEK.start}&end_date=${WEEK.end}`],
];

/**
 * Seeds the database, closes it, and measures the product started on it in a process of its own (as `npm start`
 * runs it), so the load generator here does not share the server's event loop. The appointments calls run twice:
 * as configured (repeated reads of an unchanged schedule come from the list cache) and with the cache off (every
 * read runs the query).
 */
async function measure(label: string, database: Database, serverEnv: Record<string, string>) {
  console.log(`${label}:`);
  await migrate(database);
  await seedListsData(database.db);
  await showSearchPlan(database.db);
  await database.close();
  const runs: [string, Record<string, string>, [string, string][]][] = [
    [label, {}, [...CLIENT_CALLS, ...APPOINTMENT_CALLS]],
    [`${label}, no list cache`, { LIST_CACHE_MB: '0' }, [...CLIENT_CALLS, ...APPOINTMENT_CALLS]],
  ];
  const rows = [];
  for (const [runLabel, extraEnv, calls] of runs) {
    const product = await startProduct({
      ...serverEnv, SEED_DEMO: 'false', START_SANDBOX: 'false', RATE_LIMIT_PER_MINUTE: '1000000', LOGIN_MAX_FAILURES: '1000', LOG_LEVEL: 'warn',
      ...extraEnv,
    });
    try {
      rows.push(...(await measureCalls(runLabel, product.url, calls)));
    } finally {
      await product.stop();
    }
  }
  return rows;
}

async function measureCalls(label: string, url: string, calls: [string, string][]) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const rows = [];
  for (const [name, path] of calls) {
    const probe = await fetch(`${url}${path}`, { headers });
    const body = (await probe.json()) as { clients?: unknown[]; appointments?: unknown[]; meta?: { total: number } };
    const size = `${(body.appointments ?? body.clients)!.length} of ${body.meta!.total}`;
    const result = await autocannon({ url: `${url}${path}`, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
    rows.push({
      database: label, call: name, rows: size, 'req/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99,
      'KB/resp': Math.round(result.throughput.average / Math.max(1, result.requests.average) / 1024), errors: result.errors + result.non2xx,
    });
  }
  return rows;
}

async function main() {
  const only = process.env.BENCH_ONLY;
  const rows = [];
  if (only !== 'postgres') {
    const dataDir = mkdtempSync(join(tmpdir(), 'rounds-bench-lists-'));
    try {
      rows.push(...(await measure('PGlite', await openDatabase({ dataDir }), { DATA_DIR: dataDir, DATABASE_URL: '' })));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (postgresUrl && only !== 'pglite') {
    const { url, drop } = await freshPostgres(postgresUrl, 'lists');
    try {
      rows.push(...(await measure('PostgreSQL', await openDatabase({ url }), { DATABASE_URL: url })));
    } finally {
      await drop();
    }
  } else if (!postgresUrl) {
    console.log('(PostgreSQL skipped: set TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/test)');
  }
  console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s per call, ${CLIENTS} clients, ${APPOINTMENTS} appointments, ${PRACTITIONERS} practitioners.`);
  console.table(rows);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
