// Undoing an applied optimisation (issue 24 rule 9): arrivals, practitioners and routes back as they were, a change-log
// entry per visit, and a refusal in words naming the visits that changed since it was applied.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, practitioners, routes } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt as at, workingEveryDay } from './support/routing';
import { drainJobs } from './support/jobs';

let t: TestApp;
let acme: BusinessFixture;
let pat: number;

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  [pat] = acme.practitionerIds;
  await t.ctx.db.update(practitioners).set({
    start_place_kind: 'home', home_address: '1 West St', home_lat: -27.47, home_lng: 152.93, working_hours: workingEveryDay('08:00', '17:00'),
  }).where(eq(practitioners.id, pat));
  const rules = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { tolerance_minutes: 720, client_gap_minutes: 0, move_price: 0 } });
  expect(rules.status).toBe(200);
}, 120_000);
afterAll(() => t.close());

/** One practitioner's day whose visits zig-zag east–west (a bad order), hourly from 09:00; answers their ids. */
async function zigzagDay(date: string, lngs = [153.07, 152.97, 153.05, 152.99, 153.03]): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, lng] of lngs.entries()) {
    const [client] = await t.ctx.db.insert(clients).values({
      business_account_id: acme.businessAccountId, first_name: `Zig${date}${index}`, last_name: 'Client', lat: -27.47, lng, time_zone: 'Australia/Brisbane',
    }).returning({ id: clients.id });
    const hhmm = `${String(9 + index).padStart(2, '0')}:00`;
    const [row] = await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: pat, appointment_type_id: acme.appointmentTypeIds[0],
      starts_at: at(date, hhmm), ends_at: new Date(at(date, hhmm).getTime() + 30 * 60_000), arrive_at: at(date, hhmm), lat: -27.47, lng,
    }).returning({ id: appointments.id });
    ids.push(row.id);
  }
  return ids;
}

/** Optimises the day as `token`'s user and applies the proposal; answers the run. */
async function optimiseAndApply(date: string, token = acme.tokens.admin) {
  const created = await t.request('POST', '/api/optimizations', { token, body: { date, practitioner_ids: [pat] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const applied = await t.request('POST', `/api/optimizations/${created.body.optimization.id}/apply`, { token });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  return applied.body.optimization;
}

const undo = (id: number, token = acme.tokens.admin) => t.request('POST', `/api/optimizations/${id}/undo`, { token });

async function visitsOf(ids: number[]) {
  const rows = await t.ctx.db.select({
    id: appointments.id, arrive_at: appointments.arrive_at, practitioner_id: appointments.practitioner_id, route_id: appointments.route_id,
  }).from(appointments).where(sql`${appointments.id} IN ${ids}`).orderBy(appointments.id);
  return rows;
}

const routesOfDay = (date: string) => t.ctx.db.select().from(routes)
  .where(and(eq(routes.business_account_id, acme.businessAccountId), eq(routes.day, date))).orderBy(routes.id);

describe('undoing an applied optimisation', () => {
  const DAY = '2029-12-04'; // Tuesday
  let visitIds: number[];
  let run: any;
  let before: Awaited<ReturnType<typeof visitsOf>>;
  let routesBefore: Awaited<ReturnType<typeof routesOfDay>>;

  beforeAll(async () => {
    visitIds = await zigzagDay(DAY);
    // A route set earlier for the first two visits, which the optimisation replaces.
    const [earlier] = await t.ctx.db.insert(routes).values({
      business_account_id: acme.businessAccountId, practitioner_id: pat, day: DAY, stops: [], metrics: { travel_seconds: 600, travel_metres: 9000, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 },
      applied_by_name: 'Earlier Coordinator', stale_at: at(DAY, '07:00'),
    }).returning({ id: routes.id });
    await t.ctx.db.update(appointments).set({ route_id: earlier.id }).where(sql`${appointments.id} IN ${visitIds.slice(0, 2)}`);
    before = await visitsOf(visitIds);
    routesBefore = await routesOfDay(DAY);
    run = await optimiseAndApply(DAY);
    expect(await visitsOf(visitIds)).not.toEqual(before);
  });

  it('puts each visit\'s arrival, practitioner and route back, and the routes the run replaced', async () => {
    const undone = await undo(run.id);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.optimization).toMatchObject({ id: run.id, undone_by_name: 'Ada acme', applied_by_name: 'Ada acme' });
    expect(undone.body.optimization.undone_at).toEqual(expect.any(String));
    expect(await visitsOf(visitIds)).toEqual(before);
    expect(await routesOfDay(DAY)).toEqual(routesBefore);
    expect(undone.body.routes.map((route: any) => route.id)).toEqual(routesBefore.map((route) => route.id));
    const read = await t.request('GET', `/api/optimizations/${run.id}`, { token: acme.tokens.admin });
    expect(read.body.optimization.undone_by_name).toBe('Ada acme');
  });

  it('records a change-log version "Undone by …" per visit it moved back', async () => {
    const moved = run.proposal.changes[0];
    const details = await t.request('GET', `/api/appointments/${moved.appointment_id}/extra_details`, { token: acme.tokens.staff });
    const version = details.body.versions.at(-1);
    expect(version).toMatchObject({ whodunnit: 'Ada acme', reason: 'Undone by Ada acme' });
    expect(version.object_changes.arrive_at).toEqual([moved.new_arrive_at, moved.old_arrive_at]);
  });

  it('refuses (409) to undo twice, and the proposal cannot be applied again', async () => {
    const again = await undo(run.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This optimisation has already been undone (by Ada acme).');
    const reapplied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.admin });
    expect(reapplied.status).toBe(409);
  });
});

describe('undo refused', () => {
  const DAY = '2029-12-05'; // Wednesday
  let visitIds: number[];

  beforeAll(async () => {
    visitIds = await zigzagDay(DAY);
  });

  it('answers 409 for a run that was not applied', async () => {
    const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: DAY, practitioner_ids: [pat] } });
    await drainJobs(t.ctx);
    const refused = await undo(created.body.optimization.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This optimisation was not applied, so there is nothing to undo.');
  });

  // A practitioner's 403 and another business's 404 are asserted, for every operation, by permissions.test.ts.
  it('lets a REGULAR_USER undo, naming them', async () => {
    const run = await optimiseAndApply(DAY, acme.tokens.staff);
    const undone = await undo(run.id, acme.tokens.staff);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.optimization.undone_by_name).toBe('Sid');
  });

  it('names the visit that changed since the run was applied, and writes nothing', async () => {
    const run = await optimiseAndApply(DAY);
    const edited = visitIds[1];
    // Taken off its route and given another arrival by hand.
    expect((await t.request('POST', `/api/appointments/${edited}/remove_from_route`, { token: acme.tokens.staff })).status).toBe(200);
    const moved = await t.request('PUT', `/api/appointments/${edited}/update_arrival_time`, { token: acme.tokens.staff, body: { arrive_at: `${DAY}T16:05:00+10:00` } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const visits = await visitsOf(visitIds);
    const dayRoutes = await routesOfDay(DAY);
    const refused = await undo(run.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`Zig${DAY}1 Client's visit (16:05) has changed since this optimisation was applied: it cannot be undone.`);
    expect(await visitsOf(visitIds)).toEqual(visits);
    expect(await routesOfDay(DAY)).toEqual(dayRoutes);
    const read = await t.request('GET', `/api/optimizations/${run.id}`, { token: acme.tokens.admin });
    expect(read.body.optimization.undone_at).toBeNull();
  });

  it('names a few changed visits and counts the rest', async () => {
    const run = await optimiseAndApply(DAY);
    await t.ctx.db.update(appointments).set({ updated_at: new Date() }).where(sql`${appointments.id} IN ${visitIds}`);
    const refused = await undo(run.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Zig\S+ Client's visit \(\d\d:\d\d\), Zig\S+ Client's visit \(\d\d:\d\d\), Zig\S+ Client's visit \(\d\d:\d\d\) and 2 more have changed since/);
  });

  it('leaves the restored route stale when the run\'s route had been marked stale since (the day changed around it)', async () => {
    const earlier = await routesOfDay(DAY);
    expect(earlier.every((route) => route.stale_at === null)).toBe(true);
    const run = await optimiseAndApply(DAY);
    // As an import adding a visit to the day marks it (markRoutesStale).
    await t.ctx.db.update(routes).set({ stale_at: new Date() }).where(eq(routes.optimization_job_id, run.id));
    const undone = await undo(run.id);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.routes.map((route: any) => route.id)).toEqual(earlier.map((route) => route.id));
    expect(undone.body.routes.every((route: any) => route.stale)).toBe(true);
  });
});
