// `npm run bench:reports`: latency of every report, the dashboard and the nearby search over a month of 200,000
// appointments for 20,000 clients and 1,600 practitioners with homes and working hours (half the visits with an
// arrival-time change, for the Activity report), on PostgreSQL (TEST_DATABASE_URL or DATABASE_URL; a fresh database,
// dropped afterwards) — and on embedded PGlite with BENCH_ONLY=pglite. Each call runs against the real product in
// its own process, one connection at a time for BENCH_SECONDS (default 10), measured with autocannon; a report not
// built yet (404) is listed as such. BENCH_CALLS=appointments,dashboard measures only the calls whose name contains
// one of those words; the calls kept in the reports' list cache are also timed on their first read after a change
// (PostgreSQL). BENCH_KEEP_DB=1 keeps the seeded database and BENCH_DATABASE_URL=<its url> measures on it again.
// Goal (issue 13): p99 under 300 ms on PostgreSQL.
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Temporal } from 'temporal-polyfill';
import { openDatabase, type Database, type Db } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { appointments, clients, practitioners, versions } from '../server/src/db/schema';
import { generateAppointments, generateClients, generatePractitioners } from '../server/src/demo/generate';
import { SAMPLE_TIME_ZONE, SeededRandom } from '../server/src/sample-data';
import { startProduct } from '../tests/e2e/support/server';
import { freshPostgres } from './lib/postgres';
import { BENCH_EMAIL, BENCH_PASSWORD, createBenchBusiness, insertInBatches } from './lib/seed';

const CLIENTS = 20_000;
const APPOINTMENTS = 200_000;
const PRACTITIONERS = 1_600;
const MONTH = { start: '2026-03-01', end: '2026-03-31' };
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WEEKDAYS_8_TO_5 = [0, 1, 2, 3, 4].map(() => ({ start: '08:00', end: '17:00' }));

const range = `start_date=${MONTH.start}&end_date=${MONTH.end}`;
/** Every report's page as it first asks (the month; the big tables' first page of 50, ADR 0018), and the dashboard. */
const CALLS: [string, string][] = [
  ['activity', `/api/reports/activity?${range}&per_page=50`],
  ['appointments', `/api/reports/appointments?${range}`],
  ['practitioner travel', `/api/reports/practitioner-travel?${range}`],
  ['practitioner performance', `/api/reports/practitioner-performance?${range}`],
  ['clients missing address', `/api/reports/clients-missing-address?${range}`],
  ['clients missing address (every client)', '/api/reports/clients-missing-address'],
  ['client travel', `/api/reports/client-travel?${range}&per_page=50`],
  // What its Download CSV asks for: every client (not a page view; not under the goal).
  ['client travel: every row (the CSV)', `/api/reports/client-travel?${range}`],
  ['visit verification', `/api/reports/visit-verification?${range}&per_page=50`],
  // What its Download CSV asks for: every visit of the month (the EVV export).
  ['visit verification: every row (the CSV)', `/api/reports/visit-verification?${range}`],
  ['client geography', `/api/reports/client-geography?${range}&per_page=50`],
  ['client geography (every client)', '/api/reports/client-geography?per_page=50'],
  ['dashboard', '/api/dashboard'],
  // The bench's visits are in March: the dashboard as it looks on one of its busy days.
  ['dashboard (a busy day of the month)', '/api/dashboard?date=2026-03-10'],
  ['nearby search (20 km from a point, a weekday)', '/api/search/nearby?lat=-27.47&lng=153.02&date=2026-03-17'],
];
/** BENCH_CALLS: comma-separated words; only the calls whose name contains one of them are measured (default: all). */
const callFilter = (process.env.BENCH_CALLS ?? '').split(',').map((word) => word.trim().toLowerCase()).filter(Boolean);
const chosenCalls = callFilter.length ? CALLS.filter(([name]) => callFilter.some((word) => name.toLowerCase().includes(word))) : CALLS;


/** One business: its clients, practitioners (homes, weekday hours) and a month of visits (deterministic). */
async function seed(db: Db): Promise<void> {
  const started = performance.now();
  const random = new SeededRandom(13);
  const { businessAccountId, locationIds, typeIds } = await createBenchBusiness(db);
  const generatedPractitioners = generatePractitioners(random, PRACTITIONERS);
  const practitionerIds: number[] = [];
  await insertInBatches(generatedPractitioners, async (batch) => {
    const rows = await db.insert(practitioners).values(batch.map((p) => ({
      business_account_id: businessAccountId, first_name: p.first_name, last_name: p.last_name, profession: p.profession, active: p.active,
      time_zone: SAMPLE_TIME_ZONE, start_place_kind: 'home' as const, home_address: `${p.home.address_1}, ${p.home.city}`, home_lat: p.home.lat, home_lng: p.home.lng,
      home_geo_precision: 'street' as const, home_geo_source: 'sandbox' as const, working_hours: [...WEEKDAYS_8_TO_5, null, null],
    }))).returning({ id: practitioners.id });
    practitionerIds.push(...rows.map((row) => row.id));
  });
  const generatedClients = generateClients(random, CLIENTS);
  const clientIds: number[] = [];
  await insertInBatches(generatedClients, async (batch) => {
    const rows = await db.insert(clients).values(batch.map((c) => ({
      business_account_id: businessAccountId, first_name: c.first_name, last_name: c.last_name, dob: c.dob, email: c.email,
      phone_numbers: [{ number: c.phone, phone_type: 'Mobile' }], time_zone: SAMPLE_TIME_ZONE, availability: c.availability,
      ...(c.address ? { ...c.address, geo_precision: 'street' as const, geo_source: 'sandbox' as const } : {}),
    }))).returning({ id: clients.id });
    clientIds.push(...rows.map((row) => row.id));
  });
  const first = Temporal.PlainDate.from(MONTH.start);
  const generated = generateAppointments(random, {
    practitioners: generatedPractitioners, clientCount: CLIENTS, firstDay: first, days: first.daysInMonth,
  }).slice(0, APPOINTMENTS);
  const visits: { id: number; starts_at: Date }[] = [];
  await insertInBatches(generated, async (batch) => {
    visits.push(...await db.insert(appointments).values(batch.map((a) => {
      const client = generatedClients[a.clientIndex];
      return {
        business_account_id: businessAccountId, client_id: clientIds[a.clientIndex], practitioner_id: practitionerIds[a.practitionerIndex],
        appointment_type_id: typeIds[a.typeIndex], business_location_id: locationIds[a.locationIndex],
        starts_at: a.starts_at, ends_at: a.ends_at, arrive_at: a.starts_at, notes: a.notes, ...(client.address ?? {}),
      };
    })).returning({ id: appointments.id, starts_at: appointments.starts_at }));
  });
  // The Activity report's rows: every other visit had its arrival time changed by a coordinator the day before.
  const changed = visits.filter((_, index) => index % 2 === 0);
  await insertInBatches(changed, (batch) => db.insert(versions).values(batch.map((visit) => ({
    business_account_id: businessAccountId, item_type: 'Appointment', item_id: visit.id, event: 'update', whodunnit: 'Ben Bench',
    object_changes: { arrive_at: [new Date(visit.starts_at.getTime() - 15 * 60_000).toISOString(), visit.starts_at.toISOString()] } as Record<string, [unknown, unknown]>,
    created_at: new Date(visit.starts_at.getTime() - 24 * 3600_000),
  }))));
  await db.execute(sql`VACUUM ANALYZE`);
  console.log(`  seeded ${CLIENTS} clients, ${PRACTITIONERS} practitioners, ${generated.length} appointments in ${MONTH.start.slice(0, 7)} and ${changed.length} arrival-time changes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function measure(label: string, database: Database, serverEnv: Record<string, string>, seeded = false) {
  console.log(`${label}:`);
  await migrate(database);
  if (seeded) await database.db.execute(sql`ANALYZE`);
  else await seed(database.db);
  await database.close();
  const product = await startProduct({
    ...serverEnv, SEED_DEMO: 'false', START_SANDBOX: 'false', RATE_LIMIT_PER_MINUTE: '1000000', LOGIN_MAX_FAILURES: '1000', LOG_LEVEL: 'warn',
  });
  try {
    const login = await fetch(`${product.url}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const rows = [];
    for (const [name, path] of chosenCalls) {
      const probe = await fetch(`${product.url}${path}`, { headers });
      if (probe.status !== 200) {
        rows.push({ database: label, call: name, status: probe.status === 404 ? 'not built' : `HTTP ${probe.status}` });
        continue;
      }
      const size = Buffer.byteLength(await probe.text());
      const result = await autocannon({ url: `${product.url}${path}`, connections: 1, duration: DURATION_SECONDS, headers });
      rows.push({
        database: label, call: name, status: 'ok', 'req/s': Number(result.requests.average.toFixed(1)), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99,
        'max ms': result.latency.max, 'KB/resp': Math.round(size / 1024), errors: result.errors + result.non2xx,
      });
    }
    rows.push(...await firstReads(product.url, headers, serverEnv.DATABASE_URL, label));
    return rows;
  } finally {
    await product.stop();
  }
}

/** The calls whose answers are kept in the reports' list cache (ADR 0018's addendum): measured after a change too. */
const CACHED_CALLS = ['appointments', 'practitioner performance', 'client geography'];
const FIRST_READ_ROUNDS = 10;

/**
 * The first read after a change (PostgreSQL only: the server holds an embedded database alone): each round changes
 * one visit's notes (which moves lists_version but no travel summary day) and times one request; median and slowest.
 */
async function firstReads(url: string, headers: Record<string, string>, databaseUrl: string | undefined, label: string) {
  if (!databaseUrl) return [];
  const writer = new pg.Client({ connectionString: databaseUrl });
  await writer.connect();
  try {
    const rows = [];
    for (const [name, path] of chosenCalls.filter(([name]) => CACHED_CALLS.some((cached) => name.startsWith(cached)))) {
      const times: number[] = [];
      for (let round = 0; round < FIRST_READ_ROUNDS; round++) {
        await writer.query('UPDATE appointments SET notes = notes WHERE id = (SELECT min(id) FROM appointments)');
        const started = performance.now();
        const response = await fetch(`${url}${path}`, { headers });
        await response.text();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      rows.push({ database: label, call: `${name}: first read after a change`, status: 'ok', 'p50 ms': Math.round(times[times.length >> 1]), 'max ms': Math.round(times.at(-1)!) });
    }
    return rows;
  } finally {
    await writer.end();
  }
}

const rows = [];
const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (process.env.BENCH_ONLY === 'pglite') {
  const dataDir = mkdtempSync(join(tmpdir(), 'rounds-bench-reports-'));
  try {
    rows.push(...(await measure('PGlite', await openDatabase({ dataDir }), { DATA_DIR: dataDir, DATABASE_URL: '' })));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
} else if (process.env.BENCH_DATABASE_URL) {
  // A database a run kept (BENCH_KEEP_DB=1): migrated to this branch, not seeded again, kept (compare branches on
  // the same data without seeding for minutes).
  const url = process.env.BENCH_DATABASE_URL;
  rows.push(...(await measure('PostgreSQL (kept)', await openDatabase({ url }), { DATABASE_URL: url }, true)));
} else if (postgresUrl) {
  const { url, drop } = await freshPostgres(postgresUrl, 'reports');
  try {
    rows.push(...(await measure('PostgreSQL', await openDatabase({ url }), { DATABASE_URL: url })));
  } finally {
    // BENCH_KEEP_DB=1 keeps the seeded database (its name is printed) to look at the plans afterwards.
    if (process.env.BENCH_KEEP_DB === '1') console.log(`  kept the database ${url}`);
    else await drop();
  }
} else {
  console.log('Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (or BENCH_ONLY=pglite for the embedded database).');
}
console.log(`\n1 connection, ${DURATION_SECONDS} s per call, the month ${MONTH.start} – ${MONTH.end}; goal: p99 under 300 ms on PostgreSQL.`);
console.table(rows);
