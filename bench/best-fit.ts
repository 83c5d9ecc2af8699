/**
 * `npm run bench:best-fit -- [--calls 30] [--seed 7]`: best fit for one new visit over a busy day (issue 36).
 *
 * On PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set (a fresh database on that server), else on embedded
 * PGlite. Seeds a generated Brisbane day (bench/lib/homecare.ts: 320 visits / 40 practitioners, as bench:optimize
 * seeds it: homes, hours two hours longer than the generated ones, breaks, skills, clients with availability, booked
 * visits), then calls POST /api/visits/best_fit
 * over HTTP for a new client near one of the day's visits at a time (each of the four visit types in turn), half of
 * the calls with a window (09:00–12:00), and reports the answer time's p50 / p99 / max, and the fits offered. Best fit
 * must answer well under a second at p99.
 * OSRM_URL (when set) gives road travel instead of the default great-circle model.
 */
import pino from 'pino';
import { Temporal } from 'temporal-polyfill';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { appointments, appointmentTypes, clients, practitioners, type AvailabilityEntry } from '../server/src/db/schema';
import { createBusinessAccount } from '../server/src/modules/business-account';
import { generateHomecareDay } from './lib/homecare';
import { freshPostgres } from './lib/postgres';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const calls = Number(arg('calls') ?? 30);
const seed = Number(arg('seed') ?? 7);
const PASSWORD = 'benchmark password';
const TIME_ZONE = 'Australia/Brisbane';
const SKILLS = ['physio', 'ot', 'nursing', 'podiatry'];
const hhmm = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
const instantOn = (date: string, seconds: number) =>
  new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: TIME_ZONE }).epochMilliseconds + seconds * 1000);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const fresh = postgresUrl ? await freshPostgres(postgresUrl, 'best_fit') : null;
const database = await openDatabase(fresh ? { url: fresh.url } : {});
await migrate(database);
const config = {
  ...loadConfig({ ...process.env, APP_SECRET: 'bench-secret-bench-secret-bench-secret', DATABASE_URL: undefined }),
  requestsPerMinute: 1_000_000, runWorker: false, seedDemo: false, startSandbox: false,
};
const log = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
const ctx = createContext(config, database, log);
const app = await buildApp({ ctx, logger: log, spaDir: '/nonexistent' });
const base = await app.listen({ port: 0, host: '127.0.0.1' });

const DAY = Temporal.Now.plainDateISO(TIME_ZONE).add({ days: 7 }).toString();
const { business } = await createBusinessAccount(ctx.db, { name: 'Bench best fit', admin: { email: 'bench-fit@bench.test', password: PASSWORD, first_name: 'Ben', last_name: 'Fit' } });
const types = await ctx.db.insert(appointmentTypes).values(SKILLS.map((name) => ({ business_account_id: business.id, name, duration: 45 }))).returning();
const typeOf = new Map(SKILLS.map((skill, index) => [skill, types[index].id]));
const generated = generateHomecareDay(40, 320, seed);
const practitionerIds: number[] = [];
for (const [k, p] of generated.problem.practitioners.entries()) {
  // The generated day fills each shift; two more hours at its end leave room for a new visit to be offered.
  const hours = { start: hhmm(p.shift.start), end: hhmm(Math.min(p.shift.end + 2 * 3600, 23 * 3600)) };
  const [row] = await ctx.db.insert(practitioners).values({
    business_account_id: business.id, first_name: `P${k + 1}`, last_name: 'Bench', time_zone: TIME_ZONE,
    start_place_kind: 'home', home_address: `${k + 1} Bench St`, home_lat: p.startLocation.lat, home_lng: p.startLocation.lng,
    working_hours: Array.from({ length: 7 }, () => hours),
    ...(p.break ? { break_earliest: hhmm(p.break.earliestStart), break_latest: hhmm(p.break.latestStart), break_minutes: p.break.duration / 60 } : {}),
    skill_appointment_type_ids: p.skills!.map((skill) => typeOf.get(skill)!),
  }).returning();
  practitionerIds.push(row.id);
}
const dow = Temporal.PlainDate.from(DAY).dayOfWeek % 7;
const clientRows = await ctx.db.insert(clients).values(generated.problem.visits.map((visit, i) => ({
  business_account_id: business.id, first_name: `Client${i + 1}`, last_name: 'Bench', time_zone: TIME_ZONE, lat: visit.location.lat, lng: visit.location.lng,
  availability: (visit.timeWindows ? [{ dow, hours: visit.timeWindows.map((w) => `${hhmm(w.start)}-${hhmm(w.end + 60)}`) }] : []) as AvailabilityEntry[],
}))).returning({ id: clients.id });
const visitIndex = new Map(generated.problem.visits.map((visit, i) => [visit.id, i]));
const practitionerIndex = new Map(generated.problem.practitioners.map((p, k) => [p.id, k]));
const rows: (typeof appointments.$inferInsert)[] = [];
for (const route of generated.booked) {
  for (const stop of route.stops) {
    const i = visitIndex.get(stop.visitId)!;
    const visit = generated.problem.visits[i];
    const startsAt = instantOn(DAY, stop.start);
    rows.push({
      business_account_id: business.id, client_id: clientRows[i].id, practitioner_id: practitionerIds[practitionerIndex.get(route.practitionerId)!],
      appointment_type_id: typeOf.get(visit.requiredSkill!)!, starts_at: startsAt, ends_at: new Date(startsAt.getTime() + visit.duration * 1000),
      arrive_at: startsAt, lat: visit.location.lat, lng: visit.location.lng,
    });
  }
}
for (let i = 0; i < rows.length; i += 500) await ctx.db.insert(appointments).values(rows.slice(i, i + 500));

// The new visits' clients: new clients (no visit that day, any time) near the day's visits.
const newClients = await ctx.db.insert(clients).values(Array.from({ length: calls + 2 }, (_, i) => {
  const near = generated.problem.visits[(i * 37) % generated.problem.visits.length].location;
  return { business_account_id: business.id, first_name: `New${i + 1}`, last_name: 'Bench', time_zone: TIME_ZONE, lat: near.lat + 0.004, lng: near.lng - 0.004 };
})).returning({ id: clients.id });

const { token } = await (await fetch(`${base}/api/auth/login`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench-fit@bench.test', password: PASSWORD }),
})).json() as { token: string };

console.log(`bench:best-fit on ${database.kind}: ${rows.length} visits / ${practitionerIds.length} practitioners on ${DAY}, ${calls} calls, travel ${config.osrmUrl ? `OSRM ${config.osrmUrl}` : 'great-circle model (no OSRM_URL)'}`);
const times: number[] = [];
const offered: number[] = [];
for (let call = 0; call < calls + 2; call++) {
  const body = {
    client_id: newClients[call].id, appointment_type_id: types[call % types.length].id, date: DAY,
    ...(call % 2 === 0 ? {} : { window_start: '09:00', window_end: '12:00' }),
  };
  const started = performance.now();
  const response = await fetch(`${base}/api/visits/best_fit`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const json = await response.json() as { fits: unknown[] };
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`best_fit → ${response.status}: ${JSON.stringify(json)}`);
  // The first two warm up the server (prepared statements, JIT).
  if (call >= 2) {
    times.push(ms);
    offered.push(json.fits.length);
  }
}
times.sort((a, b) => a - b);
console.table([{
  'p50 ms': Math.round(quantile(times, 0.5)), 'p99 ms': Math.round(quantile(times, 0.99)), 'max ms': Math.round(times.at(-1)!),
  'fits offered (mean)': (offered.reduce((sum, n) => sum + n, 0) / offered.length).toFixed(1), 'calls with no fit': offered.filter((n) => n === 0).length,
}]);
await app.close();
await database.close();
await fresh?.drop();
