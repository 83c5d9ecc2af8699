// Re-planning the rest of today when a practitioner falls sick: the coordinator records leave from now to the end of
// the day and optimises today with Reassign. The practitioner's remaining visits go to the others (or are named as
// left out), their visits done this morning keep their times, practitioner and steps, and the day checker finds no
// hard problem once applied.
//
// The business is put in a whole-hour zone where it is about 11:00 now, so the morning has passed and the afternoon is
// ahead whenever this runs.
import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, businessAccounts, clients, practitioners } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { workingEveryDay } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let pat: number;
let quinn: number;

const offsetHours = ((11 - new Date().getUTCHours() + 36) % 24) - 12;
// Etc/GMT zones count the other way: Etc/GMT-3 is UTC+3.
const ZONE = `Etc/GMT${offsetHours <= 0 ? '+' : '-'}${Math.abs(offsetHours)}`;
const TODAY = Temporal.Now.plainDateISO(ZONE).toString();
/** Now, to the minute, plus `minutes`. */
const fromNow = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000);
const clockIn = (instant: Date) => Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(ZONE).toPlainTime().toString({ smallestUnit: 'minute' });

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  [pat, quinn] = acme.practitionerIds;
  await t.ctx.db.update(businessAccounts).set({ time_zone: ZONE }).where(eq(businessAccounts.id, acme.businessAccountId));
  for (const [id, lng] of [[pat, 152.93], [quinn, 153.11]] as const) {
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: 'Home', home_lat: -27.47, home_lng: lng, working_hours: workingEveryDay('00:00', '23:59'), time_zone: ZONE,
    }).where(eq(practitioners.id, id));
  }
}, 120_000);
afterAll(() => t.close());

let clientCount = 0;
async function addVisit(practitionerId: number, startsAt: Date, lng: number): Promise<number> {
  const [client] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: `C${++clientCount}`, last_name: 'Client', lat: -27.47, lng, time_zone: ZONE,
  }).returning();
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 30 * 60_000), arrive_at: startsAt, lat: -27.47, lng,
  }).returning({ id: appointments.id });
  return row.id;
}

let stepCount = 0;
async function stepAt(id: number, step: 'on_my_way' | 'arrived' | 'done', at: Date) {
  const answer = await t.request('POST', `/api/appointments/${id}/steps`, {
    token: acme.tokens.practitioner, body: { idempotency_key: `replan-${process.pid}-${++stepCount}`, step, at: at.toISOString() },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

const hardIssues = async () => {
  const day = await t.request('GET', `/api/schedule/issues?date=${TODAY}`, { token: acme.tokens.admin });
  expect(day.status, JSON.stringify(day.body)).toBe(200);
  return day.body.issues.filter((issue: any) => issue.hard);
};
const visit = async (id: number) => (await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.admin })).body.appointment;

describe('a practitioner falls sick in the middle of the day', () => {
  it("records leave from now, and Reassign gives the rest of their day to the others; the morning's visits stay as they were", async () => {
    // Pat (the practitioner user) did two visits this morning; three are left this afternoon. Quinn has one.
    const morning = [await addVisit(pat, fromNow(-180), 152.95), await addVisit(pat, fromNow(-90), 152.97)];
    for (const [index, id] of morning.entries()) {
      const start = fromNow(index === 0 ? -180 : -90);
      await stepAt(id, 'on_my_way', new Date(start.getTime() - 15 * 60_000));
      await stepAt(id, 'arrived', start);
      await stepAt(id, 'done', new Date(start.getTime() + 30 * 60_000));
    }
    const afternoon = [await addVisit(pat, fromNow(90), 153.0), await addVisit(pat, fromNow(180), 153.02), await addVisit(pat, fromNow(270), 153.04)];
    await addVisit(quinn, fromNow(120), 153.08);
    const morningBefore = await Promise.all(morning.map(visit));

    // Pat calls in sick: leave from now to the end of the day.
    const leave = await t.request('POST', '/api/practitioner_leave', {
      token: acme.tokens.admin, body: { practitioner_id: pat, start_date: TODAY, end_date: TODAY, start_time: clockIn(fromNow(0)), end_time: '23:59', reason: 'Sick' },
    });
    expect(leave.status, JSON.stringify(leave.body)).toBe(201);
    // The checker names Pat's afternoon visits as booked in leave.
    const before = await hardIssues();
    for (const id of afternoon) expect(before.some((issue: any) => issue.appointment_ids.includes(id)), `visit ${id} flagged`).toBe(true);

    const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: TODAY, practitioner_ids: [pat, quinn], mode: 'reassign' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await drainJobs(t.ctx);
    const run = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin })).body.optimization;
    expect(run.status, run.error_message).toBe('COMPLETE');
    const placed = new Map<number, { practitioner: number; arriveAt: string; kept: string | null }>(run.proposal.lanes.flatMap((lane: any) => lane.after.stops
      .map((stop: any) => [stop.appointment_id, { practitioner: lane.practitioner_id, arriveAt: stop.arrive_at, kept: stop.kept }])));
    // Every afternoon visit goes to Quinn, after now; the morning's stay Pat's, kept as started.
    for (const id of afternoon) {
      expect(placed.get(id)?.practitioner, `visit ${id}`).toBe(quinn);
      expect(Date.parse(placed.get(id)!.arriveAt)).toBeGreaterThan(Date.now());
    }
    for (const id of morning) expect(placed.get(id)).toMatchObject({ practitioner: pat, kept: 'started' });
    expect(run.proposal.unplaced).toEqual([]);

    const applied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.admin });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    for (const id of afternoon) expect((await visit(id)).practitioner.id).toBe(quinn);
    // The morning's visits: the same practitioner, arrival and steps.
    const morningAfter = await Promise.all(morning.map(visit));
    for (const [index, after] of morningAfter.entries()) {
      expect(after).toMatchObject({
        practitioner: { id: pat }, arrive_at: morningBefore[index].arrive_at, visit_state: 'done', visit: morningBefore[index].visit,
      });
    }
    expect(await hardIssues()).toEqual([]);
  });
});
