// Practitioner travel and client travel (issue 13) on a hand-checked set of days. Travel legs come from the applied
// route when it still says them (day 2), else from the optimiser's great-circle model (days 1 and 3: the route of
// day 3 is stale); the first and last legs count when the practitioner has a start place (Pat: home; Quinn: none).
//
// Every point is on the meridian 153.0, so a leg's straight line is R × Δlat (R = 6 371 008.8 m) and the model's road
// is 1.35 × that, driven at 25 km/h for the first 2 km, 40 km/h to 10 km, 60 km/h to 30 km:
//   0.01° → 1111.95 m × 1.35 = 1501 m;  1501.13 m ÷ 6.944 m/s                          = 216 s
//   0.02° → 3002 m;  2000 m ÷ 6.944 = 288 s + 1002.27 m ÷ 11.111 = 90.2 s              = 378 s
//   0.03° → 4503 m;  288 s + 2503.40 m ÷ 11.111 = 225.3 s                              = 513 s
//   0.10° → 15011 m; 288 s + 8000 m ÷ 11.111 = 720 s + 5011.34 m ÷ 16.667 = 300.7 s     = 1309 s
//   0.13° → 19515 m; 288 s + 720 s + 9514.74 m ÷ 16.667 = 570.9 s                      = 1579 s
// Home −27.50, Amy −27.49, Ben −27.47, Cal −27.37 (tagged Regional); Dale (the fixture's) has no point.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appointments, clients, clientTags, practitioners, routes, tags } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
const visitIds: Record<string, number> = {};

const MARCH = '?start_date=2030-03-04&end_date=2030-03-06';
const get = (report: string, query = MARCH, token = acme.tokens.admin) => t.request('GET', `/api/reports/${report}${query}`, { token });
const home = { kind: 'home' as const, id: null, name: 'Home', lat: -27.5, lng: 153.0 };
const metrics = { travel_seconds: 0, travel_metres: 0, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 };

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  const { db } = t.ctx;
  const [pat, quinn] = acme.practitionerIds;
  await db.update(practitioners).set({ start_place_kind: 'home', home_lat: -27.5, home_lng: 153.0 }).where(eq(practitioners.id, pat));
  const base = { business_account_id: acme.businessAccountId, time_zone: 'Australia/Brisbane', lng: 153.0, geo_precision: 'address' as const, geo_source: 'pms' as const };
  const [amy, ben, cal] = await db.insert(clients).values([
    { ...base, first_name: 'Amy', last_name: 'Able', lat: -27.49 },
    { ...base, first_name: 'Ben', last_name: 'Best', lat: -27.47 },
    { ...base, first_name: 'Cal', last_name: 'Coast', lat: -27.37 },
  ]).returning();
  const [regional] = await db.insert(tags).values({ business_account_id: acme.businessAccountId, name: ' regional ' }).returning();
  await db.insert(clientTags).values({ client_id: cal.id, tag_id: regional.id });
  const dale = acme.clientIds[1];
  const [nursing, physio] = acme.appointmentTypeIds;
  // Times in Brisbane (UTC+10): 09:00 on Monday 4 March 2030 is 23:00 on Sunday 3 March in UTC.
  const visit = (key: string, clientId: number, practitionerId: number, start: string, minutes: number, extra: Partial<typeof appointments.$inferInsert> = {}) => ({
    key, row: {
      business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: nursing,
      starts_at: new Date(`${start}+10:00`), ends_at: new Date(Date.parse(`${start}+10:00`) + minutes * 60_000), ...extra,
    },
  });
  const planned = [
    // Day 1, no route: Pat Home → Amy → Ben → Cal → Home, estimated.
    visit('pat1Amy', amy.id, pat, '2030-03-04T09:00:00', 60),
    visit('pat1Ben', ben.id, pat, '2030-03-04T10:30:00', 45),
    visit('pat1Cal', cal.id, pat, '2030-03-04T13:00:00', 60, { appointment_type_id: physio }),
    // Quinn has no start place: Amy → Ben only, round Dale (no point); a cancelled visit does not count.
    visit('quinnAmy', amy.id, quinn, '2030-03-04T09:00:00', 30),
    visit('quinnDale', dale, quinn, '2030-03-04T10:00:00', 30),
    visit('quinnBen', ben.id, quinn, '2030-03-04T11:00:00', 30),
    visit('quinnCancelled', cal.id, quinn, '2030-03-04T12:00:00', 30, { cancelled_at: new Date('2030-03-01T00:00:00Z') }),
    // Day 2, routed: the route's legs (600 s 5 km, 420.4 s 2999.6 m, home 900 s 7 km), not the model's, in whole seconds and metres.
    visit('pat2Amy', amy.id, pat, '2030-03-05T09:00:00', 45),
    visit('pat2Ben', ben.id, pat, '2030-03-05T10:00:00', 45),
    // Day 3, a stale route: estimated, Home → Ben → Home.
    visit('pat3Ben', ben.id, pat, '2030-03-06T09:00:00', 60),
    // The day after the range: never counted.
    visit('pat4Amy', amy.id, pat, '2030-03-07T09:00:00', 60),
  ];
  const rows = await db.insert(appointments).values(planned.map((p) => p.row)).returning({ id: appointments.id });
  planned.forEach((p, index) => { visitIds[p.key] = rows[index].id; });
  const stop = (key: string, at: string, travel_seconds: number, travel_metres: number) => ({ appointment_id: visitIds[key], arrive_at: at, travel_seconds, travel_metres });
  await db.insert(routes).values([
    {
      business_account_id: acme.businessAccountId, practitioner_id: pat, day: '2030-03-05', start_place: home, end_place: home, metrics,
      stops: [stop('pat2Amy', '2030-03-04T23:00:00Z', 600, 5000), stop('pat2Ben', '2030-03-05T00:00:00Z', 420.4, 2999.6)],
      return_leg: { travel_seconds: 900, travel_metres: 7000 },
    },
    {
      business_account_id: acme.businessAccountId, practitioner_id: pat, day: '2030-03-06', start_place: home, end_place: home, metrics,
      stops: [stop('pat3Ben', '2030-03-05T23:00:00Z', 999, 9999)], return_leg: { travel_seconds: 999, travel_metres: 9999 }, stale_at: new Date(),
    },
  ]);
  // Another business's practitioner works the same day from the same home: never in acme's reports.
  const [olga] = await db.insert(clients).values({ ...base, business_account_id: other.businessAccountId, first_name: 'Olga', last_name: 'Other', lat: -27.49 }).returning();
  await db.insert(appointments).values({
    business_account_id: other.businessAccountId, client_id: olga.id, practitioner_id: other.practitionerIds[0], appointment_type_id: other.appointmentTypeIds[0],
    starts_at: new Date('2030-03-04T09:00:00+10:00'), ends_at: new Date('2030-03-04T10:00:00+10:00'),
  });
}, 120_000);
afterAll(() => t?.close());

describe('practitioner travel', () => {
  it('counts each practitioner’s visits, visit time, travel and its share of the working day', async () => {
    const response = await get('practitioner-travel');
    expect(response.status).toBe(200);
    const [pat, quinn] = acme.practitionerIds;
    expect(response.body.rows).toEqual([
      // Travel: day 1 216 + 378 + 1309 + 1579 = 3482 s; day 2 600 + 420 + 900 = 1920 s; day 3 513 × 2 = 1026 s.
      // Working: day 1 08:56:24 → 14:26:19 = 19795 s; day 2 08:50 → 11:00 = 7800 s; day 3 08:51:27 → 10:08:33 = 4626 s.
      {
        practitioner_id: pat, practitioner_name: 'Pat acme-One', days: 3, visits: 6, visit_seconds: 9900 + 5400 + 3600,
        travel_seconds: 6428, travel_metres: 39029 + 15000 + 9006, working_seconds: 32221, travel_share: 0.199, unlocated_visits: 0,
      },
      // Amy → Ben only: 378 s of 09:00 → 11:30.
      {
        practitioner_id: quinn, practitioner_name: 'Quinn acme-Two', days: 1, visits: 3, visit_seconds: 5400,
        travel_seconds: 378, travel_metres: 3002, working_seconds: 9000, travel_share: 0.042, unlocated_visits: 1,
      },
    ]);
    expect(response.body.summary).toMatchObject({
      practitioners: 2, visits: 9, visit_seconds: 24300, travel_seconds: 6806, travel_metres: 66037, working_seconds: 41221,
      travel_share: 0.165, route_legs: 3, estimate_legs: 7, unlocated_visits: 1,
    });
    expect(response.body.summary.legs_counted).toMatch(/Start place → first visit.*last visit → end place/);
  });

  it('answers every leg, from → to, with its source: the route’s on a routed day, else the estimate', async () => {
    expect((await get('practitioner-travel')).body).not.toHaveProperty('legs');
    const { body } = await get('practitioner-travel/legs');
    const leg = (row: any) => [row.day, row.kind, row.from_name, row.to_name, row.travel_seconds, row.travel_metres, row.source];
    expect(body.legs.map(leg)).toEqual([
      ['2030-03-04', 'start', 'Home', 'Amy Able', 216, 1501, 'estimate'],
      ['2030-03-04', 'between', 'Amy Able', 'Ben Best', 378, 3002, 'estimate'],
      ['2030-03-04', 'between', 'Ben Best', 'Cal Coast', 1309, 15011, 'estimate'],
      ['2030-03-04', 'end', 'Cal Coast', 'Home', 1579, 19515, 'estimate'],
      ['2030-03-05', 'start', 'Home', 'Amy Able', 600, 5000, 'route'],
      ['2030-03-05', 'between', 'Amy Able', 'Ben Best', 420, 3000, 'route'],
      ['2030-03-05', 'end', 'Ben Best', 'Home', 900, 7000, 'route'],
      ['2030-03-06', 'start', 'Home', 'Ben Best', 513, 4503, 'estimate'],
      ['2030-03-06', 'end', 'Ben Best', 'Home', 513, 4503, 'estimate'],
      ['2030-03-04', 'between', 'Amy Able', 'Ben Best', 378, 3002, 'estimate'],
    ]);
    expect(body.legs[0]).toMatchObject({ from_appointment_id: null, to_appointment_id: visitIds.pat1Amy, practitioner_name: 'Pat acme-One' });
    expect(body.legs.at(-1)).toMatchObject({ from_appointment_id: visitIds.quinnAmy, to_appointment_id: visitIds.quinnBen });
    expect(body.days.map((day: any) => [day.practitioner_id, day.day, day.visits, day.travel_seconds, day.working_seconds, day.route_legs, day.estimate_legs])).toEqual([
      [acme.practitionerIds[0], '2030-03-04', 3, 3482, 19795, 0, 4],
      [acme.practitionerIds[0], '2030-03-05', 2, 1920, 7800, 3, 0],
      [acme.practitionerIds[0], '2030-03-06', 1, 1026, 4626, 0, 2],
      [acme.practitionerIds[1], '2030-03-04', 3, 378, 9000, 0, 1],
    ]);
  });

  it('drills down to one practitioner’s days, and one day’s legs', async () => {
    const [pat, quinn] = acme.practitionerIds;
    const one = await get('practitioner-travel/legs', `${MARCH}&practitioner_id=${pat}&day=2030-03-05`);
    expect(one.status).toBe(200);
    expect(one.body.days.map((day: any) => day.day)).toEqual(['2030-03-04', '2030-03-05', '2030-03-06']);
    expect(one.body.legs.map((leg: any) => [leg.practitioner_id, leg.day, leg.kind, leg.travel_seconds])).toEqual([
      [pat, '2030-03-05', 'start', 600], [pat, '2030-03-05', 'between', 420], [pat, '2030-03-05', 'end', 900],
    ]);
    // Outside the practitioners chosen: nothing; a day outside the range: refused, naming the field.
    expect((await get('practitioner-travel/legs', `${MARCH}&practitioner_ids=${quinn}&practitioner_id=${pat}`)).body).toEqual({ days: [], legs: [] });
    const outside = await get('practitioner-travel/legs', `${MARCH}&practitioner_id=${pat}&day=2030-03-09`);
    expect(outside.status).toBe(422);
    expect(outside.body.message).toContain('day');
  });

  it('takes days in the business time zone and counts the legs of the chosen visits only', async () => {
    // 4 March in Brisbane starts at 14:00 on 3 March in UTC, where day 1's visits are.
    const monday = await get('practitioner-travel', '?start_date=2030-03-04&end_date=2030-03-04');
    expect(monday.body.rows.map((row: any) => [row.practitioner_name, row.visits, row.travel_seconds])).toEqual([['Pat acme-One', 3, 3482], ['Quinn acme-Two', 3, 378]]);
    // Nursing visits only: Cal's physiotherapy visit and the legs into and out of it drop out (216 + 378).
    const nursing = await get('practitioner-travel', `${MARCH}&appointment_type_ids=${acme.appointmentTypeIds[0]}&practitioner_ids=${acme.practitionerIds[0]}`);
    const nursingDays = await get('practitioner-travel/legs', `${MARCH}&appointment_type_ids=${acme.appointmentTypeIds[0]}&practitioner_ids=${acme.practitionerIds[0]}`);
    expect(nursingDays.body.days[0]).toMatchObject({ day: '2030-03-04', visits: 2, travel_seconds: 594, travel_metres: 4503 });
    expect(nursing.body.rows.map((row: any) => row.practitioner_name)).toEqual(['Pat acme-One']);
  });
});

describe('client travel', () => {
  it('attributes each visit’s inbound leg to its client, capped (60 min for a regional client) and at $0.99/km', async () => {
    const response = await get('client-travel');
    expect(response.status).toBe(200);
    const row = (r: any) => [r.client_name, r.regional, r.cap_minutes, r.visits, r.visits_without_travel, r.travel_seconds, r.travel_metres, r.claimable_seconds, r.amount];
    expect(response.body.rows.map(row)).toEqual([
      // Amy: Home → Amy 216 s 1501 m ($1.49) on day 1; the route's 600 s 5 km ($4.95) on day 2; Quinn's first visit has no leg.
      ['Amy Able', false, 30, 3, 1, 816, 6501, 816, 6.44],
      // Ben: 378 s 3002 m ($2.97) twice, 420 s 3 km ($2.97), 513 s 4503 m ($4.46).
      ['Ben Best', false, 30, 4, 0, 1689, 13507, 1689, 13.37],
      // Cal: 1309 s 15011 m ($14.86), regional.
      ['Cal Coast', true, 60, 1, 0, 1309, 15011, 1309, 14.86],
      ['Dale acme-Client', false, 30, 1, 1, 0, 0, 0, 0],
    ]);
    expect(response.body.summary).toMatchObject({
      clients: 4, visits: 9, travel_seconds: 3814, travel_metres: 35019, claimable_seconds: 3814, amount: 34.67,
      cap_minutes: 30, regional_cap_minutes: 60, rate_per_km: 0.99,
    });
    expect(response.body).not.toHaveProperty('visits');
    const { visits } = (await get('client-travel/visits')).body;
    expect(visits).toHaveLength(9);
    const amy2 = visits.find((v: any) => v.appointment_id === visitIds.pat2Amy);
    expect(amy2).toEqual({
      appointment_id: visitIds.pat2Amy, client_id: expect.any(Number), client_name: 'Amy Able', client_suburb: null, regional: false, day: '2030-03-05',
      starts_at: '2030-03-04T23:00:00.000Z', practitioner_id: acme.practitionerIds[0], practitioner_name: 'Pat acme-One',
      from_name: 'Home', travel_seconds: 600, travel_metres: 5000, source: 'route', claimable_seconds: 600, amount: 4.95,
    });
    expect(visits.find((v: any) => v.appointment_id === visitIds.quinnDale)).toMatchObject({ from_name: null, travel_seconds: null, source: null, amount: 0 });
  });

  it('applies the caps and rate given in the address', async () => {
    const { body } = await get('client-travel', `${MARCH}&cap_minutes=5&regional_cap_minutes=20&rate_per_km=2`);
    // Amy 216 + min(600, 300); Ben 4 × 300; Cal min(1309, 1200). Amounts: 1501 m → $3.00, 5 km → $10; 3002 m → $6.00, …
    expect(body.rows.map((r: any) => [r.client_name, r.claimable_seconds, r.amount])).toEqual([
      ['Amy Able', 516, 13], ['Ben Best', 1200, 27.01], ['Cal Coast', 1200, 30.02], ['Dale acme-Client', 0, 0],
    ]);
    expect(body.summary).toMatchObject({ claimable_seconds: 2916, amount: 70.03, cap_minutes: 5, regional_cap_minutes: 20, rate_per_km: 2 });
  });

  it('pages and sorts the clients on the server; the summary and the chart’s largest amounts stay over every client', async () => {
    const names = (body: any) => body.rows.map((r: any) => r.client_name);
    const first = await get('client-travel', `${MARCH}&sort=amount&direction=desc&per_page=10`);
    expect(names(first.body)).toEqual(['Cal Coast', 'Ben Best', 'Amy Able', 'Dale acme-Client']);
    expect(first.body.meta).toEqual({ page: 1, per_page: 10, total: 4 });
    // Every client with an amount, largest first (Dale's is 0); the totals whatever the page.
    expect(first.body.largest.map((r: any) => [r.client_name, r.amount])).toEqual([['Cal Coast', 14.86], ['Ben Best', 13.37], ['Amy Able', 6.44]]);
    const ascending = await get('client-travel', `${MARCH}&sort=visits&per_page=10`);
    expect(ascending.body.rows.map((r: any) => [r.client_name, r.visits])).toEqual([['Cal Coast', 1], ['Dale acme-Client', 1], ['Amy Able', 3], ['Ben Best', 4]]);
    // The table's CSV asks without per_page: every client, in the order chosen.
    const every = await get('client-travel', `${MARCH}&sort=minutes&direction=desc`);
    expect(names(every.body)).toEqual(['Ben Best', 'Cal Coast', 'Amy Able', 'Dale acme-Client']);
    expect(every.body.meta).toEqual({ page: 1, per_page: 4, total: 4 });
    const second = await get('client-travel', `${MARCH}&per_page=10&page=2`);
    expect(second.body.rows).toEqual([]);
    expect(second.body.meta).toEqual({ page: 2, per_page: 10, total: 4 });
    expect(second.body.summary).toEqual(first.body.summary);
    expect(second.body.summary).toMatchObject({ clients: 4, visits: 9, amount: 34.67 });
    for (const [query, field] of [[`${MARCH}&sort=name`, 'sort'], [`${MARCH}&per_page=7`, 'per_page'], [`${MARCH}&per_page=10&page=0`, 'page'], [`${MARCH}&direction=up`, 'direction']]) {
      const response = await get('client-travel', query);
      expect(response.status, query).toBe(422);
      expect(response.body.message, query).toContain(field);
    }
  });

  it('tells namesakes apart by their suburb and id, in the table and in each visit', async () => {
    const base = { business_account_id: acme.businessAccountId, time_zone: 'Australia/Brisbane', first_name: 'Sam', last_name: 'Lee' };
    const [north, south] = await t.ctx.db.insert(clients).values([{ ...base, city: 'Chermside' }, { ...base, city: 'Sunnybank' }]).returning();
    await t.ctx.db.insert(appointments).values([north, south].map((client, index) => ({
      business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: acme.practitionerIds[0],
      starts_at: new Date(Date.parse('2030-04-01T09:00:00+10:00') + index * 3600_000),
      ends_at: new Date(Date.parse('2030-04-01T09:30:00+10:00') + index * 3600_000),
    })));
    const april = '?start_date=2030-04-01&end_date=2030-04-01';
    const { rows } = (await get('client-travel', april)).body;
    expect(rows.map((r: any) => [r.client_name, r.client_suburb, r.client_id])).toEqual([['Sam Lee', 'Chermside', north.id], ['Sam Lee', 'Sunnybank', south.id]]);
    const { visits } = (await get('client-travel/visits', april)).body;
    expect(visits.map((v: any) => [v.client_name, v.client_suburb, v.client_id])).toEqual([['Sam Lee', 'Chermside', north.id], ['Sam Lee', 'Sunnybank', south.id]]);
  });

  it('refuses a bad cap, rate or range naming the field', async () => {
    for (const [query, field] of [
      [`${MARCH}&cap_minutes=-1`, 'cap_minutes'], [`${MARCH}&regional_cap_minutes=601`, 'regional_cap_minutes'],
      [`${MARCH}&rate_per_km=abc`, 'rate_per_km'], ['', 'start_date'], ['?start_date=2030-03-04', 'end_date'],
      ['?start_date=2030-01-01&end_date=2031-06-01', '366 days'],
    ]) {
      const response = await get('client-travel', query);
      expect(response.status, query).toBe(422);
      expect(response.body.message, query).toContain(field);
    }
    expect((await get('practitioner-travel', '')).status).toBe(422);
  });
});

describe('the day schedule’s travel warnings', () => {
  it('measure with the same legs: the route’s on a routed day, the estimate otherwise', async () => {
    const travelOn = async (date: string) => (await t.request('GET', `/api/appointments/travel?date=${date}&practitioner_ids=${acme.practitionerIds[0]}`, { token: acme.tokens.admin })).body.appointments;
    // Routed: Amy → Ben is the route's 420 s (the model says 378 s); 10:00 − 09:45 leaves 900 s.
    expect((await travelOn('2030-03-05')).find((item: any) => item.appointment_id === visitIds.pat2Ben)).toEqual({
      appointment_id: visitIds.pat2Ben, practitioner_id: acme.practitionerIds[0], previous_appointment_id: visitIds.pat2Amy,
      travel_seconds_from_previous: 420, travel_metres: 3000, gap_seconds: 900, needs_more_seconds: 0, on_leave: false,
    });
    // Not routed: Ben → Cal is the model's 1309 s; 13:00 − 11:15 leaves 6300 s.
    expect((await travelOn('2030-03-04')).find((item: any) => item.appointment_id === visitIds.pat1Cal))
      .toMatchObject({ previous_appointment_id: visitIds.pat1Ben, travel_seconds_from_previous: 1309, travel_metres: 15011, gap_seconds: 6300 });
  });
});

describe('both travel reports', () => {
  it('are for admins only', async () => {
    for (const report of ['practitioner-travel', 'practitioner-travel/legs', 'client-travel', 'client-travel/visits']) {
      expect((await get(report, MARCH, acme.tokens.staff)).status).toBe(403);
      expect((await get(report, MARCH, acme.tokens.practitioner)).status).toBe(403);
      expect((await t.request('GET', `/api/reports/${report}${MARCH}`)).status).toBe(401);
    }
  });

  it('never count another business’s visits, nor answer for its practitioners', async () => {
    const others = await get('practitioner-travel', MARCH, other.tokens.admin);
    expect(others.body.rows.map((row: any) => [row.practitioner_name, row.visits])).toEqual([['Pat other-One', 1]]);
    expect((await get('client-travel', MARCH, other.tokens.admin)).body.rows.map((row: any) => row.client_name)).toEqual(['Olga Other']);
    const foreign = await get('practitioner-travel', `${MARCH}&practitioner_ids=${other.practitionerIds[0]}`);
    expect(foreign.body.rows).toEqual([]);
    expect((await get('practitioner-travel/legs', `${MARCH}&practitioner_id=${other.practitionerIds[0]}`)).body).toEqual({ days: [], legs: [] });
    expect((await get('client-travel/visits', MARCH, other.tokens.admin)).body.visits.map((visit: any) => visit.client_name)).toEqual(['Olga Other']);
    expect((await get('client-travel', `${MARCH}&practitioner_ids=${other.practitionerIds[0]}`)).body.rows).toEqual([]);
  });
});
