// A proposal never adds a break of a hard rule, whatever the search leaves (ADR 0020), and Apply checks it the same
// way, so it accepts a proposal while its day is unchanged. The search here is a stand-in that, round after round,
// leaves Pat's visit unplaced (it stays where it is) and gives Pat Quinn's visit at the same time, as a short search
// of a large day does (bench:optimize's 1,000 visits: Apply answered 409 RULES_BROKEN to such a proposal).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appointments, clients, practitioners } from '../../server/src/db/schema';
import type { Problem, Route, Solution } from '../../server/src/optimizer';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { brisbaneAt as at, brisbaneClock as clock, homesWestAndEast, workingEveryDay } from './support/routing';

/** The plan the stand-in search answers: practitioner id → [visit id, start 'HH:MM'] in order; every other visit unplaced. */
const plan = { routes: new Map<number, [number, string][]>() };

vi.mock('../../server/src/optimizer', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/src/optimizer')>();
  const seconds = (hhmm: string) => Number(hhmm.slice(0, 2)) * 3600 + Number(hhmm.slice(3)) * 60;
  const solveInWorker = async (problem: Problem): Promise<Solution> => {
    const durationOf = new Map(problem.visits.map((visit) => [visit.id, visit.duration]));
    const routes = problem.practitioners.map((practitioner): Route => {
      const stops = (plan.routes.get(Number(practitioner.id)) ?? []).map(([id, hhmm]) => ({
        visitId: String(id), arrival: seconds(hhmm), start: seconds(hhmm), departure: seconds(hhmm) + durationOf.get(String(id))!,
        waiting: 0, travelTime: 0, travelDistance: 0, lateness: 0,
      }));
      return {
        practitionerId: practitioner.id, stops, departStart: stops[0]?.start ?? practitioner.shift.start, arriveEnd: stops.at(-1)?.departure ?? practitioner.shift.start,
        returnTravelTime: 0, returnTravelDistance: 0, break: null, travelTime: 0, travelDistance: 0, overtime: 0,
      };
    });
    const routed = new Set(routes.flatMap((route) => route.stops.map((stop) => stop.visitId)));
    return {
      routes,
      unassigned: problem.visits.filter((visit) => !routed.has(visit.id)).map((visit) => ({ visitId: visit.id, reason: 'no-room-in-schedules', message: 'no room' })),
      objective: { total: 0, travelCost: 0, travelTime: 0, travelDistance: 0, continuity: 0, lateness: 0, overtime: 0, balance: 0, moved: 0, unassigned: 0 },
      stats: { iterations: 1, elapsedMs: 1, seed: 1, stoppedBy: 'iterations' },
    };
  };
  // The stand-in's plan keeps no pins: the optimiser's own checker would refuse it, and what is tested here is the
  // proposal and Apply's check of whatever plan a search leaves.
  return { ...real, solveInWorker, checkSolution: () => ({ errors: [] }) };
});

let t: TestApp;
let acme: BusinessFixture;
let pat: number;
let quinn: number;
let rae: number;
let sam: number;
const DAY = '2029-04-10';

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 100 });
  acme = await createBusinessFixture(t, 'acme');
  [pat, quinn] = acme.practitionerIds;
  await homesWestAndEast(t, acme, '07:00', '19:00');
  [rae, sam] = (await t.ctx.db.insert(practitioners).values(['Rae', 'Sam'].map((name, k) => ({
    business_account_id: acme.businessAccountId, first_name: name, last_name: 'acme', time_zone: 'Australia/Brisbane',
    start_place_kind: 'home' as const, home_address: `${5 + k} Middle St`, home_lat: -27.47, home_lng: 153.02 + k / 100, working_hours: workingEveryDay('07:00', '19:00'),
  }))).returning({ id: practitioners.id })).map((row) => row.id);
}, 120_000);
afterAll(() => t.close());

let clientCount = 0;
async function addVisit(
  practitionerId: number, hhmm: string, lng: number, options: { date?: string; startsAt?: Date; client?: Partial<typeof clients.$inferInsert> } = {},
): Promise<number> {
  const [client] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: `Client${++clientCount}`, last_name: 'Care', lat: -27.47, lng, time_zone: 'Australia/Brisbane',
    ...options.client,
  }).returning();
  const startsAt = options.startsAt ?? at(options.date ?? DAY, hhmm);
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 30 * 60_000), arrive_at: startsAt, lat: client.lat, lng: client.lng,
  }).returning({ id: appointments.id });
  return row.id;
}

const issueKey = (issue: any) => `${issue.rule}:${[...issue.appointment_ids].sort((x: number, y: number) => x - y).join(',')}`;
const where = (proposal: any) => new Map<number, { practitioner: number; at: string }>(proposal.lanes.flatMap((lane: any) => lane.after.stops
  .map((stop: any) => [stop.appointment_id, { practitioner: lane.practitioner_id, at: clock(stop.arrive_at) }])));

async function optimise(date: string, practitionerIds: number[]) {
  const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date, practitioner_ids: practitionerIds, mode: 'reassign' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const { optimization } = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin })).body;
  expect(optimization.status, JSON.stringify(optimization.error)).toBe('COMPLETE');
  return optimization;
}

describe('a search that leaves a break of the rules in every round', () => {
  it('gets a proposal that keeps the days involved as they are, and Apply accepts it', async () => {
    const patsVisit = await addVisit(pat, '09:00', 152.95);
    const quinnsVisit = await addVisit(quinn, '09:00', 152.96);
    const raesFirst = await addVisit(rae, '10:00', 153.02);
    const raesSecond = await addVisit(rae, '13:00', 153.03);
    const samsVisit = await addVisit(sam, '11:00', 153.04);
    // Pat's visit is left unplaced (it stays with Pat at 09:00) while Quinn's is given to Pat at 09:00: two at once.
    // Sam's goes to Quinn: kept with Quinn's day as it is, it stays with Sam (no visit crosses into a day kept as it is).
    plan.routes = new Map([
      [pat, [[quinnsVisit, '09:00']]], [quinn, [[samsVisit, '11:00']]], [rae, [[raesFirst, '10:15'], [raesSecond, '13:00']]],
    ]);

    const run = await optimise(DAY, [pat, quinn, rae, sam]);

    // The proposal adds no hard problem: Pat's, Quinn's and Sam's days stay as they are; Rae's change (no one else's) stays.
    const before = new Set(run.proposal.checks.before.map(issueKey));
    expect(run.proposal.checks.after.filter((issue: any) => issue.hard && !before.has(issueKey(issue)))).toEqual([]);
    const planned = where(run.proposal);
    expect(planned.get(patsVisit)).toEqual({ practitioner: pat, at: '09:00' });
    expect(planned.get(quinnsVisit)).toEqual({ practitioner: quinn, at: '09:00' });
    expect(planned.get(samsVisit)).toEqual({ practitioner: sam, at: '11:00' });
    expect(planned.get(raesFirst)).toEqual({ practitioner: rae, at: '10:15' });
    expect(run.proposal.changes.map((change: any) => change.appointment_id)).toEqual([raesFirst]);
    expect(run.proposal.unplaced).toEqual([]);

    const applied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.admin });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const rows = new Map((await t.ctx.db.select().from(appointments).where(eq(appointments.business_account_id, acme.businessAccountId)))
      .map((row) => [row.id, row]));
    expect(rows.get(patsVisit)).toMatchObject({ practitioner_id: pat, arrive_at: at(DAY, '09:00') });
    expect(rows.get(quinnsVisit)).toMatchObject({ practitioner_id: quinn, arrive_at: at(DAY, '09:00') });
    expect(rows.get(samsVisit)).toMatchObject({ practitioner_id: sam, arrive_at: at(DAY, '11:00') });
    expect(rows.get(raesFirst)).toMatchObject({ practitioner_id: rae, arrive_at: at(DAY, '10:15') });
  });
});

describe('the proposal and Apply read the day the same way', () => {
  it("read a client's availability on the practitioner's clock when the client has none, and Apply accepts what the proposal accepts", async () => {
    const date = '2029-04-11';
    const [perth] = await t.ctx.db.insert(practitioners).values({
      business_account_id: acme.businessAccountId, first_name: 'Wren', last_name: 'acme', time_zone: 'Australia/Perth',
      start_place_kind: 'home', home_address: '7 West St', home_lat: -27.47, home_lng: 152.94, working_hours: workingEveryDay('07:00', '19:00'),
    }).returning({ id: practitioners.id });
    // 09:00–12:00 on Wren's clock (Perth, two hours behind the business's Brisbane); booked 09:30 Perth = 11:30 Brisbane.
    const visit = await addVisit(perth.id, '11:30', 152.95, {
      date, client: { time_zone: null, availability: [{ dow: 3, hours: ['09:00-12:00'] }] },
    });
    // The plan moves it to 10:00 Perth (12:00 in Brisbane): within its tolerance and the client's hours on Wren's clock.
    plan.routes = new Map([[perth.id, [[visit, '12:00']]]]);
    const run = await optimise(date, [perth.id]);
    expect(run.proposal.checks.after.filter((issue: any) => issue.hard)).toEqual([]);
    expect(where(run.proposal).get(visit)).toEqual({ practitioner: perth.id, at: '12:00' });

    const applied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.admin });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, visit));
    expect(row.arrive_at).toEqual(at(date, '12:00'));
  });
});

describe("the proposal's checks", () => {
  it("list the problems of the run's visits, not those of practitioners outside it", async () => {
    const date = '2029-04-12';
    const patsVisit = await addVisit(pat, '09:00', 152.95, { date });
    // Quinn, outside the run, has two visits at once: a problem of the day, not of this proposal.
    const quinns = [await addVisit(quinn, '10:00', 153.05, { date }), await addVisit(quinn, '10:15', 153.06, { date })];
    plan.routes = new Map([[pat, [[patsVisit, '09:10']]]]);
    const run = await optimise(date, [pat]);
    const named = [...run.proposal.checks.before, ...run.proposal.checks.after].flatMap((issue: any) => issue.appointment_ids);
    expect(named.filter((id: number) => quinns.includes(id))).toEqual([]);
    const applied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.admin });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    // The day's own list still names Quinn's overlap.
    const issues = await t.request('GET', `/api/schedule/issues?date=${date}`, { token: acme.tokens.admin });
    expect(issues.body.issues.filter((issue: any) => issue.rule === 'practitioner-overlap').map((issue: any) => issue.appointment_ids)).toEqual([quinns]);
  });
});
