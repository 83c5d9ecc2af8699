// Planning a week: a run of up to seven days solves each day in turn with the day's rules, carries continuity across
// the days when reassigning, and applies, undoes and discards every day together; a day that refuses refuses them all.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, routes } from '../../server/src/db/schema';
import type { OptimizationMode } from '../../server/src/modules/optimizations';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { expectRoutesAccepted, homesWestAndEast, visitsOnALine } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let line: ReturnType<typeof visitsOnALine>;
let pat: number;
let quinn: number;

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  [pat, quinn] = acme.practitionerIds;
  line = visitsOnALine(t, acme);
  await homesWestAndEast(t, acme, '08:00', '17:00');
  // Visits may move anywhere in their day at no price, one client per visit: the rules of home care have their own tests.
  const rules = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { tolerance_minutes: 720, client_gap_minutes: 0, move_price: 0 } });
  expect(rules.status).toBe(200);
}, 120_000);
afterAll(() => t.close());

/** Visits hourly from 09:00 that zig-zag east–west: a bad order. */
const zigzagDay = (date: string, practitionerId: number) => line.zigzagDay(date, practitionerId, [153.07, 152.97, 153.05, 152.99, 153.03]);
const addClient = (lng: number) => line.addClient(lng);
const addVisit = (date: string, practitionerId: number, clientId: number, hhmm: string) => line.addVisit(date, practitionerId, clientId, hhmm);

type RunBody = { date: string; end_date?: string; practitioner_ids?: number[]; mode?: OptimizationMode };
const start = (body: RunBody, token = acme.tokens.admin) => t.request('POST', '/api/optimizations', { token, body });

async function optimise(body: RunBody) {
  const created = await start(body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const read = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
  expect(read.body.optimization.status, read.body.optimization.error_message).toBe('COMPLETE');
  return read.body.optimization;
}

const post = (id: number, action: 'apply' | 'undo' | 'discard', token = acme.tokens.admin) =>
  t.request('POST', `/api/optimizations/${id}/${action}`, { token });

async function arrivals(ids: number[]): Promise<Map<number, string | null>> {
  const rows = await t.ctx.db.select().from(appointments).where(sql`${appointments.id} IN ${ids}`);
  return new Map(rows.map((row) => [row.id, row.arrive_at?.toISOString() ?? null]));
}

const routesOn = (date: string) => t.ctx.db.select().from(routes)
  .where(and(eq(routes.business_account_id, acme.businessAccountId), eq(routes.day, date)));

const issueKey = (issue: any) => `${issue.rule}:${[...issue.appointment_ids].sort((x: number, y: number) => x - y).join(',')}`;
const hardIssuesAdded = (proposal: any) => {
  const before = new Set(proposal.checks.before.map(issueKey));
  return proposal.checks.after.filter((issue: any) => issue.hard && !before.has(issueKey(issue)));
};

describe('a run of three days, keeping each visit with its practitioner', () => {
  const DAYS = ['2029-12-10', '2029-12-11', '2029-12-12']; // Monday to Wednesday
  const visitIds = new Map<string, number[]>();
  let run: any;

  beforeAll(async () => {
    for (const day of DAYS) visitIds.set(day, [...await zigzagDay(day, pat), ...await zigzagDay(day, quinn)]);
    run = await optimise({ date: DAYS[0], end_date: DAYS[2], practitioner_ids: [pat, quinn] });
  });

  it('holds a proposal per day, each better and adding no hard break, and says it planned three days', () => {
    expect(run).toMatchObject({ date: DAYS[0], end_date: DAYS[2] });
    expect(run.days.map((day: any) => day.date)).toEqual(DAYS);
    expect(run.proposal).toEqual(run.days[0]);
    for (const [index, day] of run.days.entries()) {
      const ids = day.lanes.flatMap((lane: any) => lane.after.stops.map((stop: any) => stop.appointment_id)).sort();
      expect(ids).toEqual([...visitIds.get(DAYS[index])!].sort());
      expect(day.kpis.after.travel_seconds).toBeLessThan(day.kpis.before.travel_seconds);
      expect(day.kpis.after.unplaced).toBe(0);
      // Keeping practitioners, continuity is not weighed: no count of visits away from their usual practitioner.
      expect(day.kpis.after).not.toHaveProperty('away_from_usual');
      expect(hardIssuesAdded(day)).toEqual([]);
    }
    expect(run.progress).toEqual({
      elapsed_ms: expect.any(Number), best_travel_seconds: run.days[2].kpis.after.travel_seconds, fraction: 1, day_index: 3, day_count: 3, date: DAYS[2], searches: t.ctx.config.optimizerThreads,
    });
  });

  it('applies every day together, and undoes every day together', async () => {
    const before = await arrivals(DAYS.flatMap((day) => visitIds.get(day)!));
    const applied = await post(run.id, 'apply');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.routes.map((route: any) => route.day).sort()).toEqual(DAYS.flatMap((day) => [day, day]));
    for (const [index, day] of DAYS.entries()) {
      expect((await routesOn(day)).map((route) => route.optimization_job_id)).toEqual([run.id, run.id]);
      const now = await arrivals(visitIds.get(day)!);
      for (const lane of run.days[index].lanes) {
        for (const stop of lane.after.stops) expect(now.get(stop.appointment_id)).toBe(stop.arrive_at);
      }
      await expectRoutesAccepted(t, acme, day, [pat, quinn], 'keep_practitioners', run.days[index].unplaced);
    }
    expect((await post(run.id, 'apply')).status).toBe(409);

    const undone = await post(run.id, 'undo');
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.routes).toEqual([]);
    for (const day of DAYS) expect(await routesOn(day)).toEqual([]);
    expect(await arrivals([...before.keys()])).toEqual(before);
  });
});

describe('one day that refuses refuses them all', () => {
  const DAYS = ['2029-12-17', '2029-12-18', '2029-12-19'];

  it('writes nothing and names the day when a day\'s visits changed since the proposal', async () => {
    const ids = new Map<string, number[]>();
    for (const day of DAYS) ids.set(day, await zigzagDay(day, pat));
    const run = await optimise({ date: DAYS[0], end_date: DAYS[2], practitioner_ids: [pat] });
    const edited = await t.request('PUT', `/api/appointments/${ids.get(DAYS[2])![1]}/update_arrival_time`, {
      token: acme.tokens.staff, body: { arrive_at: `${DAYS[2]}T10:05:00+10:00` },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const before = await arrivals(DAYS.flatMap((day) => ids.get(day)!));

    const refused = await post(run.id, 'apply');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('SCHEDULE_CHANGED');
    expect(refused.body.message).toMatch(/^Wednesday 19 December 2029: The schedule changed/);
    for (const day of DAYS) expect(await routesOn(day)).toEqual([]);
    expect(await arrivals([...before.keys()])).toEqual(before);
    const read = await t.request('GET', `/api/optimizations/${run.id}`, { token: acme.tokens.admin });
    expect(read.body.optimization.applied_at).toBeNull();

    // Discard discards every day: none of them can be applied any more.
    const discarded = await post(run.id, 'discard');
    expect(discarded.status).toBe(200);
    expect(discarded.body.optimization.days).toHaveLength(3);
    expect((await post(run.id, 'apply')).body.code).toBe('OPTIMIZATION_DISCARDED');
  });
});

describe('continuity across the days when reassigning', () => {
  const DAYS = ['2029-12-24', '2029-12-25', '2029-12-26'];

  it('keeps a client with one practitioner over the days where the booked plan split them', async () => {
    // Mia lives halfway between Pat (west) and Quinn (east): travel does not choose between them, continuity does.
    // Last week Quinn saw her; this week she is booked with Pat, then Quinn, then Pat. Her second day's usual
    // practitioner in the book is Pat (her first day's booking), but the plan gave her Quinn on the first day.
    // Each day one of them has nothing booked: calling them in for Mia's one visit is what continuity asks here.
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { call_in_min_visits: 1 } })).status).toBe(200);
    const mia = await addClient(153.02);
    await addVisit('2029-12-17', quinn, mia, '11:00');
    const booked = [await addVisit(DAYS[0], pat, mia, '11:00'), await addVisit(DAYS[1], quinn, mia, '11:00'), await addVisit(DAYS[2], pat, mia, '11:00')];
    const run = await optimise({ date: DAYS[0], end_date: DAYS[2], practitioner_ids: [pat, quinn], mode: 'reassign' });

    const planned = run.days.map((day: any, index: number) =>
      day.lanes.find((lane: any) => lane.after.stops.some((stop: any) => stop.appointment_id === booked[index])).practitioner_id);
    expect(planned).toEqual([quinn, quinn, quinn]);
    // The proposal counts what continuity weighs: her visits booked away from her usual practitioner, then none.
    expect(run.days.map((day: any) => [day.kpis.before.away_from_usual, day.kpis.after.away_from_usual])).toEqual([[1, 0], [0, 0], [1, 0]]);
    for (const day of run.days) expect(hardIssuesAdded(day)).toEqual([]);
    expect((await post(run.id, 'apply')).status).toBe(200);
    const rows = await t.ctx.db.select().from(appointments).where(sql`${appointments.id} IN ${booked}`);
    expect(rows.map((row) => row.practitioner_id)).toEqual([quinn, quinn, quinn]);
    // The run counts Mia's carers over the three days: two as booked, one as planned.
    expect(run.continuity).toEqual({
      clients: 1, carers_before: 2, carers_after: 1, mean_carers_before: 2, mean_carers_after: 1, clients_with_fewer_carers: 1, clients_with_more_carers: 0,
    });
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { call_in_min_visits: 3 } })).status).toBe(200);
  });
});

describe('balance across the days', () => {
  const DAYS = ['2030-01-07', '2030-01-08'];

  it('gives a practitioner whose earlier day was long less of the next day than a run of that day alone would', async () => {
    const on = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { balance_workload: true, balance_weight: 100 } });
    expect(on.status).toBe(200);
    try {
      // The first day: Pat's six visits are locked to Pat; Quinn has none. The second day: six visits halfway between
      // their homes, booked with Pat; new clients, so no continuity pulls either way.
      for (let hour = 9; hour < 15; hour++) {
        const id = await addVisit(DAYS[0], pat, await addClient(153.02), `${String(hour).padStart(2, '0')}:00`);
        await t.ctx.db.update(appointments).set({ arrival_locked: true }).where(eq(appointments.id, id));
      }
      const second: number[] = [];
      for (let hour = 9; hour < 15; hour++) second.push(await addVisit(DAYS[1], pat, await addClient(153.02), `${String(hour).padStart(2, '0')}:00`));
      const visitsOf = (proposal: any, practitionerId: number) =>
        proposal.lanes.find((lane: any) => lane.practitioner_id === practitionerId).after.stops.filter((stop: any) => second.includes(stop.appointment_id)).length;

      const alone = await optimise({ date: DAYS[1], practitioner_ids: [pat, quinn], mode: 'reassign' });
      expect(Math.abs(visitsOf(alone.proposal, pat) - visitsOf(alone.proposal, quinn))).toBeLessThanOrEqual(2);
      await post(alone.id, 'discard');

      const both = await optimise({ date: DAYS[0], end_date: DAYS[1], practitioner_ids: [pat, quinn], mode: 'reassign' });
      const [, day] = both.days;
      expect(visitsOf(day, quinn) - visitsOf(day, pat)).toBeGreaterThanOrEqual(4);
      expect(hardIssuesAdded(day)).toEqual([]);
      await post(both.id, 'discard');
    } finally {
      await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { balance_workload: false } });
    }
  });
});

describe('starting a run of several days', () => {
  const DAY = '2030-01-07'; // Monday

  beforeAll(async () => {
    await zigzagDay(DAY, pat);
    await zigzagDay('2030-01-09', quinn);
  });

  it('refuses, in words, a last day before the first, more than six days after it, or not a date', async () => {
    for (const [endDate, message] of [
      ['2030-01-06', /end_date: the last day \(Sunday 6 January 2030\) is before the first/],
      ['2030-01-14', /end_date: a run plans at most 7 days; Monday 14 January 2030 is 7 days after Monday 7 January 2030/],
      ['2030-02-30', /end_date/],
    ] as const) {
      const refused = await start({ date: DAY, end_date: endDate, practitioner_ids: [pat] });
      expect(refused.status, endDate).toBe(422);
      expect(refused.body.message).toMatch(message);
    }
    const past = await start({ date: '2020-01-06', end_date: '2020-01-08', practitioner_ids: [pat] });
    expect(past.status).toBe(422);
    expect(past.body.message).toMatch(/before today/);
    // Six days after is a week: accepted, and by default it takes the practitioners with visits on any of its days.
    const week = await start({ date: DAY, end_date: '2030-01-13' });
    expect(week.status, JSON.stringify(week.body)).toBe(201);
    expect(week.body.optimization).toMatchObject({ date: DAY, end_date: '2030-01-13', days: null });
    expect(week.body.optimization.practitioner_ids.sort()).toEqual([pat, quinn].sort());
    // While it has not finished, a run of one of its days with one of its practitioners waits.
    const clash = await start({ date: '2030-01-10', practitioner_ids: [quinn] }, acme.tokens.staff);
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/Monday 7 January 2030 to Sunday 13 January 2030/);
    expect((await t.request('POST', `/api/optimizations/${week.body.optimization.id}/cancel`, { token: acme.tokens.admin })).status).toBe(200);
  });

  // A practitioner's 403 and another business's 404 are asserted, for every operation, by permissions.test.ts.
  it('is not shown to a REGULAR_USER who did not start it', async () => {
    const run = await optimise({ date: DAY, end_date: '2030-01-08', practitioner_ids: [pat] });
    expect(run.days).toHaveLength(2);
    expect((await t.request('GET', `/api/optimizations/${run.id}`, { token: acme.tokens.staff })).status).toBe(404);
  });
});
