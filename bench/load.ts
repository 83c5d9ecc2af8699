/**
 * `npm run bench:load -- [--long] [--vus 50] [--seconds 60] [--think-ms 300] [--lists]`: the product under a mixed load
 * on PostgreSQL (TEST_DATABASE_URL or DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a fresh
 * database, dropped afterwards).
 *
 * Set-up: the Cliniko sandbox in a child process (with enough practitioners for a login each: 50 for 200 virtual
 * users); each of its active practitioners with no visit today gets their nearest day's visits moved to today through
 * its API (it books weekdays only), so there is a day to step whatever day the bench runs; the demo business seeded by
 * a real import from it (~400 clients, four weeks of visits around today) plus coordinator logins and a practitioner
 * login for each practitioner virtual user (linked to a practitioner with visits today); then two API processes (each
 * with its own job worker and its own list cache) and one extra worker process (`npm run worker`), all on that database.
 *
 * The mixed run (default: 50 virtual users for 60 s; --long: 200 for 10 minutes): each virtual user is a
 * coordinator (4 in 5) or a practitioner, on one of the two APIs, and does what the app's pages call, with
 * `--think-ms` (random 0–2×) between steps. Coordinators: the day schedule (day list, routes, travel), an
 * appointment's window (details, change log), an arrival-time change (a refusal by the rule book, 409 RULES_BROKEN, is
 * an expected answer), a page of the week's table, a page of the clients list (sometimes searched), a client's window,
 * availability and tag changes; and all along each keeps today's schedule open, read again every 15 s as the web app
 * does. Practitioners (bench/lib/visit-day.ts): each steps through their visits of today in order — On my way →
 * Arrived → Done, some Could not attend — paced over the run, reading their day again after each step; a visit earlier
 * in the day is stepped with its `at` in the past, as a late phone would; some steps are sent again with the same
 * idempotency key after the answer (an outbox retry), a few twice at once through both APIs. Once their day is done
 * they read it and a visit now and then. An admin starts an import and an optimisation run through the API during the
 * run. Meanwhile a checker writes through one API and reads the lists through the other. At the end the steps sent
 * are checked against the visit_steps table (none lost, none stored twice, each visit in its last step's state), and
 * for each stored step the time from its recorded_at to the first coordinator's read that showed it is measured
 * (goal p99 ≤ 15 s). Any stale list, unexpected non-2xx answer, lost or duplicated step, or a p99 over 15 s fails
 * the run (exit code 1).
 *
 * Memory: RSS and event-loop delay from each API's /metrics, and 12 times a run each process's live heap after a forced
 * full collection (through its inspector, `--inspect` on a port of its own): RSS grows while V8 grows its heap, the
 * live heap grows only with what the process keeps. `--heap-snapshots` also writes each API's heap at the end of the
 * first quarter and at the end to tmp/heap (compare them with `npx tsx bench/heap-diff.ts first end`; the snapshots
 * pause the processes for seconds, so the latencies of that run are not figures).
 *
 * --lists: the issue's list goal instead — the appointments day list and the clients list, each with `--vus`
 * (default 50) connections and no think time for `--seconds` (default 30), spread over both APIs; goal p99 < 150 ms.
 *
 * Prints tables and writes everything to tmp/load-<time>.json. Absolute figures depend on the machine: on a shared
 * one, compare medians of a few runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { Agent, request } from 'undici';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase, queryRows } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { DEMO_PASSWORD, DEMO_USERS, seedDemoFromPms } from '../server/src/demo/seed';
import { createUser } from '../server/src/modules/business-account';
import { SANDBOX_DEMO_API_KEY } from '../server/src/pms/sandbox';
import { SAMPLE_TIME_ZONE } from '../server/src/sample-data';
import { freePort, startProduct, type RunningProduct } from '../tests/e2e/support/server';
import { InspectorClient, type HeapFigures } from './lib/inspector';
import { freshPostgres } from './lib/postgres';
import { checkSteps, LIVE_REFRESH_MS, LiveView, SteppingPractitioner, stepsMet, visitsForToday, type StepCheck } from './lib/visit-day';

// ---- options ----
const argv = process.argv.slice(2);
const option = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const LONG = argv.includes('--long');
const LISTS = argv.includes('--lists');
const VUS = Number(option('vus') ?? (LONG ? 200 : 50));
const SECONDS = Number(option('seconds') ?? (LISTS ? 30 : LONG ? 600 : 60));
const THINK_MS = Number(option('think-ms') ?? 300);
/** --cpu-prof: each API process writes a V8 CPU profile into tmp/cpu-prof when it stops (open it in Chrome DevTools). */
const CPU_PROF = argv.includes('--cpu-prof');
/** --heap-snapshots: each API process's heap at the end of the first quarter and at the end, in tmp/heap (bench/heap-diff.ts). */
const HEAP_SNAPSHOTS = argv.includes('--heap-snapshots');
/** Forced full collections (and live-heap readings) per process over a mixed run. */
const HEAP_SAMPLES = 12;
const PASSWORD = 'benchmark password';
const APP_SECRET = 'bench-secret-bench-secret-bench-secret';
const COORDINATORS = 5;
/** One virtual user in five is a practitioner stepping through their day, each with a login of their own (40 at 200). */
const PRACTITIONER_USERS = LISTS ? 10 : Math.max(1, Math.round(VUS / 5));
/** The sandbox's practitioners (a fifth of them inactive): enough active ones for a login each, 15 at least (its default). */
const SANDBOX_PRACTITIONERS = Math.max(15, Math.ceil(PRACTITIONER_USERS / 0.8));

// ---- small helpers ----
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const chance = (p: number) => Math.random() < p;
const think = () => (THINK_MS > 0 ? sleep(Math.random() * 2 * THINK_MS) : Promise.resolve());
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);
const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const today = Temporal.Now.plainDateISO(SAMPLE_TIME_ZONE);
const dayOffset = (days: number) => today.add({ days }).toString();

// ---- HTTP with per-call figures ----
const agent = new Agent({ connections: 512, keepAliveTimeout: 30_000 });
const figures = new Map<string, { latencies: number[]; errors: number; statuses: Record<number, number> }>();
const errorSamples: string[] = [];

/** One call: its latency goes under `name`; a non-2xx answer counts as an error unless it is in `expected`. */
async function call(base: string, token: string, name: string, method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, expected: number[] = []) {
  const started = performance.now();
  let status = 0;
  let json: any;
  try {
    const response = await request(`${base}/api${path}`, {
      method, dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    status = response.statusCode;
    const text = await response.body.text();
    json = text ? JSON.parse(text) : null;
  } catch (error) {
    json = { message: String(error) };
  }
  const entry = figures.get(name) ?? { latencies: [], errors: 0, statuses: {} };
  figures.set(name, entry);
  entry.latencies.push(performance.now() - started);
  entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
  const ok = status >= 200 && status < 300;
  if (!ok && !expected.includes(status)) {
    entry.errors += 1;
    if (errorSamples.length < 20) errorSamples.push(`${method} ${path} → ${status}: ${JSON.stringify(json).slice(0, 200)}`);
  }
  return { status, ok, json };
}

/** A non-2xx answer `call` was told to expect that is an error after all (it said something else than expected). */
function countError(name: string, line: string) {
  const entry = figures.get(name);
  if (entry) entry.errors += 1;
  if (errorSamples.length < 20) errorSamples.push(line);
}

async function login(base: string, email: string, password = PASSWORD): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login ${email} → ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

// ---- set-up: sandbox, seed, processes ----
async function startSandbox(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/pms/sandbox/cli.ts'], {
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_PRACTITIONERS: String(SANDBOX_PRACTITIONERS) }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = /listening on (\S+)/.exec(line);
    if (match) return { url: match[1], child };
  }
  throw new Error('the sandbox did not start');
}

/** The demo business through a real import from the sandbox, plus coordinators and practitioners who log in. */
async function seed(databaseUrl: string, sandboxUrl: string) {
  const started = performance.now();
  const database = await openDatabase({ url: databaseUrl });
  await migrate(database);
  const config = { ...loadConfig({ APP_SECRET }), clinikoBaseUrl: sandboxUrl };
  const ctx = createContext(config, database, pino({ level: 'silent' }));
  // The sandbox books weekdays only: each practitioner without a visit today gets their nearest day's, so there is a
  // day to step whatever day the bench runs.
  const moved = await visitsForToday(sandboxUrl, SANDBOX_DEMO_API_KEY, today, SAMPLE_TIME_ZONE);
  await seedDemoFromPms(ctx, SANDBOX_DEMO_API_KEY);
  const [business] = await queryRows<{ id: number }>(ctx.db, sql`SELECT id FROM business_accounts ORDER BY id LIMIT 1`);
  for (let i = 1; i <= COORDINATORS; i++) {
    await createUser(ctx.db, { businessAccountId: business.id, email: `coordinator${i}@bench.test`, password: PASSWORD, first_name: `Coordinator ${i}`, role: 'REGULAR_USER' });
  }
  // Practitioner logins for those with visits today (the ones who step through their day).
  const dayStart = new Date(today.toZonedDateTime({ timeZone: SAMPLE_TIME_ZONE }).epochMilliseconds);
  const dayEnd = new Date(today.add({ days: 1 }).toZonedDateTime({ timeZone: SAMPLE_TIME_ZONE }).epochMilliseconds);
  const working = await queryRows<{ id: number }>(ctx.db, sql`SELECT DISTINCT practitioner_id AS id FROM appointments
    WHERE business_account_id = ${business.id} AND cancelled_at IS NULL AND starts_at >= ${dayStart} AND starts_at < ${dayEnd}
    ORDER BY practitioner_id LIMIT ${PRACTITIONER_USERS}`);
  for (const [i, practitioner] of working.entries()) {
    await createUser(ctx.db, {
      businessAccountId: business.id, email: `practitioner${i + 1}@bench.test`, password: PASSWORD, first_name: `Practitioner ${i + 1}`,
      role: 'PRACTITIONER', associated_practitioner_ids: [practitioner.id],
    });
  }
  const [counts] = await queryRows<{ clients: number; appointments: number }>(ctx.db, sql`SELECT
    (SELECT count(*)::int FROM clients) AS clients, (SELECT count(*)::int FROM appointments) AS appointments`);
  await ctx.db.execute(sql`VACUUM ANALYZE`);
  await database.close();
  console.log(`seeded ${counts.clients} clients and ${counts.appointments} appointments by an import from the sandbox (${moved.movedVisits} visits of ${moved.movedPractitioners} of its ${moved.practitioners} active practitioners moved to today first), ${COORDINATORS} coordinators, ${working.length} practitioner users in ${round((performance.now() - started) / 1000)} s`);
  if (!LISTS && working.length < PRACTITIONER_USERS) throw new Error(`only ${working.length} practitioners have visits today, ${PRACTITIONER_USERS} wanted`);
  return { practitionerUsers: working.length };
}

function startWorkerProcess(env: Record<string, string>, nodeArgs: string[]): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/src/worker-main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  // The inspector's banner goes to stderr; everything else is the worker's own.
  createInterface({ input: child.stderr! }).on('line', (line) => { if (!/^(Debugger (listening|attached|ending)|For help, see|Waiting for the debugger)/.test(line)) console.error(line); });
  return child;
}

// ---- process figures over time ----
interface Sample { at: number; rssMb: number; loopP99Ms: number | null }
const samples = new Map<string, Sample[]>();
/** Live heap after a forced full collection, per process over time: what a leak would make grow. */
const heapSamples = new Map<string, (HeapFigures & { at: number })[]>();

/** Forces a full collection in each process (through its inspector) and records what is still live. */
async function sampleHeaps(inspectors: Map<string, InspectorClient>, startedAt: number) {
  const at = round((performance.now() - startedAt) / 1000);
  for (const [name, inspector] of inspectors) {
    try {
      const figures = await inspector.heapAfterGc();
      heapSamples.set(name, [...(heapSamples.get(name) ?? []), { at, ...figures }]);
    } catch { /* a missed sample */ }
  }
}

const metric = (text: string, name: string) => {
  const match = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) : NaN;
};

/** The process's CPU seconds so far, from its /metrics. */
async function cpuSeconds(api: RunningProduct): Promise<number> {
  return metric(await (await fetch(`${api.url}/metrics`)).text(), 'rounds_process_cpu_seconds_total');
}

async function sampleProcesses(apis: RunningProduct[], worker: ChildProcess, startedAt: number) {
  const at = round((performance.now() - startedAt) / 1000);
  const add = (name: string, sample: Sample) => samples.set(name, [...(samples.get(name) ?? []), sample]);
  await Promise.all(apis.map(async (api, index) => {
    try {
      const text = await (await fetch(`${api.url}/metrics`)).text();
      add(`API ${index + 1}`, { at, rssMb: round(metric(text, 'rounds_process_resident_memory_bytes') / 1e6), loopP99Ms: round(metric(text, 'rounds_nodejs_eventloop_lag_p99_seconds') * 1000) });
    } catch { /* a missed sample */ }
  }));
  try {
    const status = readFileSync(`/proc/${worker.pid}/status`, 'utf8');
    add('worker', { at, rssMb: round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024), loopP99Ms: null });
  } catch { /* not on Linux, or gone */ }
}

const quarters = <T>(list: T[]) => {
  const quarter = Math.max(1, Math.floor(list.length / 4));
  return [list.slice(0, quarter), list.slice(-quarter)];
};

/** First-quarter vs last-quarter medians: flat or growing. RSS grows while V8 grows its heap; the live heap after a forced collection is what a leak grows. */
function processRows() {
  return [...samples].map(([name, list]) => {
    const [first, last] = quarters(list);
    const loop = (part: Sample[]) => (part[0]?.loopP99Ms === null ? '-' : round(median(part.map((s) => s.loopP99Ms!))));
    const [heapFirst, heapLast] = quarters(heapSamples.get(name) ?? []);
    const heap = (part: HeapFigures[], key: keyof HeapFigures) => (part.length ? round(median(part.map((s) => s[key]))) : '-');
    return {
      process: name, samples: list.length,
      'RSS MB first¼': round(median(first.map((s) => s.rssMb))), 'RSS MB last¼': round(median(last.map((s) => s.rssMb))),
      'RSS MB max': Math.max(...list.map((s) => s.rssMb)),
      'live heap MB first¼': heap(heapFirst, 'heapUsedMb'), 'live heap MB last¼': heap(heapLast, 'heapUsedMb'),
      'external MB first¼': heap(heapFirst, 'externalMb'), 'external MB last¼': heap(heapLast, 'externalMb'),
      'loop p99 ms first¼': loop(first), 'loop p99 ms last¼': loop(last),
    };
  });
}

function callRows(seconds: number) {
  return [...figures].sort(([a], [b]) => a.localeCompare(b)).map(([name, entry]) => {
    const sorted = [...entry.latencies].sort((a, b) => a - b);
    return {
      call: name, count: sorted.length, 'req/s': round(sorted.length / seconds), 'p50 ms': round(quantile(sorted, 0.5)),
      'p95 ms': round(quantile(sorted, 0.95)), 'p99 ms': round(quantile(sorted, 0.99)), 'max ms': round(sorted[sorted.length - 1] ?? NaN), errors: entry.errors,
    };
  });
}

// ---- what the pages call ----
interface Listed { id: number; starts_at: string; ends_at: string; arrive_at: string | null; status: string; route_id: number | null; visit_state?: string }
interface Session { base: string; token: string }

/** Ids the checker owns: virtual users never write them, so what the checker reads is its own write. */
const reserved = { clients: new Set<number>(), appointments: new Set<number>() };
/** The days the schedule shows most: this week, weighted to today and tomorrow. */
const busyDay = () => dayOffset(pick([0, 0, 0, 1, 1, 2, 3, -1, 4, 7]));
const TAG_IDS: number[] = [];

async function coordinator({ base, token }: Session) {
  // The appointments page, day schedule: the day's list, its routes and travel warnings.
  const day = busyDay();
  const dayList = await call(base, token, 'GET appointments day', 'GET', `/appointments?start_date=${day}&end_date=${day}`);
  await call(base, token, 'GET routes day', 'GET', `/routes?date=${day}`);
  await call(base, token, 'GET appointments travel', 'GET', `/appointments/travel?date=${day}`);
  await think();
  const visits = ((dayList.json?.appointments ?? []) as Listed[]).filter((a) => a.status === 'BOOKED' && a.route_id === null && !reserved.appointments.has(a.id));
  // Only a visit not started and well ahead may get a new arrival time (today's started and imminent ones keep theirs).
  const movable = visits.filter((a) => (a.visit_state ?? 'not_started') === 'not_started' && Date.parse(a.arrive_at ?? a.starts_at) > Date.now() + 2 * 3_600_000
    && Date.parse(a.starts_at) - 30 * 60_000 > Date.now() + 2 * 3_600_000);
  if (visits.length) {
    // The appointment's window: details and the change log; sometimes a new arrival time (then the list again).
    const visit = pick(visits);
    await call(base, token, 'GET appointment', 'GET', `/appointments/${visit.id}`);
    await call(base, token, 'GET appointment extra (change log)', 'GET', `/appointments/${visit.id}/extra_details`);
    await think();
    if (chance(0.3) && movable.length) {
      const visit = pick(movable);
      const arriveAt = new Date(Date.parse(visit.starts_at) - pick([0, 15, 30]) * 60_000).toISOString();
      // A new time may put the visit over another of the practitioner's: the rule book refuses it in words (409
      // RULES_BROKEN, shown to the coordinator as it is), an answer as expected as a 2xx; any other refusal is an error.
      const name = 'PUT arrival time (or 409 RULES_BROKEN)';
      const changed = await call(base, token, name, 'PUT', `/appointments/${visit.id}/update_arrival_time`, { arrive_at: arriveAt }, [409]);
      if (changed.status === 409 && changed.json?.code !== 'RULES_BROKEN') {
        countError(name, `PUT /appointments/${visit.id}/update_arrival_time → 409: ${JSON.stringify(changed.json).slice(0, 200)}`);
      }
      await call(base, token, 'GET appointments day', 'GET', `/appointments?start_date=${day}&end_date=${day}`);
      await think();
    }
  }
  // The table: a page of this week.
  const page = pick([1, 1, 1, 2, 3, 5]);
  await call(base, token, 'GET appointments week page', 'GET', `/appointments?start_date=${dayOffset(0)}&end_date=${dayOffset(6)}&page=${page}&per_page=50`);
  await think();
  // The clients page: a page in name order, sometimes a search; a client's window; sometimes availability or tags.
  const clientsPage = chance(0.2)
    ? await call(base, token, 'GET clients search', 'GET', `/clients?page=1&per_page=10&sort=name&direction=asc&q=${pick(['sm', 'jo', 'an', 'lee', 'ma', 'ch'])}`)
    : await call(base, token, 'GET clients page', 'GET', `/clients?page=${pick([1, 1, 1, 2, 3, 4, 8, 15])}&per_page=10&sort=name&direction=asc`);
  await think();
  const listed = ((clientsPage.json?.clients ?? []) as { id: number }[]).filter((c) => !reserved.clients.has(c.id));
  if (!listed.length) return;
  const client = pick(listed);
  await call(base, token, 'GET client', 'GET', `/clients/${client.id}`);
  await think();
  if (chance(0.15)) {
    const availability = [1, 2, 3, 4, 5].filter(() => chance(0.6)).map((dow) => ({ dow, hours: [pick(['06:00-09:00', '09:00-12:00', '12:00-15:00', '15:00-18:00'])] }));
    await call(base, token, 'PUT client availability', 'PUT', `/clients/${client.id}/update_availability`, { availability });
    await think();
  }
  if (chance(0.15) && TAG_IDS.length) {
    await call(base, token, 'PUT client tags', 'PUT', `/clients/${client.id}/update_tags`, { tag_ids: TAG_IDS.filter(() => chance(0.4)) });
    await think();
  }
}

async function practitioner({ base, token }: Session) {
  const day = pick([dayOffset(0), dayOffset(0), dayOffset(1)]);
  const list = await call(base, token, 'GET own day (practitioner)', 'GET', `/appointments?start_date=${day}&end_date=${day}`);
  await think();
  const visits = (list.json?.appointments ?? []) as Listed[];
  if (visits.length) await call(base, token, 'GET own appointment (practitioner)', 'GET', `/appointments/${pick(visits).id}`);
  await think();
}

/** Runs `step` in `count` loops until the deadline. */
async function virtualUsers(count: number, until: number, step: (index: number) => Promise<void>) {
  await Promise.all(Array.from({ length: count }, async (_, index) => {
    while (performance.now() < until) await step(index);
  }));
}

// ---- the list cache across processes ----
const cacheCheck = { checks: 0, stale: [] as string[] };

/** Writes through one API, then reads the lists through the other (and the writer): each must show the write. */
async function checkListsAcrossProcesses(writer: Session, reader: Session, client: number, visit: Listed, day: string, round: number) {
  const clientsPath = '/clients?page=1&per_page=10&sort=name&direction=asc';
  const dayPath = `/appointments?start_date=${day}&end_date=${day}`;
  // Warm both caches with the current lists first, so a stale cache would have something to answer with.
  for (const session of [writer, reader]) {
    await call(session.base, session.token, 'check: GET clients page', 'GET', clientsPath);
    await call(session.base, session.token, 'check: GET appointments day', 'GET', dayPath);
  }
  const tagIds = TAG_IDS.filter((_, index) => (round >> index) & 1);
  await call(writer.base, writer.token, 'check: PUT client tags', 'PUT', `/clients/${client}/update_tags`, { tag_ids: tagIds });
  const arriveAt = new Date(Date.parse(visit.starts_at) - (round % 4) * 5 * 60_000).toISOString();
  await call(writer.base, writer.token, 'check: PUT arrival time', 'PUT', `/appointments/${visit.id}/update_arrival_time`, { arrive_at: arriveAt });
  for (const [label, session] of [['other API', reader], ['same API', writer]] as const) {
    const clients = (await call(session.base, session.token, 'check: GET clients page', 'GET', clientsPath)).json?.clients as { id: number; tags: { id: number }[] }[];
    const shownTags = clients?.find((c) => c.id === client)?.tags.map((tag) => tag.id).sort((a, b) => a - b);
    cacheCheck.checks += 1;
    if (JSON.stringify(shownTags) !== JSON.stringify(tagIds)) cacheCheck.stale.push(`${label}: client ${client} tags ${JSON.stringify(shownTags)}, wrote ${JSON.stringify(tagIds)}`);
    const visits = (await call(session.base, session.token, 'check: GET appointments day', 'GET', dayPath)).json?.appointments as Listed[];
    const shownArrival = visits?.find((a) => a.id === visit.id)?.arrive_at;
    cacheCheck.checks += 1;
    if (!shownArrival || Date.parse(shownArrival) !== Date.parse(arriveAt)) cacheCheck.stale.push(`${label}: appointment ${visit.id} arrive_at ${shownArrival}, wrote ${arriveAt}`);
  }
}

// ---- jobs started through the API ----
interface JobFigure { kind: string; id: number; status: string; seconds: number | null; error?: string | null }

/** The optimisation's day: the first day after today with booked visits that no route holds yet (not a weekend without visits). */
async function dayToOptimise(admin: Session): Promise<string> {
  for (let offset = 1; offset <= 7; offset++) {
    const visits = (await call(admin.base, admin.token, 'setup', 'GET', `/appointments?start_date=${dayOffset(offset)}&end_date=${dayOffset(offset)}`)).json?.appointments as Listed[] | undefined;
    if (visits?.some((visit) => visit.status === 'BOOKED' && visit.route_id === null)) return dayOffset(offset);
  }
  return dayOffset(1);
}

async function runJob(admin: Session, kind: 'import' | 'optimization', deadline: number, day = dayOffset(1)): Promise<JobFigure> {
  const started = performance.now();
  const created = kind === 'import'
    ? await call(admin.base, admin.token, 'POST import', 'POST', '/imports', { start_date: dayOffset(0), end_date: dayOffset(6) })
    : await call(admin.base, admin.token, 'POST optimization', 'POST', '/optimizations', { date: day });
  const job = created.json?.[kind];
  if (!job) return { kind, id: 0, status: `not started (HTTP ${created.status})`, seconds: null };
  const path = kind === 'import' ? `/imports/${job.id}` : `/optimizations/${job.id}`;
  while (performance.now() < deadline) {
    await sleep(2000);
    const current = (await call(admin.base, admin.token, `GET ${kind} (polling)`, 'GET', path)).json?.[kind];
    if (current && !['PENDING', 'INPROGRESS'].includes(current.status)) {
      return { kind, id: job.id, status: current.status, seconds: round((performance.now() - started) / 1000), error: current.error_message };
    }
  }
  return { kind, id: job.id, status: 'still running', seconds: null };
}

// ---- the runs ----
async function mixedRun(apis: RunningProduct[], worker: ChildProcess, practitionerUsers: number, inspectors: Map<string, InspectorClient>) {
  const bases = apis.map((api) => api.url);
  const coordinatorTokens = await Promise.all(Array.from({ length: COORDINATORS }, (_, i) => login(bases[i % 2], `coordinator${i + 1}@bench.test`)));
  const practitionerTokens = await Promise.all(Array.from({ length: practitionerUsers }, (_, i) => login(bases[i % 2], `practitioner${i + 1}@bench.test`)));
  const admin: Session = { base: bases[0], token: await login(bases[0], DEMO_USERS.admin, DEMO_PASSWORD) };
  TAG_IDS.push(...((await call(bases[0], admin.token, 'GET tags', 'GET', '/tags/all')).json.tags as { id: number }[]).map((tag) => tag.id).slice(0, 4));
  if (!TAG_IDS.length) {
    for (const name of ['Falls risk', 'Key safe', 'Interpreter']) {
      TAG_IDS.push((await call(bases[0], admin.token, 'POST tag', 'POST', '/tags', { name, color: '#336699' })).json?.tag?.id);
    }
  }
  // The checker's client (first of the clients list) and visit (the first one off a route on the first day after
  // today with visits that is not the optimisation's: today's are stepped, and a started or past visit keeps its
  // arrival time), kept from the virtual users.
  const optimiseDay = await dayToOptimise(admin);
  const firstClients = (await call(bases[0], admin.token, 'setup', 'GET', '/clients?page=1&per_page=10&sort=name&direction=asc')).json.clients as { id: number }[];
  const checkClient = firstClients[0].id;
  let checkDay = '';
  let checkVisit: Listed | undefined;
  for (let offset = 1; offset <= 14 && !checkVisit; offset++) {
    checkDay = dayOffset(offset);
    if (checkDay === optimiseDay) continue;
    const visits = (await call(bases[0], admin.token, 'setup', 'GET', `/appointments?start_date=${checkDay}&end_date=${checkDay}`)).json.appointments as Listed[];
    checkVisit = visits.find((a) => a.status === 'BOOKED' && a.route_id === null);
  }
  if (!checkVisit) throw new Error('no visit for the list checker in the next two weeks');
  reserved.clients.add(checkClient);
  reserved.appointments.add(checkVisit.id);
  figures.clear();

  // The practitioners' phones (one login each) and the coordinators' live view of today.
  const steppers = practitionerTokens.map((token, i) => new SteppingPractitioner(call, i, { bases: i % 2 ? [bases[1], bases[0]] : bases, token }, dayOffset(0)));
  const live = new LiveView(call, dayOffset(0));
  const practitionerVus = Array.from({ length: VUS }, (_, index) => index).filter((index) => index % 5 === 4).length;
  console.log(`mixed run: ${VUS} virtual users (${practitionerVus} practitioners stepping through today's visits, ${VUS - practitionerVus} coordinators with today's schedule open) for ${SECONDS} s, think time 0–${2 * THINK_MS} ms, over ${bases.length} APIs`);
  const startedAt = performance.now();
  const until = startedAt + SECONDS * 1000;
  const sampler = setInterval(() => void sampleProcesses(apis, worker, startedAt), Math.max(1000, (SECONDS * 1000) / 60));
  void sampleProcesses(apis, worker, startedAt);
  // A forced full collection in each process now and then (a pause of tens of ms each): what stays live is what it keeps.
  const heapSampler = setInterval(() => void sampleHeaps(inspectors, startedAt), (SECONDS * 1000) / HEAP_SAMPLES);
  const snapshots = HEAP_SNAPSHOTS ? (async () => {
    mkdirSync('tmp/heap', { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const take = async (label: string) => {
      for (const [name, inspector] of inspectors) {
        if (!name.startsWith('API')) continue;
        const file = `tmp/heap/${stamp}-${name.replace(' ', '')}-${label}.heapsnapshot`;
        await inspector.writeHeapSnapshot(file);
        console.log(`heap snapshot ${file}`);
      }
    };
    await sleep(SECONDS * 250);
    await take('first-quarter');
    await sleep(Math.max(0, until - performance.now() - 2000));
    await take('end');
  })() : Promise.resolve();
  const jobs: Promise<JobFigure>[] = [];
  const jobDeadline = until + 180_000;
  const starter = (async () => {
    await sleep(SECONDS * 200);
    jobs.push(runJob(admin, 'import', jobDeadline));
    await sleep(SECONDS * 200);
    jobs.push(runJob({ base: bases[1], token: admin.token }, 'optimization', jobDeadline, optimiseDay));
  })();
  const checker = (async () => {
    for (let i = 0; performance.now() < until; i++) {
      const [writer, reader] = i % 2 === 0 ? [0, 1] : [1, 0];
      await checkListsAcrossProcesses({ base: bases[writer], token: admin.token }, { base: bases[reader], token: admin.token }, checkClient, checkVisit, checkDay, i);
      await sleep(1000);
    }
  })();
  // Each coordinator keeps today's schedule open (read every 15 s) beside what they do, and a poll past the end, so
  // that the last steps are shown too.
  const liveUntil = until + LIVE_REFRESH_MS + 1000;
  const watching = Promise.all(Array.from({ length: VUS }, (_, index) => index).filter((index) => index % 5 !== 4)
    .map((index) => live.watch(index, bases[index % bases.length], coordinatorTokens[index % coordinatorTokens.length], liveUntil)));
  await virtualUsers(VUS, until, async (index) => {
    const base = bases[index % bases.length];
    if (index % 5 === 4) {
      // A practitioner steps through their day; once it is done, they read their run sheet now and then.
      const stepper = steppers[Math.floor(index / 5) % steppers.length];
      if (!stepper.finished) await stepper.run(until, SECONDS * 1000);
      else await practitioner({ base, token: practitionerTokens[Math.floor(index / 5) % practitionerTokens.length] });
    } else await coordinator({ base, token: coordinatorTokens[index % coordinatorTokens.length] });
  });
  const elapsed = (performance.now() - startedAt) / 1000;
  clearInterval(heapSampler);
  await sampleHeaps(inspectors, startedAt);
  await Promise.all([checker, starter, snapshots]);
  clearInterval(sampler);
  await watching;
  const calls = callRows(elapsed);
  const jobFigures = await Promise.all(jobs);
  return { calls, elapsed, jobFigures, live };
}

async function listsRun(apis: RunningProduct[]) {
  const bases = apis.map((api) => api.url);
  const tokens = await Promise.all(bases.map((base, i) => login(base, `coordinator${i + 1}@bench.test`)));
  const day = dayOffset(0);
  const lists: [string, string][] = [
    ['appointments day list', `/appointments?start_date=${day}&end_date=${day}`],
    ['clients list page 1', '/clients?page=1&per_page=10&sort=name&direction=asc'],
  ];
  // Warm-up, not measured: the processes compile their hot paths and fill their caches.
  const warmUntil = performance.now() + 5000;
  await virtualUsers(VUS, warmUntil, async (index) => { await call(bases[index % 2], tokens[index % 2], 'warm-up', 'GET', lists[(index >> 1) % 2][1]); });
  const rows = [];
  for (const [name, path] of lists) {
    for (const [label, used] of [['both APIs', [0, 1]], ['one API', [0]]] as const) {
      figures.clear();
      const cpuBefore = await Promise.all(apis.map(cpuSeconds));
      const benchCpuBefore = process.cpuUsage();
      const startedAt = performance.now();
      await virtualUsers(VUS, startedAt + SECONDS * 1000, async (index) => {
        const api = used[index % used.length];
        await call(bases[api], tokens[api], name, 'GET', path);
      });
      const [row] = callRows((performance.now() - startedAt) / 1000);
      // CPU per request holds still on a busy machine where latency does not: the servers' and the load generator's.
      const serverCpu = (await Promise.all(apis.map(cpuSeconds))).reduce((sum, after, i) => sum + after - cpuBefore[i], 0);
      const benchCpu = process.cpuUsage(benchCpuBefore);
      rows.push({
        ...row, call: `${name} (${label})`, goal: row['p99 ms'] < 150 ? 'met' : 'missed',
        'API CPU ms/req': round((serverCpu * 1000) / row.count, 2), 'bench CPU ms/req': round((benchCpu.user + benchCpu.system) / 1000 / row.count, 2),
      });
    }
  }
  return rows;
}

/** The practitioners' steps against the visit_steps table, and how soon the coordinators' live view showed them. */
function printSteps(steps: StepCheck) {
  const { byMode } = steps;
  console.log(`visit steps: ${steps.practitioners} practitioners stepped ${steps.visits} of their ${steps.planned.visits} visits of today `
    + `(a day paced over the run; ${steps.planned.steps} steps planned): ${steps.stepsSent} steps sent `
    + `(${byMode.retry} sent again with the same key after the answer, ${byMode.concurrent} twice at once through both APIs; ${steps.requests} requests), `
    + `${steps.acknowledged} answered 2xx, ${steps.stored} stored in visit_steps (${Object.entries(steps.byStep).map(([step, n]) => `${n} ${step}`).join(', ')})`);
  console.log(`  lost ${steps.lost.length}, duplicated ${steps.duplicatedKeys.length + steps.duplicatedSteps.length} (goal 0 and 0); stored without a 2xx ${steps.unasked.length}, `
    + `answered with another step's id ${steps.wrongId.length}, repeats not answered as documented ${steps.contract.length}, visits in another state than their last step ${steps.wrongState.length}, visits left part-way ${steps.abandoned.length}`);
  for (const line of [...steps.lost, ...steps.duplicatedKeys, ...steps.duplicatedSteps, ...steps.unasked, ...steps.wrongId, ...steps.contract, ...steps.wrongState, ...steps.abandoned].slice(0, 20)) console.log(`    ${line}`);
  console.log(`coordinators' live view (today's schedule read every ${LIVE_REFRESH_MS / 1000} s, ${steps.polls} reads): from a step stored (recorded_at) to the first read that showed it; goal p99 ≤ 15 s; never shown ${steps.neverShown}`);
  console.table([{ 'shown to': 'the first coordinator', ...steps.firstShown }, { 'shown to': 'each coordinator (step × coordinator)', ...steps.eachCoordinator }]);
}

/** The worker starts its inspector a moment after it is spawned: retried for a while. */
async function connectInspector(port: number): Promise<InspectorClient> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await InspectorClient.connect(port);
    } catch (error) {
      if (attempt >= 50) throw error;
      await sleep(200);
    }
  }
}

async function main() {
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const fresh = await freshPostgres(serverUrl, 'load');
  const children: ChildProcess[] = [];
  let apis: RunningProduct[] = [];
  let failed = false;
  try {
    const sandbox = await startSandbox();
    children.push(sandbox.child);
    const { practitionerUsers } = await seed(fresh.url, sandbox.url);
    const env = {
      DATABASE_URL: fresh.url, APP_SECRET, CLINIKO_BASE_URL: sandbox.url, START_SANDBOX: 'false', SEED_DEMO: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000', LOGIN_MAX_FAILURES: '1000', LOG_LEVEL: 'warn',
    };
    // Mixed runs: each process listens for an inspector on a port of its own, through which the bench forces
    // collections and reads the live heap.
    const inspectorPorts = LISTS ? [] : await Promise.all([0, 1, 2].map(() => freePort()));
    const inspectArg = (index: number) => (LISTS ? [] : [`--inspect=127.0.0.1:${inspectorPorts[index]}`]);
    const cpuProf = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve('tmp/cpu-prof')}`] : [];
    apis = await Promise.all([0, 1].map((index) => startProduct(env, { api: true, nodeArgs: [...cpuProf, ...inspectArg(index)] })));
    const worker = startWorkerProcess(env, inspectArg(2));
    children.push(worker);
    const result: Record<string, unknown> = { at: new Date().toISOString(), mode: LISTS ? 'lists' : LONG ? 'long' : 'short', vus: VUS, seconds: SECONDS, thinkMs: THINK_MS };
    if (LISTS) {
      const rows = await listsRun(apis);
      console.log(`\n${VUS} connections, ${SECONDS} s per call, no think time; goal p99 < 150 ms on PostgreSQL`);
      console.table(rows);
      result.lists = rows;
    } else {
      const inspectors = new Map<string, InspectorClient>();
      for (const [index, name] of ['API 1', 'API 2', 'worker'].entries()) inspectors.set(name, await connectInspector(inspectorPorts[index]));
      const { calls, elapsed, jobFigures, live } = await mixedRun(apis, worker, practitionerUsers, inspectors);
      for (const inspector of inspectors.values()) inspector.close();
      const total = calls.reduce((sum, row) => sum + row.count, 0);
      const errors = calls.reduce((sum, row) => sum + row.errors, 0);
      console.log(`\n${total} requests in ${round(elapsed)} s: ${round(total / elapsed)} req/s, ${errors} errors (goal 0)`);
      console.table(calls);
      console.log(`processes (RSS and event-loop delay p99 from /metrics and /proc; live heap and external memory after a forced full collection, ${HEAP_SAMPLES} times a run, through the inspector; a flat live heap = no leak):`);
      console.table(processRows());
      console.log('jobs started through the API during the run:');
      console.table(jobFigures);
      const arrivals = figures.get('PUT arrival time (or 409 RULES_BROKEN)')?.statuses ?? {};
      console.log(`arrival-time changes by coordinators: ${arrivals[200] ?? 0} made, ${arrivals[409] ?? 0} refused by the rule book (409 RULES_BROKEN, expected)`);
      console.log(`list cache across the two API processes: ${cacheCheck.checks} checks, ${cacheCheck.stale.length} stale`);
      for (const line of [...cacheCheck.stale.slice(0, 10), ...errorSamples]) console.log(`  ${line}`);
      // What a 503 meant, from the APIs' own logs (a pool wait past its timeout on an overloaded machine, or the server).
      const unavailable = new Map<string, number>();
      for (const api of apis) {
        for (const line of api.logs().split('\n')) {
          if (!line.includes('"database unavailable"')) continue;
          try {
            const err = JSON.parse(line).err;
            const cause = `${err?.cause?.message ?? err?.message ?? 'unknown'}`.slice(0, 120);
            unavailable.set(cause, (unavailable.get(cause) ?? 0) + 1);
          } catch { /* not a JSON line */ }
        }
      }
      for (const [cause, count] of unavailable) console.log(`  503 DATABASE_UNAVAILABLE ×${count} in the APIs' logs: ${cause}`);
      const steps = await checkSteps(fresh.url, live);
      printSteps(steps);
      failed = errors > 0 || cacheCheck.stale.length > 0 || cacheCheck.checks === 0 || jobFigures.some((job) => job.status !== 'COMPLETE') || !stepsMet(steps);
      Object.assign(result, { steps, requests: total, rps: round(total / elapsed), errors, calls, processes: processRows(), samples: Object.fromEntries(samples), heapSamples: Object.fromEntries(heapSamples), jobs: jobFigures, cacheCheck, errorSamples });
    }
    mkdirSync('tmp', { recursive: true });
    const file = `tmp/load-${result.mode}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
    writeFileSync(file, JSON.stringify(result, null, 2));
    console.log(`figures written to ${file}${failed ? '\nFAILED: see errors, stale lists, jobs or visit steps above' : ''}`);
  } finally {
    await Promise.all(apis.map((api) => api.stop().catch((error) => console.error(error))));
    await Promise.all(children.map((child) => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      return Promise.race([exited, sleep(10_000)]);
    }));
    await fresh.drop();
    await agent.close();
  }
  process.exit(failed ? 1 : 0);
}

await main();
