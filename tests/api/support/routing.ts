// What the route tests share: Brisbane times (UTC+10, no daylight saving), working hours on every weekday, and a day
// optimised and applied through the API as a coordinator would.
import { and, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { appointments, clients, practitioners, routes } from '../../../server/src/db/schema';
import { loadDay, problemOf, type OptimizationMode } from '../../../server/src/modules/optimizations';
import { travelProviderFor } from '../../../server/src/modules/schedule';
import { checkSolution, travelMatrixFor, type Solution } from '../../../server/src/optimizer';
import type { TestApp } from './app';
import type { BusinessFixture } from './fixtures';
import { drainJobs } from './jobs';

export const workingEveryDay = (start: string, end: string) => Array.from({ length: 7 }, () => ({ start, end }));

/** The business's first practitioner lives in the west of Brisbane, its second in the east; both work `start`–`end` every day. */
export async function homesWestAndEast(t: TestApp, business: BusinessFixture, start: string, end: string) {
  const [west, east] = business.practitionerIds;
  const working_hours = workingEveryDay(start, end);
  await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: '1 West St', home_lat: -27.47, home_lng: 152.93, working_hours })
    .where(eq(practitioners.id, west));
  await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: '9 East St', home_lat: -27.47, home_lng: 153.11, working_hours })
    .where(eq(practitioners.id, east));
}

/** 'HH:MM' on a Brisbane `date` as an instant. */
export const brisbaneAt = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+10:00`);

/** An instant's Brisbane 'HH:MM'. */
export const brisbaneClock = (iso: string) => new Date(Date.parse(iso) + 10 * 3600_000).toISOString().slice(11, 16);

export const routesOf = async (t: TestApp, business: BusinessFixture, date: string) =>
  (await t.request('GET', `/api/routes?date=${date}`, { token: business.tokens.admin })).body.routes as any[];

/** Optimises a day for the practitioners (keeping each visit's practitioner) and applies it; answers Apply's answer (the run and its routes). */
export async function optimiseAndApplyRun(t: TestApp, business: BusinessFixture, date: string, practitionerIds: number[]) {
  const created = await t.request('POST', '/api/optimizations', { token: business.tokens.admin, body: { date, practitioner_ids: practitionerIds } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const applied = await t.request('POST', `/api/optimizations/${created.body.optimization.id}/apply`, { token: business.tokens.admin });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  return applied.body as { optimization: any; routes: any[] };
}

/** As optimiseAndApplyRun; answers the routes. */
export const optimiseAndApply = async (t: TestApp, business: BusinessFixture, date: string, practitionerIds: number[]) =>
  (await optimiseAndApplyRun(t, business, date, practitionerIds)).routes;

/**
 * Rebuilds the run's problem from the database and has the optimiser's independent checker verify the routes the
 * apply wrote (with the proposal's unplaced visits), and checks each visit carries its route and arrival.
 */
export async function expectRoutesAccepted(
  t: TestApp, business: BusinessFixture, date: string, practitionerIds: number[], mode: OptimizationMode,
  unplaced: { appointment_id: number; reason: string; message: string }[],
) {
  const day = await loadDay(t.ctx.db, business.businessAccountId, { date, practitionerIds, mode });
  const { problem, dayStartMs } = problemOf(day);
  const planMatrix = await travelMatrixFor(problem, { travel: travelProviderFor(t.ctx.config) });
  // The routes keep whole seconds, each rounded up from the plan's: a stored departure can be up to a second later than
  // the plan's, and the arrival after it is the plan's rounded up. Checked with each leg's travel in whole seconds
  // (rounded down), a rounded schedule passes exactly when the plan did: ceil(depart) + floor(travel) <= ceil(arrive).
  const matrix = { ...planMatrix, durations: planMatrix.durations.map(Math.floor) };
  const rows = await t.ctx.db.select().from(routes).where(and(eq(routes.business_account_id, business.businessAccountId), eq(routes.day, date)));
  const seconds = (iso: string) => (Date.parse(iso) - dayStartMs) / 1000;
  const solution: Solution = {
    routes: rows.map((route) => ({
      practitionerId: String(route.practitioner_id),
      stops: route.stops.map((stop) => ({
        visitId: String(stop.appointment_id), arrival: seconds(stop.reach_at!), start: seconds(stop.arrive_at), departure: seconds(stop.depart_at!),
        waiting: stop.waiting_seconds!, travelTime: stop.travel_seconds, travelDistance: stop.travel_metres, lateness: stop.lateness_seconds!,
      })),
      departStart: seconds(route.metrics.depart_at!),
      arriveEnd: seconds(route.metrics.end_at!),
      returnTravelTime: route.return_leg!.travel_seconds,
      returnTravelDistance: route.return_leg!.travel_metres,
      break: route.metrics.break ? {
        start: seconds(route.metrics.break.start_at), end: seconds(route.metrics.break.end_at),
        afterVisitId: route.metrics.break.after_appointment_id === null ? null : String(route.metrics.break.after_appointment_id),
      } : null,
      travelTime: route.metrics.travel_seconds,
      travelDistance: route.metrics.travel_metres,
      overtime: route.metrics.overtime_seconds,
    })),
    unassigned: unplaced.filter((item) => item.reason !== 'no-location')
      .map((item) => ({ visitId: String(item.appointment_id), reason: item.reason as Solution['unassigned'][number]['reason'], message: item.message })),
    objective: undefined as unknown as Solution['objective'],
    stats: { iterations: 0, elapsedMs: 0, seed: 1, stoppedBy: 'budget' },
  };
  const check = checkSolution(problem, solution, matrix);
  expect(check.errors).toEqual([]);
  expect(rows.length).toBeGreaterThan(0);
  const storedIds = rows.flatMap((route) => route.stops.map((stop) => stop.appointment_id));
  const stored = new Map((await t.ctx.db.select().from(appointments).where(inArray(appointments.id, storedIds))).map((row) => [row.id, row]));
  for (const route of rows) {
    for (const stop of route.stops) {
      const visit = stored.get(stop.appointment_id)!;
      expect(visit.route_id).toBe(route.id);
      expect(visit.practitioner_id).toBe(route.practitioner_id);
      expect(visit.arrive_at!.toISOString()).toBe(stop.arrive_at);
    }
  }
  return rows;
}

/**
 * Clients and visits on an east–west line through Brisbane (latitude −27.47), for the tests of a run's order: a client
 * at `lng` (named `name`, else numbered), a 30-minute visit of the business's first type at its client's point, and a
 * day of visits hourly from 09:00 at `lngs`, one new client each, in a bad order.
 */
export function visitsOnALine(t: TestApp, business: BusinessFixture) {
  let clientCount = 0;
  const addClient = async (lng: number, name = `Line${++clientCount}`): Promise<number> => {
    const [row] = await t.ctx.db.insert(clients).values({
      business_account_id: business.businessAccountId, first_name: name, last_name: 'Client', lat: -27.47, lng, time_zone: 'Australia/Brisbane',
    }).returning({ id: clients.id });
    return row.id;
  };
  const addVisit = async (date: string, practitionerId: number, clientId: number, hhmm: string): Promise<number> => {
    const [client] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
    const startsAt = brisbaneAt(date, hhmm);
    const [row] = await t.ctx.db.insert(appointments).values({
      business_account_id: business.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: business.appointmentTypeIds[0],
      starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 30 * 60_000), arrive_at: startsAt, lat: client.lat, lng: client.lng,
    }).returning({ id: appointments.id });
    return row.id;
  };
  const zigzagDay = async (date: string, practitionerId: number, lngs: readonly number[]): Promise<number[]> => {
    const ids: number[] = [];
    for (const [index, lng] of lngs.entries()) ids.push(await addVisit(date, practitionerId, await addClient(lng), `${String(9 + index).padStart(2, '0')}:00`));
    return ids;
  };
  return { addClient, addVisit, zigzagDay };
}
