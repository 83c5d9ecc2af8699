/**
 * `npm run bench:optimize -- [--budget 10] [--large] [--seed 7] [--clients 4]`: optimising a day in the product.
 *
 * On PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set (a fresh database on that server), else on embedded
 * PGlite. Seeds a generated Brisbane day (bench/lib/homecare.ts: 320 visits / 40 practitioners; with --large also
 * 1,000 / 120) as a business's practitioners (homes, hours, breaks, skills), clients (points, availability) and booked
 * visits, then drives the real server over HTTP with two job workers in the process (as `npm start` runs one):
 * POST /api/optimizations (reassign mode, every practitioner), polls to the proposal, applies it, and reports the time
 * to the proposal against the search budget (the business's search_seconds), the apply time and travel before → after.
 * The rules of home care (ADR 0020): each mode is also run with the rules off (tolerance 12 h, no client gap) and
 * discarded, so travel with the rules on and off gives their price; each proposal's hard breaks it adds (must be 0),
 * the day checker's counts before → after per rule, and the spread of working time (longest − shortest day, the
 * proposal's kpis); the minutes each visit starts from its agreed time, visits given to a practitioner who does not
 * deliver their type (must be 0) and practitioners called in on a day they had nothing booked. Reassign mode is also run with "Balance the day between practitioners" on (discarded): its spread
 * and travel against the applied run's, with it off. Beside travel, how far each mode's proposal moves clients from
 * their agreed times (ADR 0023): minutes moved p50 / p90 / max, moves of 30 and 60 minutes or more, and the minutes of
 * travel saved per client-minute moved.
 * Then two runs are queued (the next day, each for half of the practitioners) while `--clients` loops call the
 * day's appointments list (what the day schedule loads), and it reports that list's p50/p99 during the solves (one
 * business's runs search one at a time, so the second starts when the first ends; ADR 0010's addendum).
 * OSRM_URL (when set) gives road travel instead of the default great-circle model.
 * `--week` also runs Monday to Sunday (reassigning) on a roster of weekdays: its travel, practitioners called in and
 * each client's distinct carers over the week before → after.
 */
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { Temporal } from 'temporal-polyfill';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { appointments, appointmentTypes, clients, customLocations, practitioners, type AvailabilityEntry } from '../server/src/db/schema';
import { startWorker } from '../server/src/jobs/worker';
import type { AppContext } from '../server/src/http/context';
import { createBusinessAccount } from '../server/src/modules/business-account';
import { jobHandlers } from '../server/src/modules/job-handlers';
import { prewarmOptimizerWorkers } from '../server/src/optimizer';
import { hardIssuesAdded } from '../server/src/modules/schedule';
import { generateHomecareDay } from './lib/homecare';
import { freshPostgres } from './lib/postgres';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const budgetSeconds = Number(arg('budget') ?? 10);
const seed = Number(arg('seed') ?? 7);
const listClients = Number(arg('clients') ?? 4);
const scales = process.argv.includes('--large') ? [[40, 320], [120, 1000]] : [[40, 320]];
const PASSWORD = 'benchmark password';
const TIME_ZONE = 'Australia/Brisbane';
const SKILL_NAMES: Record<string, string> = { physio: 'Physiotherapy', ot: 'Occupational therapy', nursing: 'Nursing', podiatry: 'Podiatry' };

const hhmm = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
const instantOn = (date: string, seconds: number) =>
  new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: TIME_ZONE }).epochMilliseconds + seconds * 1000);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The day checker's counts, before → after, of the hard (or soft) rules with any problem. */
const countsText = (proposal: any, hard: boolean) => proposal.checks.counts
  .filter((count: any) => count.hard === hard && (count.before || count.after))
  .map((count: any) => `${count.rule} ${count.before} → ${count.after}`).join(', ') || 'none';
/** The spread of working time (longest − shortest working day among the practitioners with visits), as the proposal gives it. */
const spread = (proposal: any, side: 'before' | 'after'): number => proposal.kpis[side].working_spread_seconds;

/**
 * How far the proposal moves clients (ADR 0023): the minutes each placed visit starts from its agreed time (p50, p90,
 * max), the moves of 30 and 60 minutes or more, and the minutes of travel saved per client-minute moved.
 */
function movedFromAgreed(proposal: any, agreed: ReadonlyMap<number, number>) {
  const minutes: number[] = proposal.lanes.flatMap((lane: any) => lane.after.stops
    .filter((stop: any) => agreed.has(stop.appointment_id))
    .map((stop: any) => Math.abs(Date.parse(stop.arrive_at) - agreed.get(stop.appointment_id)!) / 60_000)).sort((a: number, b: number) => a - b);
  const total = minutes.reduce((sum, value) => sum + value, 0);
  const saved = (proposal.kpis.before.travel_seconds - proposal.kpis.after.travel_seconds) / 60;
  const round = (value: number | undefined) => (value === undefined ? '-' : Math.round(value));
  return {
    'moved from agreed min p50 / p90 / max': `${round(quantile(minutes, 0.5))} / ${round(quantile(minutes, 0.9))} / ${round(minutes.at(-1))}`,
    'moves ≥ 30 / ≥ 60 min': `${minutes.filter((value) => value >= 30).length} / ${minutes.filter((value) => value >= 60).length}`,
    'travel min saved per client-min moved': total > 0 ? (saved / total).toFixed(2) : '-',
  };
}

/** Seeds one business with a generated day's practitioners on `dates[0]` and another generated day on each later date. */
async function seedBusiness(ctx: AppContext, label: string, practitionerCount: number, visitCount: number, dates: string[]) {
  const { business } = await createBusinessAccount(ctx.db, {
    name: `Bench ${label}`, admin: { email: `bench-${label}@bench.test`, password: PASSWORD, first_name: 'Ben', last_name: label },
  });
  const businessAccountId = business.id;
  const types = await ctx.db.insert(appointmentTypes).values(Object.values(SKILL_NAMES).map((name) => ({ business_account_id: businessAccountId, name, duration: 45 })))
    .returning();
  const typeOf = new Map(Object.keys(SKILL_NAMES).map((skill, index) => [skill, types[index].id]));
  const first = generateHomecareDay(practitionerCount, visitCount, seed);
  const practitionerIds: number[] = [];
  for (const [k, p] of first.problem.practitioners.entries()) {
    let endCustom: number | null = null;
    if (p.endLocation) {
      const [place] = await ctx.db.insert(customLocations).values({
        business_account_id: businessAccountId, name: `Depot ${k + 1}`, address: 'Brisbane QLD', lat: p.endLocation.lat, lng: p.endLocation.lng,
      }).returning();
      endCustom = place.id;
    }
    const hours = { start: hhmm(p.shift.start), end: hhmm(p.shift.end) };
    const [row] = await ctx.db.insert(practitioners).values({
      business_account_id: businessAccountId, first_name: `P${k + 1}`, last_name: label, time_zone: TIME_ZONE,
      start_place_kind: 'home', home_address: `${k + 1} Bench St`, home_lat: p.startLocation.lat, home_lng: p.startLocation.lng,
      ...(endCustom === null ? {} : { end_place_kind: 'custom_location' as const, end_custom_location_id: endCustom }),
      working_hours: Array.from({ length: 7 }, () => hours),
      ...(p.break ? { break_earliest: hhmm(p.break.earliestStart), break_latest: hhmm(p.break.latestStart), break_minutes: p.break.duration / 60 } : {}),
      skill_appointment_type_ids: p.skills!.map((skill) => typeOf.get(skill)!),
    }).returning();
    practitionerIds.push(row.id);
  }
  for (const [index, date] of dates.entries()) {
    // The first date is the generated day itself; later dates are other days of the same practitioners.
    const day = index === 0 ? first : generateHomecareDay(practitionerCount, visitCount, seed + index);
    const dow = Temporal.PlainDate.from(date).dayOfWeek % 7;
    const clientRows = await ctx.db.insert(clients).values(day.problem.visits.map((visit, i) => ({
      business_account_id: businessAccountId, first_name: `Client${index}-${i + 1}`, last_name: label, time_zone: TIME_ZONE,
      lat: visit.location.lat, lng: visit.location.lng,
      // The engine's window is the starts it allows, its end included; a client's slot ends before its end (a visit
      // starting at 12:00 is outside 09:00-12:00): the slot ends a minute after the window's last start.
      availability: (visit.timeWindows ? [{ dow, hours: visit.timeWindows.map((w) => `${hhmm(w.start)}-${hhmm(w.end + 60)}`) }] : []) as AvailabilityEntry[],
    }))).returning({ id: clients.id });
    const visitIndex = new Map(day.problem.visits.map((visit, i) => [visit.id, i]));
    // The booking system's times: the generated day as booked (each visit with a practitioner who had room for it, at
    // the start their day gives it; bench/lib/homecare.ts).
    const practitionerIndex = new Map(day.problem.practitioners.map((p, k) => [p.id, k]));
    const rows: (typeof appointments.$inferInsert)[] = [];
    const book = (i: number, k: number, start: number) => {
      const visit = day.problem.visits[i];
      const startsAt = instantOn(date, start);
      rows.push({
        business_account_id: businessAccountId, client_id: clientRows[i].id, practitioner_id: practitionerIds[k],
        appointment_type_id: typeOf.get(visit.requiredSkill!)!, starts_at: startsAt, ends_at: new Date(startsAt.getTime() + visit.duration * 1000),
        arrive_at: startsAt, lat: visit.location.lat, lng: visit.location.lng,
      });
    };
    for (const route of day.booked) for (const stop of route.stops) book(visitIndex.get(stop.visitId)!, practitionerIndex.get(route.practitionerId)!, stop.start);
    for (let i = 0; i < rows.length; i += 500) await ctx.db.insert(appointments).values(rows.slice(i, i + 500));
  }
  return { email: `bench-${label}@bench.test`, practitionerIds, businessAccountId };
}

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const fresh = postgresUrl ? await freshPostgres(postgresUrl, 'optimize') : null;
const database = await openDatabase(fresh ? { url: fresh.url } : {});
await migrate(database);
const config = {
  ...loadConfig({ ...process.env, APP_SECRET: 'bench-secret-bench-secret-bench-secret', DATABASE_URL: undefined }),
  requestsPerMinute: 1_000_000, optimizerMaxSearchMs: null, runWorker: false, seedDemo: false, startSandbox: false,
};
const log = pino({ level: 'silent' });
const ctx = createContext(config, database, log);
const app = await buildApp({ ctx, logger: log, spaDir: '/nonexistent' });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
// Two job workers, each with a solver thread started ahead (as the server's worker is).
const workers = [startWorker(ctx, jobHandlers, { pollMs: 50 }), startWorker(ctx, jobHandlers, { pollMs: 50 })];
prewarmOptimizerWorkers(2);

async function call(token: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}/api${path}`, {
    method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Polls a run until it has finished; answers it and when it was first seen finished. */
async function finished(token: string, id: number) {
  for (;;) {
    const { optimization } = await call(token, 'GET', `/optimizations/${id}`);
    if (!['PENDING', 'INPROGRESS'].includes(optimization.status)) return { optimization, at: performance.now() };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Days ahead (only the future is optimised): a week from today and the day after.
const DAY = Temporal.Now.plainDateISO(TIME_ZONE).add({ days: 7 }).toString();
const NEXT = Temporal.Now.plainDateISO(TIME_ZONE).add({ days: 8 }).toString();
const rows: Record<string, unknown>[] = [];
const hours = (seconds: number) => (seconds / 3600).toFixed(1);
console.log(`bench:optimize on ${database.kind}, search budget ${budgetSeconds} s, travel ${config.osrmUrl ? `OSRM ${config.osrmUrl}` : 'great-circle model (no OSRM_URL)'}, seed ${seed}`);
for (const [practitionerCount, visitCount] of scales) {
  const label = `${visitCount}v${practitionerCount}p`;
  const seeded = await seedBusiness(ctx, label, practitionerCount, visitCount, [DAY, NEXT]);
  const { token } = await (await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: seeded.email, password: PASSWORD }),
  })).json() as { token: string };
  await call(token, 'PUT', '/optimization_settings', { search_seconds: budgetSeconds });

  /** One run of the whole day: its proposal and when it was first seen finished. */
  const runDay = async (mode: 'keep_practitioners' | 'reassign') => {
    const posted = performance.now();
    const { optimization: created } = await call(token, 'POST', '/optimizations', { date: DAY, practitioner_ids: seeded.practitionerIds, mode });
    const done = await finished(token, created.id);
    if (done.optimization.status !== 'COMPLETE') throw new Error(`run ${created.id} ended ${done.optimization.status}: ${done.optimization.error_message}`);
    return { id: created.id as number, run: done.optimization, proposal: done.optimization.proposal, toProposalMs: done.at - posted };
  };
  const discard = (id: number) => call(token, 'POST', `/optimizations/${id}/discard`);
  // The price of the rules: each mode with them off (discarded), then on (reassign is applied last).
  await call(token, 'PUT', '/optimization_settings', { tolerance_minutes: 720, client_gap_minutes: 0 });
  const off = { keep: await runDay('keep_practitioners'), reassign: await runDay('reassign') };
  await Promise.all([discard(off.keep.id), discard(off.reassign.id)]);
  await call(token, 'PUT', '/optimization_settings', { tolerance_minutes: 30, client_gap_minutes: 60 });
  const keep = await runDay('keep_practitioners');
  await discard(keep.id);
  await call(token, 'PUT', '/optimization_settings', { balance_workload: true });
  const balanced = await runDay('reassign');
  await discard(balanced.id);
  await call(token, 'PUT', '/optimization_settings', { balance_workload: false });
  const reassign = await runDay('reassign');
  const { proposal, run: finishedRun } = reassign;
  const done = { optimization: finishedRun };
  const applyStarted = performance.now();
  const applied = await call(token, 'POST', `/optimizations/${reassign.id}/apply`);
  const applyMs = performance.now() - applyStarted;

  // The day's list called in `listClients` loops while `going()`: first with nothing solving, then while two runs
  // solve at once (the next day, half of the practitioners each).
  const listLatencies = async (going: () => boolean) => {
    const latencies: number[] = [];
    await Promise.all(Array.from({ length: listClients }, async () => {
      while (going()) {
        const started = performance.now();
        const response = await fetch(`${base}/api/appointments?start_date=${NEXT}&end_date=${NEXT}`, { headers: { authorization: `Bearer ${token}` } });
        await response.text();
        if (response.ok) latencies.push(performance.now() - started);
      }
    }));
    return latencies.sort((a, b) => a - b);
  };
  const idleUntil = performance.now() + 3000;
  const idle = await listLatencies(() => performance.now() < idleUntil);
  const half = Math.ceil(seeded.practitionerIds.length / 2);
  const runs = await Promise.all([seeded.practitionerIds.slice(0, half), seeded.practitionerIds.slice(half)].map(async (ids) =>
    (await call(token, 'POST', '/optimizations', { date: NEXT, practitioner_ids: ids, mode: 'reassign' })).optimization.id as number));
  let solving = true;
  const both = Promise.all(runs.map((id) => finished(token, id))).finally(() => { solving = false; });
  const latencies = await listLatencies(() => solving);
  const ended = await both;
  const seconds = (from: string, to: string) => ((Date.parse(to) - Date.parse(from)) / 1000).toFixed(2);
  const visitRows = await ctx.db.select({ id: appointments.id, agreedStartsAt: appointments.agreed_starts_at, typeId: appointments.appointment_type_id })
    .from(appointments).where(eq(appointments.business_account_id, seeded.businessAccountId));
  const agreed = new Map(visitRows.map((row) => [row.id, row.agreedStartsAt.getTime()]));
  // Who delivers what, as the API says (qualified_appointment_type_ids: null = unknown, delivering none).
  const qualified = new Map(((await call(token, 'GET', '/practitioners')).practitioners as any[])
    .map((practitioner) => [practitioner.id as number, (practitioner.qualified_appointment_type_ids ?? []) as number[]]));
  const typeOfVisit = new Map(visitRows.map((row) => [row.id, row.typeId]));
  /** Visits the proposal gives to a practitioner who does not deliver their type (must be 0). */
  const unqualified = (proposal: any) => proposal.lanes.reduce((count: number, lane: any) => count + lane.after.stops.filter((stop: any) => {
    const typeId = typeOfVisit.get(stop.appointment_id);
    return typeId != null && !qualified.get(lane.practitioner_id)?.includes(typeId);
  }).length, 0);

  for (const [mode, on, rulesOff] of [['keep', keep, off.keep], ['reassign', reassign, off.reassign]] as const) {
    rows.push({
      day: `${label} ${mode}`,
      'budget s': budgetSeconds,
      'to proposal s': (on.toProposalMs / 1000).toFixed(2),
      'search s': (on.proposal.search.elapsed_ms / 1000).toFixed(2),
      'hard breaks added (must be 0)': hardIssuesAdded(on.proposal.checks).length,
      'hard before → after': countsText(on.proposal, true),
      'soft before → after': countsText(on.proposal, false),
      'travel h before → after, rules on': `${hours(on.proposal.kpis.before.travel_seconds)} → ${hours(on.proposal.kpis.after.travel_seconds)}`,
      ...movedFromAgreed(on.proposal, agreed),
      'unqualified assignments (must be 0)': unqualified(on.proposal),
      'called in': (on.proposal.called_in ?? []).length,
      'travel h after, rules off': hours(rulesOff.proposal.kpis.after.travel_seconds),
      'price of the rules %': (100 * (on.proposal.kpis.after.travel_seconds / rulesOff.proposal.kpis.after.travel_seconds - 1)).toFixed(1),
      'working-time spread h before → after': `${hours(spread(on.proposal, 'before'))} → ${hours(spread(on.proposal, 'after'))}`,
      ...(mode === 'reassign' ? {
        'balance on: spread h after': hours(spread(balanced.proposal, 'after')),
        'balance on: travel h after': hours(balanced.proposal.kpis.after.travel_seconds),
        'balance on: hard breaks added (must be 0)': hardIssuesAdded(balanced.proposal.checks).length,
        'balance on: unplaced': balanced.proposal.kpis.after.unplaced,
      } : {}),
      unplaced: on.proposal.kpis.after.unplaced,
    });
  }
  rows.push({
    day: `${label} reassign, applied`,
    'queued s': seconds(done.optimization.created_at, done.optimization.started_at),
    'job s': seconds(done.optimization.started_at, done.optimization.finished_at),
    'apply ms': Math.round(applyMs),
    'routes': applied.routes.length,
    'saved %': (100 * (1 - proposal.kpis.after.travel_seconds / proposal.kpis.before.travel_seconds)).toFixed(1),
    'list p50/p99 ms idle': idle.length ? `${quantile(idle, 0.5).toFixed(1)} / ${quantile(idle, 0.99).toFixed(1)}` : '-',
    'list calls while 2 solve': latencies.length,
    'list p50/p99 ms while 2 solve': latencies.length ? `${quantile(latencies, 0.5).toFixed(1)} / ${quantile(latencies, 0.99).toFixed(1)}` : '-',
    'two runs': ended.map(({ optimization }) => (optimization.status === 'COMPLETE' ? 'COMPLETE' : `${optimization.status}: ${optimization.error_message}`)).join('; '),
  });
}
// --week (issue 35, weeks that fit real rosters): a Monday-to-Sunday run, reassigning, of the first scale's
// practitioners working weekdays only (every third also Saturday mornings) and the same clients each weekday as booked
// on the first day: the weekend has nothing to plan; it reports the run's travel, hard breaks added (must be 0),
// practitioners called in on a day they had nothing booked, and each client's distinct carers over the week.
if (process.argv.includes('--week')) {
  const [practitionerCount, visitCount] = scales[0];
  const label = `week${visitCount}v${practitionerCount}p`;
  const today = Temporal.Now.plainDateISO(TIME_ZONE);
  const monday = today.add({ days: 8 - today.dayOfWeek });
  const seeded = await seedBusiness(ctx, label, practitionerCount, visitCount, [monday.toString()]);
  for (const [index, id] of seeded.practitionerIds.entries()) {
    const [row] = await ctx.db.select({ hours: practitioners.working_hours }).from(practitioners).where(eq(practitioners.id, id));
    const weekday = (row.hours as unknown[])[0];
    await ctx.db.update(practitioners).set({ working_hours: [weekday, weekday, weekday, weekday, weekday, index % 3 === 0 ? { start: '08:00', end: '12:00' } : null, null] as never })
      .where(eq(practitioners.id, id));
  }
  // The clients' availability (seeded for the first day's weekday) holds on every weekday.
  const weekClients = await ctx.db.select({ id: clients.id, availability: clients.availability }).from(clients).where(eq(clients.last_name, label));
  for (const client of weekClients.filter((candidate) => (candidate.availability as AvailabilityEntry[]).length > 0)) {
    const entries = client.availability as AvailabilityEntry[];
    await ctx.db.update(clients).set({ availability: [1, 2, 3, 4, 5].flatMap((dow) => entries.map((entry) => ({ ...entry, dow }))) }).where(eq(clients.id, client.id));
  }
  const booked = await ctx.db.select().from(appointments).where(inArray(appointments.practitioner_id, seeded.practitionerIds));
  for (let day = 1; day < 5; day++) {
    const shifted = booked.map(({ id: _id, created_at: _created, updated_at: _updated, ...visit }) => ({
      ...visit, starts_at: new Date(visit.starts_at.getTime() + day * 86_400_000), ends_at: new Date(visit.ends_at.getTime() + day * 86_400_000),
      arrive_at: visit.arrive_at && new Date(visit.arrive_at.getTime() + day * 86_400_000),
    }));
    for (let i = 0; i < shifted.length; i += 500) await ctx.db.insert(appointments).values(shifted.slice(i, i + 500));
  }
  const { token } = await (await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: seeded.email, password: PASSWORD }),
  })).json() as { token: string };
  await call(token, 'PUT', '/optimization_settings', { search_seconds: budgetSeconds });
  const posted = performance.now();
  const { optimization: created } = await call(token, 'POST', '/optimizations', {
    date: monday.toString(), end_date: monday.add({ days: 6 }).toString(), practitioner_ids: seeded.practitionerIds, mode: 'reassign',
  });
  const { optimization: week, at } = await finished(token, created.id);
  if (week.status !== 'COMPLETE') throw new Error(`week run ${created.id} ended ${week.status}: ${week.error_message}`);
  const days = week.days as any[];
  const sum = (pick: (proposal: any) => number) => days.reduce((total, proposal) => total + pick(proposal), 0);
  rows.push({
    day: `${label} Mon-Sun reassign`,
    'budget s per day': budgetSeconds,
    'to proposal s': ((at - posted) / 1000).toFixed(2),
    'days with nothing to plan': days.filter((proposal) => proposal.empty_day).map((proposal) => proposal.empty_day.message).join(' ') || 'none',
    'hard breaks added (must be 0)': sum((proposal) => (proposal.checks ? hardIssuesAdded(proposal.checks).length : 0)),
    'travel h before → after': `${hours(sum((proposal) => proposal.kpis.before.travel_seconds))} → ${hours(sum((proposal) => proposal.kpis.after.travel_seconds))}`,
    'practitioners called in': sum((proposal) => proposal.called_in?.length ?? 0),
    'carers per client before → after': `${week.continuity.mean_carers_before} → ${week.continuity.mean_carers_after}`,
    'clients with more / fewer carers': `${week.continuity.clients_with_more_carers} / ${week.continuity.clients_with_fewer_carers}`,
    unplaced: sum((proposal) => proposal.kpis.after.unplaced),
  });
  await call(token, 'POST', `/optimizations/${created.id}/discard`);
}
// One row per day, as columns (the table is wide).
for (const row of rows) console.table(row);
await Promise.all(workers.map((worker) => worker.close()));
await app.close();
await database.close();
await fresh?.drop();
