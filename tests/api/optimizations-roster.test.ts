// Weeks that fit real rosters (issue 35): a run of any 1–7 consecutive days, weekends included, routes each
// practitioner only on the days they work (a day without hours or without visits is skipped for them, never an
// error); days with nothing to plan say so; a practitioner with nothing booked is called in only when the day reaches
// the call-in threshold, and is named; problems are worded for who reads them; the run counts each client's carers.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, practitioners, routes } from '../../server/src/db/schema';
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

/** Monday to Friday, 08:00–17:00 (working_hours[0] is Monday); nobody works weekends. */
const WEEKDAYS = [...Array.from({ length: 5 }, () => ({ start: '08:00', end: '17:00' })), null, null];

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  [pat, quinn] = acme.practitionerIds;
  line = visitsOnALine(t, acme);
  await homesWestAndEast(t, acme, '08:00', '17:00');
  await t.ctx.db.update(practitioners).set({ working_hours: WEEKDAYS }).where(sql`${practitioners.id} IN ${[pat, quinn]}`);
  // Visits may move anywhere in their day at no price, one client per visit: the rules of home care and the price of
  // a move have their own tests.
  const rules = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { tolerance_minutes: 720, client_gap_minutes: 0, move_price: 0 } });
  expect(rules.status).toBe(200);
}, 120_000);
afterAll(() => t.close());

/** Visits hourly from 09:00 along an east–west line in a bad order (or at `lngs`). */
const zigzagDay = (date: string, practitionerId: number, lngs = [153.07, 152.97, 153.05, 152.99]) => line.zigzagDay(date, practitionerId, lngs);
const addClient = (lng: number) => line.addClient(lng);
const addVisit = (date: string, practitionerId: number, clientId: number, hhmm: string) => line.addVisit(date, practitionerId, clientId, hhmm);

type RunBody = { date: string; end_date?: string; practitioner_ids?: number[]; mode?: OptimizationMode };
const start = (body: RunBody, token = acme.tokens.admin) => t.request('POST', '/api/optimizations', { token, body });

async function optimise(body: RunBody, token = acme.tokens.admin) {
  const created = await start(body, token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const read = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token });
  expect(read.body.optimization.status, read.body.optimization.error_message).toBe('COMPLETE');
  return read.body.optimization;
}

const post = (id: number, action: 'apply' | 'undo' | 'discard', token = acme.tokens.admin) => t.request('POST', `/api/optimizations/${id}/${action}`, { token });
const settings = (body: object) => t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body });

const issueKey = (issue: any) => `${issue.rule}:${[...issue.appointment_ids].sort((x: number, y: number) => x - y).join(',')}`;
const hardIssuesAdded = (proposal: any) => {
  const before = new Set((proposal.checks?.before ?? []).map(issueKey));
  return (proposal.checks?.after ?? []).filter((issue: any) => issue.hard && !before.has(issueKey(issue)));
};
const placed = (proposal: any) => proposal.lanes.flatMap((lane: any) => lane.after.stops.map((stop: any) => stop.appointment_id)).sort();

describe('a run of Monday to Sunday where nobody works weekends', () => {
  const DAYS = ['2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08', '2030-03-09', '2030-03-10'];
  const visitIds = new Map<string, number[]>();

  it('runs, says the weekend has no visits, and applies every weekday', async () => {
    for (const day of DAYS.slice(0, 5)) visitIds.set(day, [...await zigzagDay(day, pat), ...await zigzagDay(day, quinn)]);
    const run = await optimise({ date: DAYS[0], end_date: DAYS[6] });
    expect(run.practitioner_ids.sort()).toEqual([pat, quinn].sort());
    expect(run.days.map((day: any) => day.date)).toEqual(DAYS);
    for (const [index, day] of run.days.slice(0, 5).entries()) {
      expect(placed(day)).toEqual([...visitIds.get(DAYS[index])!].sort());
      expect(day.empty_day).toBeNull();
      expect(day.kpis.after.travel_seconds).toBeLessThan(day.kpis.before.travel_seconds);
      expect(hardIssuesAdded(day)).toEqual([]);
    }
    expect(run.days.slice(5).map((day: any) => [day.lanes.length, day.empty_day])).toEqual([
      [0, { reason: 'no-visits', message: 'Saturday 9: no visits.' }],
      [0, { reason: 'no-visits', message: 'Sunday 10: no visits.' }],
    ]);
    const applied = await post(run.id, 'apply');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    for (const day of DAYS.slice(0, 5)) await expectRoutesAccepted(t, acme, day, [pat, quinn], 'keep_practitioners', []);
    const weekend = await t.ctx.db.select().from(routes).where(and(eq(routes.business_account_id, acme.businessAccountId), sql`${routes.day} IN ${DAYS.slice(5)}`));
    expect(weekend).toEqual([]);
    expect((await post(run.id, 'undo')).status).toBe(200);
  });
});

describe('a run of Wednesday to Tuesday', () => {
  const DAYS = ['2030-03-13', '2030-03-14', '2030-03-15', '2030-03-16', '2030-03-17', '2030-03-18', '2030-03-19'];

  it('plans each working day across the weekend, reassigning, and applies', async () => {
    const ids = new Map<string, number[]>();
    for (const day of [...DAYS.slice(0, 3), ...DAYS.slice(5)]) ids.set(day, [...await zigzagDay(day, pat), ...await zigzagDay(day, quinn)]);
    const run = await optimise({ date: DAYS[0], end_date: DAYS[6], practitioner_ids: [pat, quinn], mode: 'reassign' });
    expect(run.days.map((day: any) => day.date)).toEqual(DAYS);
    for (const [index, day] of run.days.entries()) {
      if (index === 3 || index === 4) {
        expect(day.empty_day.reason).toBe('no-visits');
        continue;
      }
      expect(placed(day)).toEqual([...ids.get(DAYS[index])!].sort());
      expect(day.called_in).toEqual([]);
      expect(hardIssuesAdded(day)).toEqual([]);
    }
    expect(run.continuity).toMatchObject({ clients: 40, carers_before: 40 });
    expect((await post(run.id, 'apply')).status).toBe(200);
    for (const day of [...DAYS.slice(0, 3), ...DAYS.slice(5)]) await expectRoutesAccepted(t, acme, day, [pat, quinn], 'reassign', []);
  });
});

describe('calling a practitioner in on a day they had nothing booked', () => {
  const DAY = '2030-03-20'; // Wednesday
  let visits: number[];

  beforeAll(async () => {
    // Six visits in the east, near Quinn's home, all booked with Pat (who lives in the west); Quinn works that day
    // with nothing booked. Travel alone decides (no continuity weight).
    visits = await zigzagDay(DAY, pat, [153.08, 153.1, 153.09, 153.1, 153.08, 153.09]);
    expect((await settings({ preset: 'shortest_travel' })).status).toBe(200);
  });
  afterAll(async () => {
    expect((await settings({ preset: 'balanced', call_in_min_visits: 3, call_in_min_minutes: 180 })).status).toBe(200);
  });

  it('keeping each visit with its practitioner, leaves a practitioner with nothing booked out of the day', async () => {
    const run = await optimise({ date: DAY, practitioner_ids: [pat, quinn] });
    expect(run.proposal.lanes.map((lane: any) => lane.practitioner_id)).toEqual([pat]);
    expect(run.proposal.called_in).toEqual([]);
    await post(run.id, 'discard');
  });

  it('does not call them in below the threshold', async () => {
    expect((await settings({ call_in_min_visits: 10, call_in_min_minutes: 0 })).status).toBe(200);
    const run = await optimise({ date: DAY, practitioner_ids: [pat, quinn], mode: 'reassign' });
    expect(run.proposal.called_in).toEqual([]);
    expect(run.proposal.lanes.map((lane: any) => lane.practitioner_id)).toEqual([pat]);
    expect(placed(run.proposal)).toEqual([...visits].sort());
    await post(run.id, 'discard');
  });

  it('calls them in at the threshold and names them, in the API', async () => {
    expect((await settings({ call_in_min_visits: 3, call_in_min_minutes: 180 })).status).toBe(200);
    const run = await optimise({ date: DAY, practitioner_ids: [pat, quinn], mode: 'reassign' });
    const lane = run.proposal.lanes.find((candidate: any) => candidate.practitioner_id === quinn);
    expect(lane.before.stops).toEqual([]);
    expect(lane.after.stops.length).toBeGreaterThanOrEqual(3);
    const working = (Date.parse(lane.after.end_at) - Date.parse(lane.after.depart_at)) / 1000;
    const minutes = Math.round(working / 60);
    expect(run.proposal.called_in).toEqual([{
      practitioner_id: quinn, practitioner_name: 'Quinn acme-Two', visits: lane.after.stops.length, working_seconds: Math.round(working),
      message: `Calls in Quinn acme-Two on Wednesday 20: ${lane.after.stops.length} visits, ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${String(minutes % 60).padStart(2, '0')}` : ''}.`,
    }]);
    expect(hardIssuesAdded(run.proposal)).toEqual([]);
    expect((await post(run.id, 'apply')).status).toBe(200);
    await expectRoutesAccepted(t, acme, DAY, [pat, quinn], 'reassign', run.proposal.unplaced);
  });

  it('refuses a threshold out of range with 422 and a message', async () => {
    for (const body of [{ call_in_min_visits: 0 }, { call_in_min_visits: 51 }, { call_in_min_minutes: -1 }, { call_in_min_minutes: 721 }, { call_in_min_visits: 'three' }]) {
      const refused = await settings(body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.message).toMatch(/call_in_min/);
    }
    const read = await t.request('GET', '/api/optimization_settings', { token: acme.tokens.staff });
    expect(read.body.optimization_settings ?? read.body).toMatchObject({ call_in_min_visits: 3, call_in_min_minutes: 180 });
  });
});

describe('problems in words for who reads them', () => {
  const DAY = '2030-03-25'; // Monday

  it('skips a day a practitioner has visits but no hours, saying so, and still names what blocks one with visits', async () => {
    await zigzagDay(DAY, pat);
    const saturday = await addVisit('2030-03-30', quinn, await addClient(153.05), '10:00');
    const run = await optimise({ date: DAY, end_date: '2030-03-31', practitioner_ids: [pat, quinn] }, acme.tokens.staff);
    expect(run.days[5]).toMatchObject({
      lanes: [], empty_day: { reason: 'nobody-works', message: 'Saturday 30: nobody works.' },
      not_routed: [{
        practitioner_id: quinn, practitioner_name: 'Quinn acme-Two', visits: 1,
        message: 'Quinn acme-Two has 1 visit on Saturday 30 but no working hours on Saturdays: they stay as they are '
          + '(an administrator can set their hours in Settings → Practitioners).',
      }],
    });
    expect((await post(run.id, 'apply', acme.tokens.staff)).status).toBe(200);
    const [kept] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, saturday));
    expect(kept.practitioner_id).toBe(quinn);
    expect((await post(run.id, 'undo', acme.tokens.staff)).status).toBe(200);

    await t.ctx.db.update(practitioners).set({ start_place_kind: null }).where(eq(practitioners.id, pat));
    try {
      const staff = await start({ date: DAY, end_date: '2030-03-31', practitioner_ids: [pat, quinn] }, acme.tokens.staff);
      expect(staff.status).toBe(422);
      expect(staff.body.errors).toEqual([
        'practitioner_ids: Pat acme-One has no start place with a map position: an administrator can set one in Settings → Practitioners.',
      ]);
      const admin = await start({ date: DAY, end_date: '2030-03-31', practitioner_ids: [pat, quinn] });
      expect(admin.body.errors).toEqual(['practitioner_ids: Pat acme-One has no start place with a map position: set one in Settings → Practitioners.']);
      // Quinn, who has no start place either on a day without visits, is no reason to refuse a run of her other days.
      await t.ctx.db.update(practitioners).set({ start_place_kind: 'home' }).where(eq(practitioners.id, pat));
      await t.ctx.db.update(practitioners).set({ start_place_kind: null }).where(eq(practitioners.id, quinn));
      const withoutQuinn = await optimise({ date: DAY, end_date: '2030-03-26', practitioner_ids: [pat, quinn] }, acme.tokens.staff);
      expect(withoutQuinn.days[0].lanes.map((lane: any) => lane.practitioner_id)).toEqual([pat]);
      await post(withoutQuinn.id, 'discard', acme.tokens.staff);
    } finally {
      await t.ctx.db.update(practitioners).set({ start_place_kind: 'home' }).where(sql`${practitioners.id} IN ${[pat, quinn]}`);
    }
  });
});
