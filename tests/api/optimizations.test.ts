// Optimising a day (issue 12): starting a run, its progress and proposal, applying it all or nothing, refusing a
// stale proposal, overlapping runs and cancelling, the routes it writes (checked by the optimiser's independent
// checker against the problem rebuilt from the database), removing routes, "Keep this time", roles and tenancy.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../../server/src/auth/access';
import { appointments, clients, practitioners, routes, users, versions, type AvailabilityEntry } from '../../server/src/db/schema';
import { optimizationRuns } from '../../server/src/db/schema-optimizations';
import { applyOptimization, SCHEDULE_CHANGED, type OptimizationMode } from '../../server/src/modules/optimizations';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt as at, brisbaneClock as clock, expectRoutesAccepted, workingEveryDay } from './support/routing';
import { drainJobs, startWorker, waitForJob } from './support/jobs';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let pat: number;
let quinn: number;

const EVERY_DAY = workingEveryDay('08:00', '17:00');

beforeAll(async () => {
  // Searches end after 300 ms here, whatever the business's setting (a server knob, never a request field); each run
  // searches with two threads side by side, as on a server with a core to spare.
  t = await startTestApp({ optimizerMaxSearchMs: 300, optimizerThreads: 2 });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  [pat, quinn] = acme.practitionerIds;
  // Pat starts and ends at home in the west of Brisbane; Quinn at home in the east, with a lunch break.
  await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: '1 West St', home_lat: -27.47, home_lng: 152.93, working_hours: EVERY_DAY })
    .where(eq(practitioners.id, pat));
  await t.ctx.db.update(practitioners).set({
    start_place_kind: 'home', home_address: '9 East St', home_lat: -27.47, home_lng: 153.11, working_hours: EVERY_DAY,
    break_earliest: '12:00', break_latest: '13:00', break_minutes: 30,
  }).where(eq(practitioners.id, quinn));
  // These days are about order, availability and reassignment: their visits may move anywhere in the day at no price, with one
  // client per visit (the rules of home care have their own tests, care-rules.test.ts).
  const rules = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { tolerance_minutes: 720, client_gap_minutes: 0, move_price: 0 } });
  expect(rules.status).toBe(200);
}, 120_000);
afterAll(() => t.close());

async function addClient(name: string, lng: number, availability: AvailabilityEntry[] = []): Promise<number> {
  const [row] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: name, last_name: 'Client', lat: -27.47, lng, time_zone: 'Australia/Brisbane', availability,
  }).returning({ id: clients.id });
  return row.id;
}

/** A visit of `minutes` booked at `hhmm` (arrival too), at its client's point. */
async function addVisit(date: string, practitionerId: number, clientId: number, hhmm: string, minutes = 30): Promise<number> {
  const [client] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: at(date, hhmm), ends_at: new Date(at(date, hhmm).getTime() + minutes * 60_000), arrive_at: at(date, hhmm), lat: client.lat, lng: client.lng,
  }).returning({ id: appointments.id });
  return row.id;
}

/** A day for one practitioner whose visits zig-zag along an east–west line: a bad order, hourly from 09:00. */
async function zigzagDay(date: string, practitionerId: number, lngs = [153.07, 152.97, 153.05, 152.99, 153.03, 153.01]): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, lng] of lngs.entries()) {
    ids.push(await addVisit(date, practitionerId, await addClient(`Zig${date}${index}`, lng), `${String(9 + index).padStart(2, '0')}:00`));
  }
  return ids;
}

async function start(token: string, body: { date: string; practitioner_ids?: number[]; mode?: OptimizationMode }) {
  return t.request('POST', '/api/optimizations', { token, body });
}

/** Starts a run as the admin, runs it in this process, and answers the finished run. */
async function optimise(body: { date: string; practitioner_ids?: number[]; mode?: OptimizationMode }) {
  const created = await start(acme.tokens.admin, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const read = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
  expect(read.status).toBe(200);
  return read.body.optimization;
}

const apply = (id: number, token = acme.tokens.admin) => t.request('POST', `/api/optimizations/${id}/apply`, { token });

async function visitsOf(ids: number[]) {
  const rows = await t.ctx.db.select().from(appointments).where(sql`${appointments.id} IN ${ids}`);
  return new Map(rows.map((row) => [row.id, row]));
}

describe('optimising a day, keeping each visit with its practitioner', () => {
  const DAY = '2029-11-22'; // Thursday
  let visitIds: number[];
  let lockedId: number;
  let unavailableId: number;
  let windowId: number;
  let run: any;

  beforeAll(async () => {
    visitIds = await zigzagDay(DAY, pat);
    lockedId = visitIds[4]; // 13:00, "Keep this time"
    // Available on Thursdays 09:00–12:00 only.
    windowId = await addVisit(DAY, pat, await addClient('Wendy', 153.0, [{ dow: 4, hours: ['09:00-12:00'] }]), '15:00');
    // Available on Mondays only: kept at its time, flagged outside availability.
    unavailableId = await addVisit(DAY, pat, await addClient('Mona', 152.98, [{ dow: 1 }]), '16:00');
    const locked = await t.request('PUT', `/api/appointments/${lockedId}/arrival_lock`, { token: acme.tokens.staff, body: { locked: true } });
    expect(locked.status).toBe(200);
    expect(locked.body.appointment.arrival_locked).toBe(true);
    run = await optimise({ date: DAY, mode: 'keep_practitioners' });
  });

  it('ends with a proposal in which travel falls, and reports its progress', async () => {
    expect(run.status).toBe('COMPLETE');
    expect(run.practitioner_ids).toEqual([pat]); // by default: the active practitioners with visits that day
    expect(run.mode).toBe('keep_practitioners');
    const { kpis } = run.proposal;
    expect(kpis.after.travel_seconds).toBeLessThan(kpis.before.travel_seconds * 0.75);
    expect(kpis.after.travel_metres).toBeLessThan(kpis.before.travel_metres);
    expect(kpis.before.unplaced).toBe(0);
    expect(kpis.after.unplaced).toBe(0);
    expect(kpis.before.outside_availability).toBe(2); // Wendy at 15:00, Mona on a Thursday
    expect(kpis.after.outside_availability).toBe(1); // Mona only: her time is kept
    expect(run.progress).toEqual({ elapsed_ms: expect.any(Number), best_travel_seconds: kpis.after.travel_seconds, fraction: 1, searches: 2 });
    expect(run.proposal.search.travel).toMatch(/haversine/);
    expect(run.proposal.search.searches).toBe(2);
  });

  it('shows the lane before and after, with kept times kept and availability respected', () => {
    const [lane] = run.proposal.lanes;
    expect(lane).toMatchObject({ practitioner_id: pat, practitioner_name: 'Pat acme-One', start_place: { kind: 'home', lat: -27.47, lng: 152.93 } });
    expect(lane.before.stops.map((stop: any) => stop.appointment_id)).toEqual([...visitIds, windowId, unavailableId]);
    expect(lane.before.stops.map((stop: any) => clock(stop.arrive_at))).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
    // Before: the legs are the same travel function's as after; their sum is the lane's travel.
    const legs = lane.before.stops.reduce((sum: number, stop: any) => sum + stop.travel_seconds, lane.before.return_leg.travel_seconds);
    expect(legs).toBeCloseTo(lane.before.metrics.travel_seconds, 1);
    const after = new Map(lane.after.stops.map((stop: any) => [stop.appointment_id, stop]));
    expect(after.size).toBe(8);
    expect(clock((after.get(lockedId) as any).arrive_at)).toBe('13:00');
    expect((after.get(lockedId) as any).kept).toBe('locked');
    expect(clock((after.get(unavailableId) as any).arrive_at)).toBe('16:00');
    expect((after.get(unavailableId) as any)).toMatchObject({ kept: 'unavailable-day', outside_availability: true });
    const wendy = clock((after.get(windowId) as any).arrive_at);
    expect(wendy >= '09:00' && wendy < '12:00').toBe(true);
    // Arrivals are on the 5-minute step, within the working hours.
    for (const stop of lane.after.stops) {
      expect(Date.parse(stop.arrive_at) % 300_000).toBe(0);
      expect(clock(stop.arrive_at) >= '08:00' && clock(stop.depart_at) <= '17:00').toBe(true);
    }
  });

  it('lists the changes: old → new arrival, same practitioner', () => {
    const { changes } = run.proposal;
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.map((change: any) => change.appointment_id)).not.toContain(lockedId);
    for (const change of changes) {
      expect(change.old_practitioner_id).toBe(pat);
      expect(change.new_practitioner_id).toBe(pat);
      expect(change.new_arrive_at).not.toBe(change.old_arrive_at);
      expect(change.client_name).toMatch(/Client$/);
    }
  });

  it('applies: a route for the day, the visits on it with their new arrivals, and a change log entry each', async () => {
    const applied = await apply(run.id);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.optimization.applied_by_name).toBe('Ada acme');
    expect(applied.body.optimization.applied_at).toEqual(expect.any(String));
    expect(applied.body.routes).toHaveLength(1);
    const [route] = applied.body.routes;
    expect(route).toMatchObject({ practitioner_id: pat, day: DAY, optimization_id: run.id, applied_by_name: 'Ada acme', stale_at: null });
    expect(route.stops.map((stop: any) => stop.appointment_id)).toEqual(run.proposal.lanes[0].after.stops.map((stop: any) => stop.appointment_id));
    expect(route.metrics.travel_seconds).toBeCloseTo(run.proposal.kpis.after.travel_seconds, 0);

    await expectRoutesAccepted(t, acme, DAY, [pat], 'keep_practitioners', run.proposal.unplaced);
    const changed = run.proposal.changes[0];
    const details = await t.request('GET', `/api/appointments/${changed.appointment_id}/extra_details`, { token: acme.tokens.staff });
    const version = details.body.versions.at(-1);
    expect(version).toMatchObject({ whodunnit: 'Ada acme', reason: 'Optimisation of 22 Nov by Ada acme' });
    expect(version.object_changes.arrive_at).toEqual([changed.old_arrive_at, changed.new_arrive_at]);
    // The locked visit kept its time and practitioner, but the optimisation put it on the route: the log says so.
    const locked = await t.request('GET', `/api/appointments/${lockedId}/extra_details`, { token: acme.tokens.staff });
    const [keptTime, onRoute] = locked.body.versions.slice(-2);
    expect(keptTime.changes).toEqual([{ field: 'arrival_locked', label: 'Keep this time', kind: 'text', from: 'No', to: 'Yes' }]);
    expect(onRoute).toMatchObject({ whodunnit: 'Ada acme', reason: 'Optimisation of 22 Nov by Ada acme' });
    expect(onRoute.changes).toEqual([{ field: 'route_id', label: 'Added to the route of Pat acme-One', kind: 'sentence', from: null, to: null }]);
  });

  it('refuses to apply the same proposal twice', async () => {
    const again = await apply(run.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already been applied/);
  });

  it('lists the day\'s routes: everyone\'s for staff, only their own for a practitioner; none of another business', async () => {
    for (const token of [acme.tokens.admin, acme.tokens.staff, acme.tokens.practitioner]) {
      const listed = await t.request('GET', `/api/routes?date=${DAY}`, { token });
      expect(listed.status).toBe(200);
      expect(listed.body.routes.map((route: any) => route.practitioner_id)).toEqual([pat]);
    }
    expect((await t.request('GET', `/api/routes?date=${DAY}`, { token: other.tokens.admin })).body.routes).toEqual([]);
    expect((await t.request('GET', '/api/routes?date=2026-02-30', { token: acme.tokens.admin })).status).toBe(422);
  });

  it('takes one visit off its route (arrival kept and editable again), then removes the route', async () => {
    const [route] = (await t.request('GET', `/api/routes?date=${DAY}`, { token: acme.tokens.admin })).body.routes;
    const first = route.stops[0];
    expect((await t.request('POST', `/api/appointments/${first.appointment_id}/remove_from_route`, { token: acme.tokens.practitioner })).status).toBe(403);
    expect((await t.request('POST', `/api/appointments/${first.appointment_id}/remove_from_route`, { token: other.tokens.admin })).status).toBe(404);
    const removed = await t.request('POST', `/api/appointments/${first.appointment_id}/remove_from_route`, { token: acme.tokens.staff });
    expect(removed.status).toBe(200);
    expect(removed.body.appointment).toMatchObject({ route_id: null, arrive_at: first.arrive_at });
    const [after] = (await t.request('GET', `/api/routes?date=${DAY}`, { token: acme.tokens.admin })).body.routes;
    expect(after.stops.map((stop: any) => stop.appointment_id)).not.toContain(first.appointment_id);
    expect(after.stale_at).toEqual(expect.any(String));
    expect((await t.request('POST', `/api/appointments/${first.appointment_id}/remove_from_route`, { token: acme.tokens.staff })).status).toBe(409);
    const edited = await t.request('PUT', `/api/appointments/${first.appointment_id}/update_arrival_time`, {
      token: acme.tokens.staff, body: { arrive_at: `${DAY}T08:30:00+10:00` },
    });
    expect(edited.status).toBe(200);

    expect((await t.request('DELETE', `/api/routes/${route.id}`, { token: acme.tokens.practitioner })).status).toBe(403);
    expect((await t.request('DELETE', `/api/routes/${route.id}`, { token: other.tokens.admin })).status).toBe(404);
    const stopIds = after.stops.map((stop: any) => stop.appointment_id);
    const before = await visitsOf(stopIds);
    expect((await t.request('DELETE', `/api/routes/${route.id}`, { token: acme.tokens.staff })).status).toBe(204);
    expect((await t.request('GET', `/api/routes?date=${DAY}`, { token: acme.tokens.admin })).body.routes).toEqual([]);
    const now = await visitsOf(stopIds);
    for (const id of stopIds) {
      expect(now.get(id)!.route_id).toBeNull();
      expect(now.get(id)!.arrive_at).toEqual(before.get(id)!.arrive_at);
    }
    expect((await t.request('DELETE', `/api/routes/${route.id}`, { token: acme.tokens.staff })).status).toBe(404);
  });
});

describe('optimising with reassignment between practitioners', () => {
  const DAY = '2029-11-23'; // Friday
  it('moves visits to the practitioner nearby, respects skills, breaks and hours, and the checker accepts the routes', async () => {
    // Pat (west) has the eastern visits and Quinn (east) the western ones, though last week each client was seen by
    // the practitioner near them (their usual practitioner: moving a visit back to them costs no continuity).
    const east = [];
    const west = [];
    for (const [index, lng] of [153.09, 153.08, 153.07].entries()) {
      const client = await addClient(`East${index}`, lng);
      await addVisit('2029-11-16', quinn, client, '10:00');
      east.push(await addVisit(DAY, pat, client, `${10 + index}:00`));
    }
    for (const [index, lng] of [152.95, 152.96, 152.97].entries()) {
      const client = await addClient(`West${index}`, lng);
      await addVisit('2029-11-16', pat, client, '10:00');
      west.push(await addVisit(DAY, quinn, client, `${10 + index}:00`));
    }
    // A physiotherapy visit only Quinn delivers stays with Quinn though it is in the west.
    await t.ctx.db.update(practitioners).set({ skill_appointment_type_ids: [acme.appointmentTypeIds[0]] }).where(eq(practitioners.id, pat));
    const physio = await addVisit(DAY, quinn, await addClient('Phyllis', 152.94), '14:00');
    await t.ctx.db.update(appointments).set({ appointment_type_id: acme.appointmentTypeIds[1] }).where(eq(appointments.id, physio));

    const run = await optimise({ date: DAY, practitioner_ids: [pat, quinn], mode: 'reassign' });
    expect(run.status).toBe('COMPLETE');
    const lanes = new Map<number, any>(run.proposal.lanes.map((lane: any) => [lane.practitioner_id, lane]));
    const ids = (lane: any) => lane.after.stops.map((stop: any) => stop.appointment_id).sort();
    expect(ids(lanes.get(pat))).toEqual([...west].sort());
    expect(ids(lanes.get(quinn))).toEqual([...east, physio].sort());
    // Quinn's break: after one of Quinn's visits, or at home before the first (null), wherever it costs least.
    const quinnBreak = lanes.get(quinn).after.break;
    expect(quinnBreak).toEqual({ start_at: expect.any(String), end_at: expect.any(String), after_appointment_id: quinnBreak.after_appointment_id });
    expect([null, ...ids(lanes.get(quinn))]).toContain(quinnBreak.after_appointment_id);
    expect(run.proposal.kpis.after.travel_seconds).toBeLessThan(run.proposal.kpis.before.travel_seconds * 0.8);
    const moved = run.proposal.changes.filter((change: any) => change.old_practitioner_id !== change.new_practitioner_id);
    expect(moved).toHaveLength(6);
    expect(moved[0]).toMatchObject({ old_practitioner_name: expect.stringMatching(/acme-(One|Two)/), new_practitioner_name: expect.stringMatching(/acme-(One|Two)/) });

    const applied = await apply(run.id);
    expect(applied.status).toBe(200);
    expect(applied.body.routes.map((route: any) => route.practitioner_id).sort()).toEqual([pat, quinn].sort());
    await expectRoutesAccepted(t, acme, DAY, [pat, quinn], 'reassign', run.proposal.unplaced);
    const details = await t.request('GET', `/api/appointments/${east[0]}/extra_details`, { token: acme.tokens.admin });
    const version = details.body.versions.at(-1);
    expect(version.reason).toBe('Optimisation of 23 Nov by Ada acme');
    expect(version.changes.find((change: any) => change.field === 'practitioner_id')).toMatchObject({ from: 'Pat acme-One', to: 'Quinn acme-Two' });
    // A practitioner sees only their own practitioner's route.
    const own = await t.request('GET', `/api/routes?date=${DAY}`, { token: acme.tokens.practitioner });
    expect(own.body.routes.map((route: any) => route.practitioner_id)).toEqual([pat]);
    await t.ctx.db.update(practitioners).set({ skill_appointment_type_ids: null }).where(eq(practitioners.id, pat));
  });

  it('says why a visit could not be placed', async () => {
    const DAY2 = '2029-11-30'; // Friday
    // A client available 06:00–09:00 only, over an hour's drive from Pat, whose day starts at 08:00: the visit cannot
    // start in time even on its own.
    await addVisit(DAY2, pat, await addClient('Early', 152.95), '08:00', 60);
    const late = await addVisit(DAY2, pat, await addClient('Dawn', 153.5, [{ dow: 5, hours: ['06:00-09:00'] }]), '10:00', 120);
    const run = await optimise({ date: DAY2, practitioner_ids: [pat] });
    expect(run.proposal.kpis.after.unplaced).toBe(1);
    expect(run.proposal.unplaced).toEqual([{
      appointment_id: late, client_name: 'Dawn Client', practitioner_id: pat, reason: expect.any(String), message: expect.stringMatching(/Pat acme-One.*availability/),
    }]);
    expect((await apply(run.id)).status).toBe(200);
    const [visit] = (await visitsOf([late])).values();
    expect(visit.route_id).toBeNull();
    expect(visit.arrive_at!.toISOString()).toBe(at(DAY2, '10:00').toISOString());
    await expectRoutesAccepted(t, acme, DAY2, [pat], 'keep_practitioners', run.proposal.unplaced);
  });
});

describe('a practitioner\'s most visits a day', () => {
  const DAY = '2029-12-04'; // Tuesday
  afterAll(() => t.ctx.db.update(practitioners).set({ max_visits: null }).where(eq(practitioners.id, pat)));

  it('leaves the visits beyond the limit unplaced, naming the limit', async () => {
    const ids = await zigzagDay(DAY, pat, [153.05, 152.96, 153.02]);
    await t.ctx.db.update(practitioners).set({ max_visits: 2 }).where(eq(practitioners.id, pat));
    const run = await optimise({ date: DAY, practitioner_ids: [pat] });
    expect(run.proposal.kpis.after.unplaced).toBe(1);
    expect(run.proposal.unplaced).toEqual([{
      appointment_id: expect.toBeOneOf(ids), client_name: expect.any(String), practitioner_id: pat, reason: 'max-visits-reached',
      message: 'Pat acme-One has reached the limit of 2 visits a day.',
    }]);
    expect((await apply(run.id)).status).toBe(200);
    await expectRoutesAccepted(t, acme, DAY, [pat], 'keep_practitioners', run.proposal.unplaced);
  });
});

describe('applying is all or nothing, and only while the schedule is as it was', () => {
  const DAY = '2029-11-26'; // Monday
  let visitIds: number[];
  beforeAll(async () => {
    visitIds = await zigzagDay(DAY, pat, [153.05, 152.96, 153.02]);
  });

  it('refuses with 409 and writes nothing when a visit changed since the proposal', async () => {
    const run = await optimise({ date: DAY });
    const edited = await t.request('PUT', `/api/appointments/${visitIds[1]}/update_arrival_time`, { token: acme.tokens.staff, body: { arrive_at: `${DAY}T10:05:00+10:00` } });
    expect(edited.status).toBe(200);
    const before = await visitsOf(visitIds);
    const refused = await apply(run.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(SCHEDULE_CHANGED);
    expect(await t.ctx.db.select().from(routes).where(eq(routes.day, DAY))).toEqual([]);
    expect(await visitsOf(visitIds)).toEqual(before);
    expect((await t.request('GET', `/api/optimizations/${run.id}`, { token: acme.tokens.admin })).body.optimization.applied_at).toBeNull();
  });

  it('refuses with 409 when a visit was added to the day since the proposal', async () => {
    const run = await optimise({ date: DAY });
    const added = await addVisit(DAY, pat, await addClient('Newcomer', 153.0), '15:00');
    const refused = await apply(run.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(SCHEDULE_CHANGED);
    visitIds.push(added);
  });

  it('leaves nothing written when a write fails midway, and the same proposal applies afterwards', async () => {
    const run = await optimise({ date: DAY });
    const before = await visitsOf(visitIds);
    const versionsBefore = await t.ctx.db.select({ id: versions.id }).from(versions);
    // The change log is written after the routes and the visits: failing it fails the apply midway.
    await t.ctx.db.execute(sql.raw(`CREATE FUNCTION test_fail_versions() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;`));
    await t.ctx.db.execute(sql.raw('CREATE TRIGGER test_fail_versions BEFORE INSERT ON versions FOR EACH ROW EXECUTE FUNCTION test_fail_versions();'));
    const [admin] = await t.ctx.db.select().from(users).where(eq(users.email, acme.emails.admin));
    const auth: AuthContext = { sessionId: 0, userId: admin.id, businessAccountId: acme.businessAccountId, role: 'ADMIN', associatedPractitionerIds: [], fullName: 'Ada acme', paymentRequired: false };
    try {
      const failure = await applyOptimization(t.ctx, auth, run.id).then(() => null, (error: Error) => error);
      expect(String((failure?.cause as Error | undefined)?.message ?? failure)).toMatch(/injected failure/);
    } finally {
      await t.ctx.db.execute(sql.raw('DROP TRIGGER test_fail_versions ON versions'));
      await t.ctx.db.execute(sql.raw('DROP FUNCTION test_fail_versions()'));
    }
    expect(await t.ctx.db.select().from(routes).where(eq(routes.day, DAY))).toEqual([]);
    expect(await visitsOf(visitIds)).toEqual(before);
    expect(await t.ctx.db.select({ id: versions.id }).from(versions)).toEqual(versionsBefore);
    const [record] = await t.ctx.db.select().from(optimizationRuns).where(eq(optimizationRuns.job_id, run.id));
    expect(record.applied_at).toBeNull();

    const applied = await apply(run.id);
    expect(applied.status).toBe(200);
    await expectRoutesAccepted(t, acme, DAY, [pat], 'keep_practitioners', run.proposal.unplaced);
  });

  it('replaces the day\'s routes when the day is optimised again', async () => {
    const [old] = await t.ctx.db.select().from(routes).where(eq(routes.day, DAY));
    const run = await optimise({ date: DAY });
    expect((await apply(run.id)).status).toBe(200);
    const now = await t.ctx.db.select().from(routes).where(eq(routes.day, DAY));
    expect(now).toHaveLength(1);
    expect(now[0].id).not.toBe(old.id);
    expect(now[0].optimization_job_id).toBe(run.id);
  });

  it('discards a proposal, which then cannot be applied', async () => {
    const run = await optimise({ date: DAY });
    const discarded = await t.request('POST', `/api/optimizations/${run.id}/discard`, { token: acme.tokens.admin });
    expect(discarded.status).toBe(200);
    expect(discarded.body.optimization.discarded_at).toEqual(expect.any(String));
    const refused = await apply(run.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/discarded/);
  });
});

describe('starting a run', () => {
  const DAY = '2029-11-28'; // Wednesday

  it('refuses bad input with 422 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ date: '2026-02-30' }, /date/],
      [{ date: '26-12-02' }, /date/],
      [{}, /date/],
      [{ date: DAY, mode: 'fastest' }, /mode/],
      [{ date: DAY, practitioner_ids: [] }, /practitioner_ids/],
      [{ date: DAY, practitioner_ids: ['x'] }, /practitioner_ids/],
      [{ date: '1999-12-31' }, /date must be between/],
    ];
    for (const [body, field] of cases) {
      const response = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(`${response.body.message} ${(response.body.errors ?? []).join(' ')}`).toMatch(field);
    }
    const nobody = await start(acme.tokens.admin, { date: '2029-12-20' });
    expect(nobody.status).toBe(422);
    expect(nobody.body.message).toMatch(/practitioner_ids: no active practitioner has visits on Thursday 20 December 2029/);
  });

  it('names each practitioner with visits that day who has no start place; one who does not work that day is skipped', async () => {
    const rory = acme.practitionerIds[2];
    await t.ctx.db.update(practitioners).set({ working_hours: [null, null, { start: '09:00', end: '15:00' }, null, null, null, null] }).where(eq(practitioners.id, rory));
    await t.ctx.db.update(practitioners).set({ working_hours: [null, null, null, null, null, null, null] }).where(eq(practitioners.id, quinn));
    const roryVisit = await addVisit(DAY, rory, await addClient('Roryclient', 153.0), '10:00');
    try {
      const response = await start(acme.tokens.admin, { date: DAY, practitioner_ids: [pat, quinn, rory] });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([
        'practitioner_ids: Rory acme-Inactive has no start place with a map position: set one in Settings → Practitioners.',
      ]);
      // A staff user cannot open Settings: they are told who can.
      const staff = await start(acme.tokens.staff, { date: DAY, practitioner_ids: [pat, quinn, rory] });
      expect(staff.body.message).toBe('practitioner_ids: Rory acme-Inactive has no start place with a map position: '
        + 'an administrator can set one in Settings → Practitioners.');
    } finally {
      await t.ctx.db.delete(appointments).where(eq(appointments.id, roryVisit));
      await t.ctx.db.update(practitioners).set({ working_hours: EVERY_DAY }).where(eq(practitioners.id, quinn));
    }
  });

  it('answers 404 for another business\'s practitioner', async () => {
    const response = await start(acme.tokens.admin, { date: DAY, practitioner_ids: [pat, other.practitionerIds[0]] });
    expect(response.status).toBe(404);
  });

  it('refuses a second unfinished run of the same day sharing a practitioner (409), not one for others', async () => {
    const first = await start(acme.tokens.admin, { date: DAY, practitioner_ids: [pat] });
    expect(first.status).toBe(201);
    expect(first.body.optimization).toMatchObject({ status: 'PENDING', date: DAY, practitioner_ids: [pat], progress: null, proposal: null });
    const clash = await start(acme.tokens.staff, { date: DAY, practitioner_ids: [quinn, pat] });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(`An optimisation of Wednesday 28 November 2029 for Pat acme-One has not finished yet (#${first.body.optimization.id}). `
      + 'Wait for it to finish, or cancel it, before starting another.');
    const separate = await start(acme.tokens.staff, { date: DAY, practitioner_ids: [quinn] });
    expect(separate.status).toBe(201);
    const otherDay = await start(acme.tokens.staff, { date: '2029-11-29', practitioner_ids: [pat] });
    expect(otherDay.status).toBe(201);
    // Two at once cannot both pass the check (with room in the business's queue for both).
    for (const id of [separate.body.optimization.id, otherDay.body.optimization.id]) {
      expect((await t.request('POST', `/api/optimizations/${id}/cancel`, { token: acme.tokens.admin })).status).toBe(200);
    }
    const racing = await Promise.all([0, 1].map(() => start(acme.tokens.admin, { date: '2029-12-05', practitioner_ids: [pat] })));
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409]);
    for (const id of [first.body.optimization.id, ...racing.filter((r) => r.status === 201).map((r) => r.body.optimization.id)]) {
      const cancelled = await t.request('POST', `/api/optimizations/${id}/cancel`, { token: acme.tokens.admin });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.optimization.status).toBe('CANCELLED');
    }
    expect((await start(acme.tokens.admin, { date: DAY, practitioner_ids: [pat] })).status).toBe(201);
    await drainJobs(t.ctx);
  });

  it('is for ADMIN and REGULAR_USER; a REGULAR_USER reads only their own runs; another business gets 404', async () => {
    expect((await start(acme.tokens.practitioner, { date: DAY })).status).toBe(403);
    const mine = await start(acme.tokens.staff, { date: '2029-12-06', practitioner_ids: [pat] });
    expect(mine.status).toBe(201);
    const id = mine.body.optimization.id;
    expect(mine.body.optimization.created_by_name).toBe('Sid');
    expect((await t.request('GET', `/api/optimizations/${id}`, { token: acme.tokens.staff })).status).toBe(200);
    expect((await t.request('GET', `/api/optimizations/${id}`, { token: acme.tokens.admin })).status).toBe(200);
    expect((await t.request('GET', `/api/optimizations/${id}`, { token: acme.tokens.practitioner })).status).toBe(403);
    for (const [method, path] of [['GET', ''], ['POST', '/cancel'], ['POST', '/apply'], ['POST', '/discard']] as const) {
      expect((await t.request(method, `/api/optimizations/${id}${path}`, { token: other.tokens.admin })).status).toBe(404);
    }
    const admins = await start(acme.tokens.admin, { date: '2029-12-07', practitioner_ids: [pat] });
    expect((await t.request('GET', `/api/optimizations/${admins.body.optimization.id}`, { token: acme.tokens.staff })).status).toBe(404);
    expect((await t.request('POST', `/api/optimizations/${admins.body.optimization.id}/apply`, { token: acme.tokens.staff })).status).toBe(404);
    const early = await apply(id);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/not finished/);
    await drainJobs(t.ctx);
  });
});

describe('a run that cannot go ahead', () => {
  it('ends in ERROR saying why, when a practitioner lost their start place after the run was started', async () => {
    const DAY = '2029-12-03'; // Monday
    await zigzagDay(DAY, pat, [153.0, 152.98]);
    const created = await start(acme.tokens.admin, { date: DAY });
    expect(created.status).toBe(201);
    await t.ctx.db.update(practitioners).set({ start_place_kind: null }).where(eq(practitioners.id, pat));
    try {
      await drainJobs(t.ctx);
    } finally {
      await t.ctx.db.update(practitioners).set({ start_place_kind: 'home' }).where(eq(practitioners.id, pat));
    }
    const run = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin })).body.optimization;
    expect(run).toMatchObject({ status: 'ERROR', proposal: null });
    expect(run.error_message).toBe('The optimisation cannot run: Pat acme-One has no start place with a map position: set one in Settings → Practitioners.');
  });
});

describe('cancelling a run', () => {
  it('stops the solve: the run ends CANCELLED with no proposal, and the worker is free at once', async () => {
    const DAY = '2029-11-27'; // Tuesday
    for (let index = 0; index < 5; index++) await zigzagDay(DAY, pat, [153.07 - index * 0.002, 152.97, 153.05, 152.99]);
    t.ctx.config.optimizerMaxSearchMs = 30_000;
    const worker = startWorker(t.ctx, { pollMs: 20 });
    try {
      const created = await start(acme.tokens.admin, { date: DAY, practitioner_ids: [pat] });
      const id = created.body.optimization.id;
      let running: any;
      for (let attempt = 0; attempt < 200; attempt++) {
        running = (await t.request('GET', `/api/optimizations/${id}`, { token: acme.tokens.admin })).body.optimization;
        if (running.progress?.best_travel_seconds) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(running.status).toBe('INPROGRESS');
      expect(running.progress).toEqual({ elapsed_ms: expect.any(Number), best_travel_seconds: expect.any(Number), fraction: expect.any(Number), searches: 2 });
      expect(running.progress.fraction).toBeLessThan(1);
      const cancelled = await t.request('POST', `/api/optimizations/${id}/cancel`, { token: acme.tokens.admin });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.optimization.status).toBe('CANCELLED');
      // The next run starts as soon as the cancelled one has stopped: well before its 30 s of search would have ended.
      t.ctx.config.optimizerMaxSearchMs = 300;
      const startedAt = Date.now();
      const next = await start(acme.tokens.admin, { date: DAY, practitioner_ids: [pat] });
      expect(next.status).toBe(201);
      expect((await waitForJob(t.ctx, next.body.optimization.id, 15_000)).status).toBe('COMPLETE');
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      const ended = (await t.request('GET', `/api/optimizations/${id}`, { token: acme.tokens.admin })).body.optimization;
      expect(ended).toMatchObject({ status: 'CANCELLED', proposal: null });
      expect((await t.request('POST', `/api/optimizations/${id}/cancel`, { token: acme.tokens.admin })).status).toBe(409);
      expect((await apply(id)).status).toBe(409);
    } finally {
      t.ctx.config.optimizerMaxSearchMs = 300;
      await worker.close();
    }
  });
});

describe('"Keep this time"', () => {
  it('locks and unlocks a visit for ADMIN and REGULAR_USER, in the change log; 403 for a practitioner, 404 across businesses', async () => {
    const id = acme.appointmentIds[0];
    expect((await t.request('PUT', `/api/appointments/${id}/arrival_lock`, { token: acme.tokens.practitioner, body: { locked: true } })).status).toBe(403);
    expect((await t.request('PUT', `/api/appointments/${id}/arrival_lock`, { token: other.tokens.admin, body: { locked: true } })).status).toBe(404);
    expect((await t.request('PUT', `/api/appointments/${id}/arrival_lock`, { token: acme.tokens.admin, body: { locked: 'yes' } })).status).toBe(422);
    const locked = await t.request('PUT', `/api/appointments/${id}/arrival_lock`, { token: acme.tokens.admin, body: { locked: true } });
    expect(locked.body.appointment.arrival_locked).toBe(true);
    expect((await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.practitioner })).body.appointment.arrival_locked).toBe(true);
    const unlocked = await t.request('PUT', `/api/appointments/${id}/arrival_lock`, { token: acme.tokens.staff, body: { locked: false } });
    expect(unlocked.body.appointment.arrival_locked).toBe(false);
    const log = (await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.admin })).body.versions;
    expect(log.slice(-2).map((entry: any) => [entry.whodunnit, entry.object_changes.arrival_locked])).toEqual([['Ada acme', [false, true]], ['Sid', [true, false]]]);
  });
});
