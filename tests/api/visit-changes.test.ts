// Changing a planned day by hand (issue 12): the travel warnings of a day (the optimiser's travel between consecutive
// visits against the gap between them), moving a visit to another practitioner or time (skills, the change log, the
// route it leaves and the one it reaches marked stale), and "Insert into a route" (the optimiser's cheapest place,
// shown before it is applied with the move); roles, tenancy and validation.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, practitioners, versions } from '../../server/src/db/schema';
import { travelProviderFor } from '../../server/src/modules/schedule';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt as at, brisbaneClock as clock, optimiseAndApply, routesOf, workingEveryDay } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let pat: number;
let quinn: number;

const EVERY_DAY = workingEveryDay('08:00', '17:00');

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 200 });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  [pat, quinn] = acme.practitionerIds;
  await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: '1 West St', home_lat: -27.47, home_lng: 152.93, working_hours: EVERY_DAY })
    .where(eq(practitioners.id, pat));
  await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: '9 East St', home_lat: -27.47, home_lng: 153.11, working_hours: EVERY_DAY })
    .where(eq(practitioners.id, quinn));
}, 120_000);
afterAll(() => t.close());

let clientCount = 0;
/** A visit of `minutes` booked (and arriving) at `hhmm`, at a new client's point on the east–west line. */
async function addVisit(date: string, practitionerId: number, lng: number, hhmm: string, minutes = 30, typeIndex = 0, lat = -27.47): Promise<number> {
  const [client] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: `C${++clientCount}`, last_name: 'Client', lat, lng, time_zone: 'Australia/Brisbane',
  }).returning();
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[typeIndex],
    starts_at: at(date, hhmm), ends_at: new Date(at(date, hhmm).getTime() + minutes * 60_000), arrive_at: at(date, hhmm), lat, lng,
  }).returning({ id: appointments.id });
  return row.id;
}

const travelOf = async (date: string, token = acme.tokens.admin, query = '') => t.request('GET', `/api/appointments/travel?date=${date}${query}`, { token });
const move = (id: number, body: unknown, token = acme.tokens.staff) => t.request('PATCH', `/api/appointments/${id}/move`, { token, body });
const insertion = (id: number, practitionerIds: unknown, token = acme.tokens.staff) =>
  t.request('POST', `/api/appointments/${id}/insertion`, { token, body: { practitioner_ids: practitionerIds } });
const routesOfDay = (date: string) => routesOf(t, acme, date);
const optimiseAndApplyDay = (date: string, practitionerIds: number[]) => optimiseAndApply(t, acme, date, practitionerIds);


describe('travel warnings of a day', () => {
  const DAY = '2029-11-22'; // Thursday
  let first: number;
  let far: number;
  let near: number;
  let quinns: number;

  beforeAll(async () => {
    first = await addVisit(DAY, pat, 152.95, '09:00'); // ends 09:30
    far = await addVisit(DAY, pat, 153.10, '09:35'); // 15 km east, 5 minutes later
    near = await addVisit(DAY, pat, 153.101, '11:00');
    quinns = await addVisit(DAY, quinn, 153.0, '10:00');
  });

  it('gives each visit the travel from the one before against the gap, flagging the one that needs more time', async () => {
    const response = await travelOf(DAY);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ date: DAY, travel: expect.stringMatching(/haversine/) });
    const byId = new Map(response.body.appointments.map((item: any) => [item.appointment_id, item]));
    expect(byId.get(first)).toEqual({
      appointment_id: first, practitioner_id: pat, previous_appointment_id: null, travel_seconds_from_previous: null, travel_metres: null,
      gap_seconds: null, needs_more_seconds: 0, on_leave: false,
    });
    // The optimiser's own travel between the two points.
    const matrix = await travelProviderFor(t.ctx.config).matrix([{ lat: -27.47, lng: 152.95 }, { lat: -27.47, lng: 153.10 }]);
    const leg = Math.round(matrix.durations[1]);
    expect(leg).toBeGreaterThan(300);
    expect(byId.get(far)).toEqual({
      appointment_id: far, practitioner_id: pat, previous_appointment_id: first, travel_seconds_from_previous: leg,
      travel_metres: Math.round(matrix.distances[1]), gap_seconds: 300, needs_more_seconds: leg - 300, on_leave: false,
    });
    expect(byId.get(near)).toMatchObject({ previous_appointment_id: far, gap_seconds: 55 * 60, needs_more_seconds: 0 });
    expect((byId.get(near) as any).travel_seconds_from_previous).toBeLessThan(120);
    expect(byId.get(quinns)).toMatchObject({ practitioner_id: quinn, previous_appointment_id: null, needs_more_seconds: 0 });
  });

  it('follows the arrival times: a later arrival clears the warning', async () => {
    const edited = await t.request('PUT', `/api/appointments/${far}/update_arrival_time`, { token: acme.tokens.staff, body: { arrive_at: `${DAY}T10:00:00+10:00` } });
    expect(edited.status).toBe(200);
    const item = (await travelOf(DAY)).body.appointments.find((entry: any) => entry.appointment_id === far);
    expect(item).toMatchObject({ gap_seconds: 30 * 60, needs_more_seconds: 0 });
  });

  it('shows a practitioner only their own visits, filters by practitioner, and is empty for another business', async () => {
    const own = await travelOf(DAY, acme.tokens.practitioner);
    expect(own.status).toBe(200);
    expect(new Set(own.body.appointments.map((item: any) => item.practitioner_id))).toEqual(new Set([pat]));
    expect((await travelOf(DAY, acme.tokens.practitioner, `&practitioner_ids=${quinn}`)).body.appointments).toEqual([]);
    const quinnOnly = await travelOf(DAY, acme.tokens.staff, `&practitioner_ids=${quinn}`);
    expect(quinnOnly.body.appointments.map((item: any) => item.appointment_id)).toEqual([quinns]);
    expect((await travelOf(DAY, other.tokens.admin)).body.appointments).toEqual([]);
  });

  it('refuses a date that is not one (422 naming date)', async () => {
    for (const date of ['2026-02-30', 'tomorrow', '1999-01-01']) {
      const response = await travelOf(date);
      expect(response.status, date).toBe(422);
      expect(`${response.body.message} ${(response.body.errors ?? []).join(' ')}`).toMatch(/date/);
    }
  });
});

describe('moving a visit by hand', () => {
  const DAY = '2029-11-23'; // Friday

  it('refuses other roles, other businesses\' ids, bad input, practitioners without the skill and cancelled visits', async () => {
    const id = await addVisit(DAY, pat, 152.96, '14:00');
    expect((await move(id, { starts_at: `${DAY}T15:00:00+10:00` }, acme.tokens.practitioner)).status).toBe(403);
    expect((await move(id, { starts_at: `${DAY}T15:00:00+10:00` }, other.tokens.admin)).status).toBe(404);
    expect((await move(other.appointmentIds[0], { starts_at: `${DAY}T15:00:00+10:00` })).status).toBe(404);
    expect((await move(id, { practitioner_id: other.practitionerIds[0] })).status).toBe(404);
    for (const [body, field] of [[{}, /body|propert/], [{ starts_at: 'soon' }, /starts_at/], [{ practitioner_id: 'x' }, /practitioner_id/],
      [{ starts_at: '1999-06-01T09:00:00+10:00' }, /starts_at must be between/]] as const) {
      const response = await move(id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(`${response.body.message} ${(response.body.errors ?? []).join(' ')}`).toMatch(field);
    }
    // Quinn delivers nursing visits only; this is a physiotherapy visit.
    await t.ctx.db.update(practitioners).set({ skill_appointment_type_ids: [acme.appointmentTypeIds[0]] }).where(eq(practitioners.id, quinn));
    try {
      const physio = await addVisit(DAY, pat, 152.97, '15:00', 30, 1);
      const refused = await move(physio, { practitioner_id: quinn });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe('practitioner_id: Quinn acme-Two does not deliver Physiotherapy; choose a practitioner who does (an administrator sets them in Cliniko or in Settings → Practitioners).');
      // Nursing is fine.
      expect((await move(id, { practitioner_id: quinn })).status).toBe(200);
    } finally {
      await t.ctx.db.update(practitioners).set({ skill_appointment_type_ids: null }).where(eq(practitioners.id, quinn));
    }
    const inactive = await move(id, { practitioner_id: acme.practitionerIds[2] });
    expect(inactive.status).toBe(422);
    expect(inactive.body.message).toMatch(/^practitioner_id: Rory acme-Inactive is inactive/);
    await t.ctx.db.update(appointments).set({ cancelled_at: new Date() }).where(eq(appointments.id, id));
    expect((await move(id, { starts_at: `${DAY}T16:00:00+10:00` })).status).toBe(409);
  });

  it('moves a routed visit to another practitioner and time: length kept, off its route, both routes stale, in the change log', async () => {
    const pats = [await addVisit(DAY, pat, 152.95, '09:00', 45), await addVisit(DAY, pat, 152.96, '10:00'), await addVisit(DAY, pat, 152.97, '11:00')];
    await addVisit(DAY, quinn, 153.08, '09:00');
    const routes = await optimiseAndApplyDay(DAY, [pat, quinn]);
    expect(routes).toHaveLength(2);
    const [routed] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, pats[0]));
    expect(routed.route_id).not.toBeNull();

    const moved = await move(pats[0], { practitioner_id: quinn, starts_at: `${DAY}T13:00:00+10:00` });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.appointment).toMatchObject({
      practitioner: { id: quinn }, starts_at: at(DAY, '13:00').toISOString(), ends_at: at(DAY, '13:45').toISOString(),
      arrive_at: at(DAY, '13:00').toISOString(), route_id: null,
    });
    const after = new Map((await routesOfDay(DAY)).map((route) => [route.practitioner_id, route]));
    expect(after.get(pat)).toMatchObject({ stale: true, stale_at: expect.any(String) });
    expect(after.get(pat).stops.map((stop: any) => stop.appointment_id)).not.toContain(pats[0]);
    expect(after.get(quinn)).toMatchObject({ stale: true });
    const log = (await t.request('GET', `/api/appointments/${pats[0]}/extra_details`, { token: acme.tokens.admin })).body.versions.at(-1);
    expect(log).toMatchObject({ whodunnit: 'Sid', reason: 'Moved by Sid' });
    expect(log.object_changes.practitioner_id).toEqual([pat, quinn]);
    expect(log.object_changes.starts_at).toEqual([routed.starts_at.toISOString(), at(DAY, '13:00').toISOString()]);
    expect(log.object_changes.route_id).toEqual([routed.route_id, null]);
    expect(log.changes.find((change: any) => change.field === 'practitioner_id')).toMatchObject({ from: 'Pat acme-One', to: 'Quinn acme-Two' });
    // The travel warnings show the new day at once: the visit is Quinn's now.
    const travel = (await travelOf(DAY)).body.appointments.find((item: any) => item.appointment_id === pats[0]);
    expect(travel).toMatchObject({ practitioner_id: quinn });
    // A move that changes nothing writes nothing.
    const count = async () => (await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(versions))[0].n;
    const versionsBefore = await count();
    expect((await move(pats[0], { practitioner_id: quinn, starts_at: `${DAY}T13:00:00+10:00` })).status).toBe(200);
    expect(await count()).toBe(versionsBefore);
  });

  it('answers each practitioner\'s day as it is now after a move by hand: legs to and from home, leave and back times, the route changed', async () => {
    const DATE = '2029-11-29'; // Thursday
    const visits = [await addVisit(DATE, pat, 152.95, '09:00'), await addVisit(DATE, pat, 152.97, '10:00'), await addVisit(DATE, pat, 152.99, '11:00')];
    const [route] = await optimiseAndApplyDay(DATE, [pat]);
    const planned = (await travelOf(DATE, acme.tokens.practitioner)).body.practitioners;
    expect(planned).toEqual([expect.objectContaining({ practitioner_id: pat, route_id: route.id, route_changed: false })]);

    // The last visit goes to 14:00 by hand: the day's end follows it, not the route's stored figures.
    expect((await move(visits[2], { starts_at: `${DATE}T14:00:00+10:00` })).status).toBe(200);
    const response = await travelOf(DATE, acme.tokens.practitioner);
    expect(response.status).toBe(200);
    const [day] = response.body.practitioners;
    const home = { lat: -27.47, lng: 152.93 };
    const rows = (await t.ctx.db.select().from(appointments).where(sql`${appointments.id} IN (${sql.join(visits, sql`, `)})`))
      .sort((a, b) => (a.arrive_at ?? a.starts_at).getTime() - (b.arrive_at ?? b.starts_at).getTime());
    const [first, last] = [rows[0], rows.at(-1)!];
    expect(last.id).toBe(visits[2]);
    const provider = travelProviderFor(t.ctx.config);
    const toFirst = await provider.matrix([home, { lat: Number(first.lat), lng: Number(first.lng) }]);
    const fromLast = await provider.matrix([{ lat: Number(last.lat), lng: Number(last.lng) }, home]);
    expect(day).toMatchObject({
      practitioner_id: pat, route_id: route.id, route_changed: true, estimated: true,
      start_place: expect.objectContaining({ kind: 'home', lat: home.lat, lng: home.lng }),
      end_place: expect.objectContaining({ kind: 'home' }),
      start_leg: { travel_seconds: Math.round(toFirst.durations[1]), travel_metres: Math.round(toFirst.distances[1]) },
      end_leg: { travel_seconds: Math.round(fromLast.durations[1]), travel_metres: Math.round(fromLast.distances[1]) },
    });
    expect(day.depart_at).toBe(new Date((first.arrive_at ?? first.starts_at).getTime() - Math.round(toFirst.durations[1]) * 1000).toISOString());
    expect(day.back_at).toBe(new Date(at(DATE, '14:30').getTime() + Math.round(fromLast.durations[1]) * 1000).toISOString());
    // The visits in arrival order, the moved one last.
    expect(response.body.appointments.map((item: any) => item.appointment_id).at(-1)).toBe(visits[2]);
    expect((await travelOf(DATE, other.tokens.admin)).body.practitioners).toEqual([]);
  });

  it('moves a visit to another day: it is listed on that day', async () => {
    const id = await addVisit(DAY, pat, 152.99, '16:00');
    const moved = await move(id, { starts_at: '2029-11-27T08:30:00+10:00' });
    expect(moved.status).toBe(200);
    const listed = await t.request('GET', '/api/appointments?start_date=2029-11-27&end_date=2029-11-27', { token: acme.tokens.admin });
    expect(listed.body.appointments.map((item: any) => item.id)).toContain(id);
  });
});

describe('"Insert into a route"', () => {
  const DAY = '2029-11-26'; // Monday
  let target: number;
  let quinnVisits: number[];

  beforeAll(async () => {
    // Pat works the west, Quinn the east, each with a visit at 09:00 and one at 12:00; the visit to place is in the east.
    await addVisit(DAY, pat, 152.94, '09:00');
    await addVisit(DAY, pat, 152.95, '12:00');
    quinnVisits = [await addVisit(DAY, quinn, 153.09, '09:00'), await addVisit(DAY, quinn, 153.1, '12:00')];
    target = await addVisit(DAY, pat, 153.095, '15:00', 30, 0, -27.475);
  });

  it('finds the cheapest place among the chosen practitioners, changes nothing, and the move applies it', async () => {
    const found = await insertion(target, [pat, quinn]);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.message).toBeNull();
    const place = found.body.insertion;
    expect(place).toMatchObject({
      appointment_id: target, practitioner_id: quinn, practitioner_name: 'Quinn acme-Two', current_practitioner_id: pat,
      current_arrive_at: at(DAY, '15:00').toISOString(), lateness_seconds: 0,
    });
    // Among Quinn's visits, which keep their times: within the hours, on the 5-minute step.
    const quinns = new Set(quinnVisits);
    expect([place.after_appointment_id, place.before_appointment_id].filter((id) => id !== null).every((id: number) => quinns.has(id))).toBe(true);
    expect(clock(place.arrive_at) >= '08:00' && clock(place.arrive_at) <= '16:30').toBe(true);
    expect(Date.parse(place.arrive_at) % 300_000).toBe(0);
    expect(place.added_travel_seconds).toBeGreaterThan(0);
    expect(place.added_travel_seconds).toBeLessThan(10 * 60);
    // With Pat only it goes to the end of Pat's day, at a far greater travel cost.
    const patOnly = (await insertion(target, [pat])).body.insertion;
    expect(patOnly).toMatchObject({ practitioner_id: pat, before_appointment_id: null });
    expect(patOnly.added_travel_seconds).toBeGreaterThan(place.added_travel_seconds);
    const [unchanged] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, target));
    expect(unchanged).toMatchObject({ practitioner_id: pat, arrive_at: at(DAY, '15:00') });

    const applied = await move(target, { practitioner_id: place.practitioner_id, starts_at: place.arrive_at });
    expect(applied.status).toBe(200);
    expect(applied.body.appointment).toMatchObject({ practitioner: { id: quinn }, arrive_at: place.arrive_at });
    // Quinn's day has room for it: no travel warning on it or on the visit after it.
    const travel = (await travelOf(DAY, acme.tokens.admin, `&practitioner_ids=${quinn}`)).body.appointments;
    expect(travel.map((item: any) => item.appointment_id).sort()).toEqual([...quinnVisits, target].sort());
    expect(travel.find((item: any) => item.appointment_id === target)).toMatchObject({ previous_appointment_id: place.after_appointment_id });
    expect(travel.map((item: any) => item.needs_more_seconds)).toEqual([0, 0, 0]);
  });

  it('applied into a routed day, puts the visit on that route (placed by arrival, with its legs) and keeps it there when read again', async () => {
    const ROUTED = '2029-11-28'; // Wednesday
    const quinnsDay = [await addVisit(ROUTED, quinn, 153.09, '09:00'), await addVisit(ROUTED, quinn, 153.1, '12:00')];
    const visit = await addVisit(ROUTED, pat, 153.095, '15:00', 30, 0, -27.475);
    const [route] = await optimiseAndApplyDay(ROUTED, [quinn]);
    const place = (await insertion(visit, [quinn])).body.insertion;
    expect(place).toMatchObject({ practitioner_id: quinn });

    const applied = await move(visit, { practitioner_id: quinn, starts_at: place.arrive_at, into_route: true });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.appointment).toMatchObject({ practitioner: { id: quinn }, arrive_at: place.arrive_at, route_id: route.id });
    const reread = await t.request('GET', `/api/appointments/${visit}`, { token: acme.tokens.staff });
    expect(reread.body.appointment.route_id).toBe(route.id);
    const [after] = await routesOfDay(ROUTED);
    const order = after.stops.map((stop: any) => stop.appointment_id);
    expect(order).toHaveLength(3);
    expect(new Set(order)).toEqual(new Set([...quinnsDay, visit]));
    const stop = after.stops.find((entry: any) => entry.appointment_id === visit);
    expect(stop).toMatchObject({ arrive_at: place.arrive_at });
    expect(stop.travel_seconds).toBeGreaterThan(0);
    // Arrival order: each stop arrives after the one before.
    expect(after.stops.map((entry: any) => entry.arrive_at)).toEqual([...after.stops.map((entry: any) => entry.arrive_at)].sort());
    const log = (await t.request('GET', `/api/appointments/${visit}/extra_details`, { token: acme.tokens.admin })).body.versions.at(-1);
    expect(log.object_changes.route_id).toEqual([null, route.id]);
    // A plain move (no into_route) still takes it off.
    const plain = await move(visit, { starts_at: `${ROUTED}T16:30:00+10:00` });
    expect(plain.body.appointment.route_id).toBeNull();
  });

  it("keeps the client's rules with their visit of a practitioner outside the search: after it in booked order, an hour apart", async () => {
    const FRIDAY = '2029-11-30';
    // The client's visit booked 09:00 is Pat's and now arrives 14:30; their 15:00 visit, Pat's too, goes into Quinn's
    // empty day: not at 15:00, as told, but an hour after the other one ends.
    const first = await addVisit(FRIDAY, pat, 153.0, '09:00');
    const [{ client_id: clientId }] = await t.ctx.db.update(appointments).set({ arrive_at: at(FRIDAY, '14:30') }).where(eq(appointments.id, first))
      .returning({ client_id: appointments.client_id });
    const [{ id: later }] = await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: pat, appointment_type_id: acme.appointmentTypeIds[0],
      starts_at: at(FRIDAY, '15:00'), ends_at: at(FRIDAY, '15:30'), arrive_at: at(FRIDAY, '15:00'), lat: -27.47, lng: 153.0,
    }).returning({ id: appointments.id });
    const place = (await insertion(later, [quinn])).body.insertion;
    expect(place).toMatchObject({ practitioner_id: quinn });
    expect(clock(place.arrive_at) >= '16:00', place.arrive_at).toBe(true);
    const applied = await move(later, { practitioner_id: quinn, starts_at: place.arrive_at });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  });

  it('says why when it fits nowhere: no practitioner with the skill, or no room', async () => {
    const physio = await addVisit(DAY, quinn, 153.0, '14:00', 30, 1);
    await t.ctx.db.update(practitioners).set({ skill_appointment_type_ids: [acme.appointmentTypeIds[0]] }).where(eq(practitioners.id, pat));
    try {
      const none = await insertion(physio, [pat]);
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ insertion: null, message: expect.stringMatching(/no room for it on Monday 26 November 2029 in Pat acme-One's day/) });
    } finally {
      await t.ctx.db.update(practitioners).set({ skill_appointment_type_ids: null }).where(eq(practitioners.id, pat));
    }
    // An eight-hour visit fits nowhere around Pat's visits within the hours.
    const long = await addVisit(DAY, quinn, 153.0, '08:00', 8 * 60);
    expect((await insertion(long, [pat])).body).toEqual({ insertion: null, message: expect.stringMatching(/no room/) });
  });

  it('is for ADMIN and REGULAR_USER, with 404 for other businesses\' ids and 422 naming practitioner_ids', async () => {
    expect((await insertion(target, [pat], acme.tokens.practitioner)).status).toBe(403);
    expect((await insertion(target, [pat], other.tokens.admin)).status).toBe(404);
    expect((await insertion(target, [pat, other.practitionerIds[0]])).status).toBe(404);
    for (const ids of [[], ['x'], null]) {
      const response = await insertion(target, ids);
      expect(response.status, JSON.stringify(ids)).toBe(422);
      expect(`${response.body.message} ${(response.body.errors ?? []).join(' ')}`).toMatch(/practitioner_ids/);
    }
    // Rory has no start place: named.
    const rory = await insertion(target, [pat, acme.practitionerIds[2]]);
    expect(rory.status).toBe(422);
    expect(rory.body.message).toBe('practitioner_ids: Rory acme-Inactive has no start place with a map position: set one in Settings → Practitioners. '
      + 'Rory acme-Inactive has no working hours on Mondays: set them in Settings → Practitioners.');
  });
});
