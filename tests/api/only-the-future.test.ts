// Only the future moves: days before today are not optimised (nor a proposal of one applied), and today a visit that
// has started or starts within the optimisation settings' fixed_before_minutes keeps its time and practitioner, in a
// run (both modes) and by hand (move, insert, arrival time).
//
// The business is put in a whole-hour zone where it is about 07:00 now, so "today" has hours left whenever this runs.
import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, businessAccounts, clients, practitioners } from '../../server/src/db/schema';
import { jobs } from '../../server/src/db/schema-jobs';
import { optimizationRuns } from '../../server/src/db/schema-optimizations';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { workingEveryDay } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let pat: number;
let quinn: number;

const offsetHours = ((7 - new Date().getUTCHours() + 36) % 24) - 12;
// Etc/GMT zones count the other way: Etc/GMT-3 is UTC+3.
const ZONE = `Etc/GMT${offsetHours <= 0 ? '+' : '-'}${Math.abs(offsetHours)}`;
const dayIn = (shift: number) => Temporal.Now.plainDateISO(ZONE).add({ days: shift }).toString();
const TODAY = dayIn(0);
const YESTERDAY = dayIn(-1);
const STARTED_MESSAGE = 'This visit has started (or starts within 30 minutes): its time and practitioner stay as they are.';
/** Now, to the minute, plus `minutes`. */
const fromNow = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000);

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

async function addVisit(practitionerId: number, startsAt: Date, lng: number, minutes = 30): Promise<number> {
  const [client] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: `C${lng}`, last_name: 'Client', lat: -27.47, lng, time_zone: ZONE,
  }).returning();
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: startsAt, ends_at: new Date(startsAt.getTime() + minutes * 60_000), arrive_at: startsAt, lat: -27.47, lng,
  }).returning({ id: appointments.id });
  return row.id;
}

const optimisationCount = async () => (await t.ctx.db.select().from(jobs)
  .where(eq(jobs.business_account_id, acme.businessAccountId))).filter((job) => job.kind === 'OPTIMIZE').length;

async function optimise(mode: 'keep_practitioners' | 'reassign') {
  const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: TODAY, practitioner_ids: [pat, quinn], mode } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  return (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin })).body.optimization;
}

describe('days before today', () => {
  it('refuses to optimise a day before today, in words, and queues nothing', async () => {
    const before = await optimisationCount();
    const refused = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: YESTERDAY, practitioner_ids: [pat] } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('Days before today cannot be optimised: their visits have happened.');
    expect(await optimisationCount()).toBe(before);
  });

  it('refuses to apply a proposal whose day has passed since it was made', async () => {
    await addVisit(pat, fromNow(300), 153.0);
    const run = await optimise('keep_practitioners');
    expect(run.status).toBe('COMPLETE');
    // The run as it is the next day: its day is yesterday.
    const [row] = await t.ctx.db.select({ days: optimizationRuns.days }).from(optimizationRuns).where(eq(optimizationRuns.job_id, run.id));
    const days = row.days as { proposal: { date: string } }[];
    for (const day of days) day.proposal.date = YESTERDAY;
    await t.ctx.db.update(optimizationRuns).set({ first_date: YESTERDAY, last_date: YESTERDAY, days }).where(eq(optimizationRuns.job_id, run.id));
    const refused = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('Days before today cannot be optimised');
    expect((await t.request('GET', `/api/optimizations/${run.id}`, { token: acme.tokens.admin })).body.optimization.applied_at).toBeNull();
    await t.ctx.db.delete(appointments).where(eq(appointments.business_account_id, acme.businessAccountId));
  });
});

describe('today', () => {
  let started: number;
  let soon: number;
  let later: number;
  let startedAt: Date;
  let soonAt: Date;

  beforeAll(async () => {
    await t.ctx.db.delete(appointments).where(eq(appointments.business_account_id, acme.businessAccountId));
    startedAt = fromNow(-25);
    soonAt = fromNow(10);
    // Pat's started and imminent visits are far east, next to Quinn's home: a plan free to move them would.
    started = await addVisit(pat, startedAt, 153.1, 25);
    soon = await addVisit(pat, soonAt, 153.12);
    for (const [index, lng] of [152.95, 153.05, 152.97, 153.03].entries()) {
      const id = await addVisit(pat, fromNow(120 + index * 60), lng);
      if (index === 0) later = id;
    }
    await addVisit(quinn, fromNow(150), 153.09);
  });

  for (const mode of ['keep_practitioners', 'reassign'] as const) {
    it(`keeps started visits and those within 30 minutes at their time and practitioner (${mode}); nothing moves before then`, async () => {
      const run = await optimise(mode);
      expect(run.status, run.error_message).toBe('COMPLETE');
      expect(run.proposal.unplaced).toEqual([]);
      const stops = run.proposal.lanes.flatMap((lane: any) => lane.after.stops.map((stop: any) => ({ ...stop, practitioner_id: lane.practitioner_id })));
      expect(stops.find((stop: any) => stop.appointment_id === started)).toMatchObject({
        practitioner_id: pat, arrive_at: startedAt.toISOString(), kept: 'started',
      });
      expect(stops.find((stop: any) => stop.appointment_id === soon)).toMatchObject({
        practitioner_id: pat, arrive_at: soonAt.toISOString(), kept: 'started',
      });
      for (const stop of stops.filter((candidate: any) => candidate.appointment_id !== started && candidate.appointment_id !== soon)) {
        expect(Date.parse(stop.arrive_at)).toBeGreaterThan(Date.now() + 30 * 60_000);
      }
      await t.request('POST', `/api/optimizations/${run.id}/discard`, { token: acme.tokens.admin });
    });
  }

  it('refuses to apply a proposal that moves a visit which has started (or come within the margin) since', async () => {
    // A visit next door that overlaps Pat's later one: the proposal has to move one of the two.
    const overlapping = await addVisit(pat, fromNow(125), 152.951);
    const run = await optimise('keep_practitioners');
    expect(run.proposal.changes.length).toBeGreaterThan(0);
    // As if the hours passed: with a 12-hour margin every visit of the day is now within it.
    await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { fixed_before_minutes: 720 } });
    const refused = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.admin });
    await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { fixed_before_minutes: 30 } });
    await t.ctx.db.delete(appointments).where(eq(appointments.id, overlapping));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/has started or starts within 720 minutes since this proposal was made, and the proposal moves it\. Run the optimisation again\.$/);
    const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, later));
    expect(row.route_id).toBeNull();
  });

  it('refuses moving, inserting or re-timing a started visit by hand, in words', async () => {
    const moved = await t.request('PATCH', `/api/appointments/${started}/move`, {
      token: acme.tokens.staff, body: { practitioner_id: quinn },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.message).toBe(STARTED_MESSAGE);
    const retimed = await t.request('PATCH', `/api/appointments/${soon}/move`, {
      token: acme.tokens.staff, body: { starts_at: fromNow(240).toISOString() },
    });
    expect(retimed.status).toBe(422);
    expect(retimed.body.message).toBe(STARTED_MESSAGE);
    const inserted = await t.request('POST', `/api/appointments/${soon}/insertion`, { token: acme.tokens.staff, body: { practitioner_ids: [pat, quinn] } });
    expect(inserted.status).toBe(422);
    expect(inserted.body.message).toBe(STARTED_MESSAGE);
    const arrival = await t.request('PUT', `/api/appointments/${started}/update_arrival_time`, {
      token: acme.tokens.staff, body: { arrive_at: fromNow(-10).toISOString() },
    });
    expect(arrival.status).toBe(422);
    expect(arrival.body.message).toBe(STARTED_MESSAGE);
    const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, started));
    expect(row).toMatchObject({ practitioner_id: pat, arrive_at: startedAt });
  });

  it('refuses moving a later visit into the margin, and moves it later', async () => {
    const tooSoon = await t.request('PATCH', `/api/appointments/${later}/move`, { token: acme.tokens.staff, body: { starts_at: fromNow(15).toISOString() } });
    expect(tooSoon.status).toBe(422);
    expect(tooSoon.body.message).toMatch(/within 30 minutes from now/);
    const fine = await t.request('PATCH', `/api/appointments/${later}/move`, { token: acme.tokens.staff, body: { starts_at: fromNow(100).toISOString() } });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
  });

  it('keeps a visit the practitioner has set off for at its time and practitioner, however far ahead it was planned', async () => {
    // Planned in five hours, far east next to Quinn's home, but Pat is on the way there now (an early start).
    const plannedAt = fromNow(300);
    const early = await addVisit(pat, plannedAt, 153.11);
    const step = await t.request('POST', `/api/appointments/${early}/steps`, {
      token: acme.tokens.practitioner, body: { idempotency_key: `early-${process.pid}`, step: 'on_my_way' },
    });
    expect(step.status, JSON.stringify(step.body)).toBe(201);
    const run = await optimise('reassign');
    expect(run.status, run.error_message).toBe('COMPLETE');
    const stops = run.proposal.lanes.flatMap((lane: any) => lane.after.stops.map((stop: any) => ({ ...stop, practitioner_id: lane.practitioner_id })));
    expect(stops.find((stop: any) => stop.appointment_id === early)).toMatchObject({ practitioner_id: pat, arrive_at: plannedAt.toISOString(), kept: 'started' });
    await t.request('POST', `/api/optimizations/${run.id}/discard`, { token: acme.tokens.admin });
  });
});

describe('the setting', () => {
  it('is 30 minutes by default, saved by an admin, and bounded', async () => {
    const read = async () => (await t.request('GET', '/api/optimization_settings', { token: acme.tokens.staff })).body.optimization_settings;
    expect((await read()).fixed_before_minutes).toBe(30);
    const saved = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { fixed_before_minutes: 60 } });
    expect(saved.status).toBe(200);
    expect((await read()).fixed_before_minutes).toBe(60);
    const tooMuch = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { fixed_before_minutes: 721 } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toMatch(/fixed_before_minutes/);
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.staff, body: { fixed_before_minutes: 0 } })).status).toBe(403);
    expect((await read()).fixed_before_minutes).toBe(60);
  });
});
