// `npm run bench:reminders`: throughput of the daily appointment-reminder batch (issue 14) — emails per second into
// the outbox (no SMTP_URL) for 20,000 clients who each have a visit tomorrow, through the product's own batch
// (list the day's reminders, claim them in chunks with a lease, issue each client's availability link, compose the
// plain-text and HTML parts, write the outbox row, mark the reminder sent). On embedded PGlite, and on PostgreSQL
// with TEST_DATABASE_URL (a fresh database, dropped afterwards) with one worker and with two workers sharing the batch.
// BENCH_RUNS runs each (default 3; the median is reported); BENCH_ONLY=pglite|postgres runs one database.
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { Temporal } from 'temporal-polyfill';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase, queryRows, type Database, type Db } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { appointments, clients, practitioners } from '../server/src/db/schema';
import { reminderRuns } from '../server/src/db/schema-reminders';
import { generateClients, generatePractitioners } from '../server/src/demo/generate';
import { runReminderBatch, type ReminderBatchResult } from '../server/src/modules/reminders';
import { SAMPLE_TIME_ZONE, SeededRandom } from '../server/src/sample-data';
import { freshPostgres } from './lib/postgres';
import { createBenchBusiness, insertInBatches } from './lib/seed';

const CLIENTS = 20_000;
const PRACTITIONERS = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const tomorrow = Temporal.Now.plainDateISO(SAMPLE_TIME_ZONE).add({ days: 1 });
const at = (minutes: number) => new Date(tomorrow.toZonedDateTime({ timeZone: SAMPLE_TIME_ZONE, plainTime: new Temporal.PlainTime(7) }).epochMilliseconds + minutes * 60_000);

/** One business, 20,000 clients with an email address and a visit tomorrow (half of them routed), 200 practitioners. */
async function seed(db: Db): Promise<number> {
  const random = new SeededRandom(14);
  const { businessAccountId } = await createBenchBusiness(db);
  const practitionerIds = (await db.insert(practitioners).values(generatePractitioners(random, PRACTITIONERS).map((p) => ({
    business_account_id: businessAccountId, first_name: p.first_name, last_name: p.last_name, time_zone: SAMPLE_TIME_ZONE,
  }))).returning({ id: practitioners.id })).map((row) => row.id);
  const clientIds: number[] = [];
  await insertInBatches(generateClients(random, CLIENTS), async (batch) => {
    const rows = await db.insert(clients).values(batch.map((c, index) => ({
      business_account_id: businessAccountId, first_name: c.first_name, last_name: c.last_name,
      email: c.email ?? `client${clientIds.length + index}@example.com`, phone_numbers: [{ number: c.phone, phone_type: 'Mobile' }], time_zone: SAMPLE_TIME_ZONE,
    }))).returning({ id: clients.id });
    clientIds.push(...rows.map((row) => row.id));
  });
  await insertInBatches(clientIds.map((clientId, index) => ({ clientId, index })), (batch) => db.insert(appointments).values(batch.map(({ clientId, index }) => {
    const startsAt = at((index % 20) * 30);
    return {
      business_account_id: businessAccountId, client_id: clientId, practitioner_id: practitionerIds[index % PRACTITIONERS],
      starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 45 * 60_000), arrive_at: index % 2 ? new Date(startsAt.getTime() + 10 * 60_000) : null,
    };
  })));
  await db.execute(sql`ANALYZE`);
  return businessAccountId;
}

/** Forgets every reminder, link and email, and hands tomorrow's batch out again (as the scheduler does at the hour). */
async function reset(db: Db, businessAccountId: number): Promise<void> {
  await db.execute(sql`DELETE FROM sent_reminders`);
  await db.execute(sql`DELETE FROM reminder_runs`);
  await db.execute(sql`DELETE FROM outbox_emails`);
  await db.execute(sql`DELETE FROM client_availability_requests`);
  await db.insert(reminderRuns).values({ business_account_id: businessAccountId, visit_date: tomorrow.toString(), due_at: new Date() });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(label: string, database: Database, workers: number[]) {
  await migrate(database);
  const seeded = performance.now();
  const businessAccountId = await seed(database.db);
  console.log(`${label}: seeded ${CLIENTS} clients with a visit on ${tomorrow} in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  const config = { ...loadConfig({ NODE_ENV: 'test', APP_SECRET: 'bench-secret-bench-secret-bench-secret-1' }), smtpUrl: undefined, sms: null };
  const ctx = createContext(config, database, pino({ level: 'silent' }));
  const rows = [];
  for (const workerCount of workers) {
    const rates: number[] = [];
    const seconds: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await reset(database.db, businessAccountId);
      const started = performance.now();
      const results: ReminderBatchResult[] = await Promise.all(Array.from({ length: workerCount }, (_, index) =>
        runReminderBatch(ctx, { businessAccountId, workerId: `bench-${index}` })));
      const elapsed = (performance.now() - started) / 1000;
      const sent = results.reduce((sum, result) => sum + result.sent, 0);
      const [{ emails }] = await queryRows<{ emails: number }>(database.db, sql`SELECT count(*)::int AS emails FROM outbox_emails`);
      if (sent !== CLIENTS || emails !== CLIENTS) throw new Error(`${label}: sent ${sent}, outbox ${emails}, expected ${CLIENTS} of each`);
      rates.push(sent / elapsed);
      seconds.push(elapsed);
      console.log(`  ${workerCount} worker(s), run ${run + 1}: ${sent} emails in ${elapsed.toFixed(1)} s = ${(sent / elapsed).toFixed(0)} emails/s`);
    }
    rows.push({ database: label, workers: workerCount, runs: RUNS, emails: CLIENTS, 'median s': Number(median(seconds).toFixed(1)), 'median emails/s': Math.round(median(rates)) });
  }
  await database.close();
  return rows;
}

const rows = [];
const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (process.env.BENCH_ONLY !== 'postgres') rows.push(...(await measure('PGlite', await openDatabase({}), [1])));
if (process.env.BENCH_ONLY !== 'pglite') {
  if (postgresUrl) {
    const { url, drop } = await freshPostgres(postgresUrl, 'reminders');
    try {
      rows.push(...(await measure('PostgreSQL', await openDatabase({ url, poolSize: 4 }), [1, 2])));
    } finally {
      await drop();
    }
  } else {
    console.log('PostgreSQL skipped: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.');
  }
}
console.log(`\nReminder batch throughput, ${CLIENTS} clients, one email each to the outbox (no SMTP); median of ${RUNS} runs.`);
console.table(rows);
