// Nearby search (issue 13): the clients within a radius of a point or a client (exact great-circle distances, the
// bounding box never letting in a client outside the circle), and which practitioner could take a new visit there on
// a day — the optimiser's cheapest insertion into each candidate's day as it is, cheapest first; roles, tenancy and
// validation. The places are around Townsville, away from the fixtures' Brisbane clients and visits.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, clientTags, practitioners, tags } from '../../server/src/db/schema';
import { travelProviderFor } from '../../server/src/modules/schedule';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt as at, brisbaneClock as clock, workingEveryDay } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let pat: number;
let quinn: number;

const DAY = '2026-12-03'; // a Thursday
const ORIGIN = { lat: -19.25, lng: 146.8 };
const PAT_HOME = { lat: -19.25, lng: 146.7 }; // 10.5 km west of the origin
const QUINN_HOME = { lat: -19.25, lng: 147.3 }; // 52.5 km east: outside the radius
const B = { lat: -19.35, lng: 146.8 }; // 11.1 km south: Quinn's 10:00 visit
const ids: Record<string, number> = {};

async function addClient(business: BusinessFixture, name: string, point: { lat: number; lng: number }, extra: Partial<typeof clients.$inferInsert> = {}) {
  const [row] = await t.ctx.db.insert(clients).values({
    business_account_id: business.businessAccountId, first_name: name, last_name: 'Near', city: `${name}ville`, ...point, time_zone: 'Australia/Brisbane', ...extra,
  }).returning({ id: clients.id });
  return row.id;
}

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 200 });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  [pat, quinn] = acme.practitionerIds;
  const hours = workingEveryDay('08:00', '17:00');
  await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: '1 West St', home_lat: PAT_HOME.lat, home_lng: PAT_HOME.lng, working_hours: hours })
    .where(eq(practitioners.id, pat));
  await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: '9 East St', home_lat: QUINN_HOME.lat, home_lng: QUINN_HOME.lng, working_hours: hours })
    .where(eq(practitioners.id, quinn));
  ids.A = await addClient(acme, 'Alma', { lat: -19.25, lng: 146.85 }); // 5,249 m east
  ids.B = await addClient(acme, 'Bert', B); // 11,120 m south
  ids.C = await addClient(acme, 'Cleo', { lat: -19.25, lng: 147.1 }); // 31,493 m: outside
  ids.D = await addClient(acme, 'Dora', { lat: -19.13, lng: 146.92 }); // 18,354 m
  ids.F = await addClient(acme, 'Fern', { lat: -19.1, lng: 146.95 }); // 22,943 m: in the bounding box, outside the circle
  ids.Mon = await addClient(acme, 'Mona', { lat: -19.26, lng: 146.8 }, { availability: [{ dow: 1, hours: ['09:00-12:00'] }] }); // 1,112 m; Mondays only
  ids.Aft = await addClient(acme, 'Thea', { lat: -19.24, lng: 146.8 }, { availability: [{ dow: 4, hours: ['14:00-16:00'] }] }); // 1,112 m; Thursday afternoons
  ids.other = await addClient(other, 'Otto', ORIGIN); // another business's client at the very point
  const [tag] = await t.ctx.db.insert(tags).values({ business_account_id: acme.businessAccountId, name: 'Dog on site', color: '#f59e0b' }).returning();
  await t.ctx.db.insert(clientTags).values({ client_id: ids.A, tag_id: tag.id });
  [{ id: ids.visitB }] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: ids.B, practitioner_id: quinn, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: at(DAY, '10:00'), ends_at: at(DAY, '10:30'), arrive_at: at(DAY, '10:00'), lat: B.lat, lng: B.lng,
  }).returning({ id: appointments.id });
}, 120_000);
afterAll(() => t.close());

const search = (query: string, token = acme.tokens.staff) => t.request('GET', `/api/search/nearby?${query}`, { token });
const fromOrigin = `lat=${ORIGIN.lat}&lng=${ORIGIN.lng}&date=${DAY}&duration_minutes=60`;

/** The optimiser's travel (seconds, metres) between two points. */
async function leg(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const matrix = await travelProviderFor(t.ctx.config).matrix([a, b]);
  return { seconds: matrix.durations[1], metres: matrix.distances[1] };
}
const ceilTo5 = (instant: Date) => new Date(Math.ceil(instant.getTime() / 300_000) * 300_000);

describe('nearby search', () => {
  it('lists the clients within the radius, nearest first, with their exact distance, suburb and tags', async () => {
    const response = await search(fromOrigin);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ origin: { ...ORIGIN, client_id: null, label: null }, date: DAY, radius_metres: 20_000, duration_minutes: 60 });
    expect(response.body.clients.map((row: any) => [row.name, row.distance_metres])).toEqual([
      ['Mona Near', 1112], ['Thea Near', 1112], ['Alma Near', 5249], ['Bert Near', 11120], ['Dora Near', 18354],
    ]);
    expect(response.body.clients[2]).toEqual({
      client_id: ids.A, name: 'Alma Near', suburb: 'Almaville', distance_metres: 5249, lat: -19.25, lng: 146.85,
      tags: [{ id: expect.any(Number), name: 'Dog on site', color: '#f59e0b' }],
    });
    // A smaller radius drops the farther ones; a larger one reaches the client in the box's corner.
    const near = await search(`${fromOrigin}&radius_km=6`);
    expect(near.body.clients.map((row: any) => row.name)).toEqual(['Mona Near', 'Thea Near', 'Alma Near']);
    const wide = await search(`${fromOrigin}&radius_km=23`);
    expect(wide.body.clients.map((row: any) => row.name)).toContain('Fern Near');
  });

  it('offers the practitioner whose day passes by first, at the cheapest place in their day, then the one who starts nearby', async () => {
    const response = await search(fromOrigin);
    const [first, second] = response.body.practitioners;
    expect(response.body.practitioners).toHaveLength(2);
    // Quinn: home → B (10:00–10:30) → O → home adds B→O + O→H − B→H (home → O → B cannot be: from 08:00 Quinn
    // reaches O about 09:07 and cannot be at B by 10:00 after an hour there); Quinn reaches O at 10:30 + B→O, the visit
    // on the next 5 minutes.
    const [oh, ob, hb] = [await leg(ORIGIN, QUINN_HOME), await leg(ORIGIN, B), await leg(QUINN_HOME, B)];
    const reach = new Date(at(DAY, '10:30').getTime() + Math.ceil(ob.seconds) * 1000); // on the next whole second
    expect(first).toMatchObject({ practitioner_id: quinn, visits: 1, free_minutes: 9 * 60 - 30, start_distance_metres: 52_489 });
    expect(first.insertion).toEqual({
      arrive_at: ceilTo5(reach).toISOString(),
      leave_at: new Date(ceilTo5(reach).getTime() + 3600_000).toISOString(),
      reach_at: reach.toISOString(),
      after_appointment_id: ids.visitB, before_appointment_id: null,
      added_travel_seconds: Math.round(ob.seconds + oh.seconds - hb.seconds), added_travel_metres: Math.round(ob.metres + oh.metres - hb.metres),
      lateness_seconds: 0,
    });
    expect(clock(first.insertion.arrive_at)).toBe('10:55');
    expect(first.path).toEqual([QUINN_HOME, B, ORIGIN, QUINN_HOME]);
    // Pat has no visits that day but starts 10.5 km away: there and back.
    const po = await leg(PAT_HOME, ORIGIN);
    expect(second).toMatchObject({ practitioner_id: pat, visits: 0, free_minutes: 9 * 60, start_distance_metres: 10_498 });
    expect(second.insertion).toMatchObject({
      arrive_at: ceilTo5(new Date(at(DAY, '08:00').getTime() + po.seconds * 1000)).toISOString(),
      added_travel_seconds: Math.round(2 * po.seconds), added_travel_metres: Math.round(2 * po.metres),
      after_appointment_id: null, before_appointment_id: null,
    });
    expect(second.path).toEqual([PAT_HOME, ORIGIN, PAT_HOME]);
    expect(first.insertion.added_travel_seconds).toBeLessThan(second.insertion.added_travel_seconds);
  });

  it('leaves out a practitioner with nothing nearby, and says when the day has no room', async () => {
    // 3 km from the origin only Pat's home is out of reach and Quinn's visit too: nobody.
    const none = await search(`${fromOrigin}&radius_km=3`);
    expect(none.body.practitioners).toEqual([]);
    // A visit longer than the working day fits nowhere: both are still listed, the nearest start first.
    const long = await search(`lat=${ORIGIN.lat}&lng=${ORIGIN.lng}&date=${DAY}&duration_minutes=600`);
    expect(long.body.practitioners.map((row: any) => [row.practitioner_id, row.insertion])).toEqual([[pat, null], [quinn, null]]);
  });

  it('searches from a client: their point and their availability', async () => {
    const afternoon = await search(`client_id=${ids.Aft}&date=${DAY}&duration_minutes=60`);
    expect(afternoon.status).toBe(200);
    expect(afternoon.body.origin).toEqual({ lat: -19.24, lng: 146.8, client_id: ids.Aft, label: 'Thea Near' });
    expect(afternoon.body.clients[0]).toMatchObject({ name: 'Thea Near', distance_metres: 0 });
    for (const row of afternoon.body.practitioners) {
      expect(clock(row.insertion.arrive_at) >= '14:00' && clock(row.insertion.arrive_at) < '16:00', row.insertion.arrive_at).toBe(true);
    }
    expect(clock(afternoon.body.practitioners.find((row: any) => row.practitioner_id === pat).insertion.arrive_at)).toBe('14:00');
    const monday = await search(`client_id=${ids.Mon}&date=${DAY}`);
    expect(monday.body.message).toBe('Mona Near is not available on Thursday 3 December 2026, so there is no time for a visit that day.');
    expect(monday.body.practitioners.every((row: any) => row.insertion === null)).toBe(true);
    // The default length is the appointment type's.
    expect(monday.body.duration_minutes).toBe(45);
    expect((await search(`client_id=${ids.Mon}&date=${DAY}&appointment_type_id=${acme.appointmentTypeIds[1]}`)).body.duration_minutes).toBe(60);
  });

  it("keeps a client's rules with their visit that day: a new visit for Bert comes an hour after his 10:00–10:30 visit", async () => {
    const response = await search(`client_id=${ids.B}&date=${DAY}&duration_minutes=60`);
    expect(response.body.practitioners.map((row: any) => row.practitioner_id).sort()).toEqual([pat, quinn].sort());
    // Pat, whose day is free, could be there by 08:15; Quinn, right after the 10:30 end.
    for (const row of response.body.practitioners) expect(clock(row.insertion.arrive_at) >= '11:30', `${row.name} ${row.insertion.arrive_at}`).toBe(true);
  });

  it('answers ADMIN and REGULAR_USER, not a PRACTITIONER, and never another business\'s clients', async () => {
    expect((await search(fromOrigin, acme.tokens.admin)).status).toBe(200);
    expect((await search(fromOrigin, acme.tokens.practitioner)).status).toBe(403);
    const theirs = await search(fromOrigin, other.tokens.admin);
    expect(theirs.body.clients.map((row: any) => row.name)).toEqual(['Otto Near']);
    expect(theirs.body.practitioners).toEqual([]);
    expect((await search(`client_id=${ids.other}&date=${DAY}`)).status).toBe(404);
    expect((await search(`${fromOrigin}&appointment_type_id=${other.appointmentTypeIds[0]}`)).body.message).toMatch(/^appointment_type_id/);
  });

  it('refuses (422, naming the field) a search without an origin or with values out of range', async () => {
    const cases: [string, RegExp][] = [
      [`lat=${ORIGIN.lat}&date=${DAY}`, /lng/],
      [`date=${DAY}`, /lat/],
      [`client_id=${ids.A}&lat=1&lng=1`, /client_id/],
      [`${fromOrigin}&radius_km=500`, /radius_km/],
      [`lat=${ORIGIN.lat}&lng=${ORIGIN.lng}&date=2026-02-30`, /date/],
      [`${fromOrigin.replace('duration_minutes=60', 'duration_minutes=1')}`, /duration_minutes/],
    ];
    for (const [query, field] of cases) {
      const response = await search(query);
      expect(response.status, query).toBe(422);
      expect(response.body.message, query).toMatch(field);
    }
  });
});
