/**
 * `npm run bench:care-allocation -- [--seed 7] [--practitioners 40] [--visits 300]`: a care-plan allocation's proposal.
 *
 * On PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set (a fresh database on that server), else on embedded
 * PGlite. Seeds a business in Brisbane with 40 practitioners (homes across the metro area, 07:00–18:00 every day, two
 * or three of the demo's appointment types each) and 100 clients with care plans of 3 visits a week (Mon/Wed/Fri or
 * Tue/Thu/Sat, a 90-minute window in the morning, midday or afternoon, 30–60 minutes) — 300 open visits in a week —
 * then generates the week's open visits and works out the allocation as the CARE_ALLOCATION job does, and prints: time
 * to the proposal, visits placed and unplaced, travel added, distinct carers per client (max and median; a client
 * with 3 visits a week should see at most 2), visits per practitioner over the week, and the hard breaks the placements add by the day checker (must be 0).
 */
import pino from 'pino';
import { Temporal } from 'temporal-polyfill';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { clients, practitioners } from '../server/src/db/schema';
import { carePlans } from '../server/src/db/schema-care';
import { allocate, generateOpenVisits } from '../server/src/modules/care';
import { Rng } from '../server/src/optimizer/rng';
import { SAMPLE_TIME_ZONE } from '../server/src/sample-data';
import { freshPostgres } from './lib/postgres';
import { createBenchBusiness, insertInBatches } from './lib/seed';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const seed = Number(arg('seed') ?? 7);
const practitionerCount = Number(arg('practitioners') ?? 40);
const visitCount = Number(arg('visits') ?? 300);
const BRISBANE = { lat: -27.4698, lng: 153.0251 };

const rng = new Rng(seed);
const near = (km: number) => {
  const r = km * Math.sqrt(-2 * Math.log(Math.max(1e-12, rng.next())));
  const a = rng.next() * 2 * Math.PI;
  return { lat: BRISBANE.lat + (r * Math.cos(a)) / 111.32, lng: BRISBANE.lng + (r * Math.sin(a)) / (111.32 * Math.cos((BRISBANE.lat * Math.PI) / 180)) };
};

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const fresh = postgresUrl ? await freshPostgres(postgresUrl, 'care_allocation') : null;
const database = await openDatabase(fresh ? { url: fresh.url } : {});
await migrate(database);
const config = { ...loadConfig({ ...process.env, APP_SECRET: 'bench-secret-bench-secret-bench-secret', DATABASE_URL: undefined }), runWorker: false, seedDemo: false, startSandbox: false };
const ctx = createContext(config, database, pino({ level: 'silent' }));
const { db } = ctx;

const { businessAccountId, typeIds } = await createBenchBusiness(db);
const everyDay = Array.from({ length: 7 }, () => ({ start: '07:00', end: '18:00' }));
await insertInBatches(Array.from({ length: practitionerCount }, (_, index) => {
  const home = near(9);
  const skills = [...new Set([typeIds[index % typeIds.length], typeIds[(index + 1) % typeIds.length], ...(index % 2 ? [typeIds[(index + 3) % typeIds.length]] : [])])];
  return {
    business_account_id: businessAccountId, first_name: 'Carer', last_name: String(index + 1), start_place_kind: 'home' as const, home_address: `${index + 1} Home St`,
    home_lat: home.lat, home_lng: home.lng, working_hours: everyDay, pms_appointment_type_ids: skills.sort((a, b) => a - b),
  };
}), (batch) => db.insert(practitioners).values(batch));

const clientCount = Math.ceil(visitCount / 3);
const clientRows = await db.insert(clients).values(Array.from({ length: clientCount }, (_, index) => {
  const point = near(8);
  return {
    business_account_id: businessAccountId, first_name: 'Client', last_name: String(index + 1), lat: point.lat, lng: point.lng,
    geo_precision: 'address' as const, geo_source: 'pms' as const, time_zone: SAMPLE_TIME_ZONE,
  };
})).returning({ id: clients.id });
// The week after next, from its Monday.
const today = Temporal.Now.plainDateISO(SAMPLE_TIME_ZONE);
const monday = today.add({ days: 14 - (today.dayOfWeek - 1) }).toString();
const sunday = Temporal.PlainDate.from(monday).add({ days: 6 }).toString();
const WINDOWS = [[7 * 60 + 30, 9 * 60], [9 * 60 + 30, 11 * 60], [12 * 60, 13 * 60 + 30], [14 * 60, 15 * 60 + 30]];
await db.insert(carePlans).values(clientRows.map((client, index) => {
  const [start, end] = WINDOWS[rng.int(WINDOWS.length)];
  return {
    business_account_id: businessAccountId, client_id: client.id, appointment_type_id: typeIds[rng.int(typeIds.length)], weekdays: index % 2 ? [2, 4, 6] : [1, 3, 5],
    window_start: start, window_end: end, duration_minutes: [30, 45, 45, 60][rng.int(4)], starts_on: monday,
  };
}));

const generated = await db.transaction((tx) => generateOpenVisits(tx, businessAccountId, SAMPLE_TIME_ZONE, monday, sunday));
const started = performance.now();
const result = await allocate(ctx, businessAccountId, monday, sunday);
const elapsed = performance.now() - started;

const carers = result.figures.carers_by_client.map((entry) => entry.carers).sort((a, b) => a - b);
const median = carers[Math.floor(carers.length / 2)] ?? 0;
const perPractitioner = [...result.visits.reduce((counts, visit) => (visit.practitioner ? counts.set(visit.practitioner.id, (counts.get(visit.practitioner.id) ?? 0) + 1) : counts), new Map<number, number>()).values()]
  .sort((a, b) => a - b);
const unplacedReasons = new Map<string, number>();
for (const visit of result.visits) if (visit.reason) {
  const key = visit.reason.replace(/ on .*$/, '');
  unplacedReasons.set(key, (unplacedReasons.get(key) ?? 0) + 1);
}
console.table([{
  database: fresh ? 'PostgreSQL' : 'PGlite',
  week: `${monday} – ${sunday}`,
  practitioners: practitionerCount,
  'open visits': generated.length,
  'time to proposal (s)': (elapsed / 1000).toFixed(2),
  placed: result.figures.placed,
  unplaced: result.figures.unplaced,
  'travel added (h)': (result.figures.added_travel_seconds / 3600).toFixed(1),
  'carers per client max / median': `${carers.at(-1) ?? 0} / ${median}`,
  'clients with > 2 carers': carers.filter((count) => count > 2).length,
  'visits per practitioner max / median': `${perPractitioner.at(-1) ?? 0} / ${perPractitioner[Math.floor(perPractitioner.length / 2)] ?? 0}`,
  'hard breaks': result.figures.hard_breaks,
}]);
if (unplacedReasons.size) console.log('Unplaced:', Object.fromEntries(unplacedReasons));
if (result.figures.hard_breaks !== 0) process.exitCode = 1;
await database.close();
await fresh?.drop();
