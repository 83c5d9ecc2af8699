// Practitioner performance and client geography (issue 13) on a hand-checked dataset.
//
// Monday 4 and Tuesday 5 March 2030 in Brisbane (UTC+10). Every point but Cora's is on the meridian 153.0, so a
// straight line is R × Δlat (R = 6 371 008.8 m); the optimiser's model drives 0.02° (1.35 × 2223.9 m = 3002 m) in
// 378 s (2000 m at 25 km/h = 288 s, 1002.3 m at 40 km/h = 90.2 s).
// Pat: home −27.50, works Mondays 08:00–16:00 (28 800 s; Tuesday off). Amy −27.49 (no availability), Ben −27.47
// (Mondays 09:00–10:00 only), Cal −27.20 (no visit), Cora (the fixture's, −27.467 153.047, Mondays 09:00–12:00), Dale
// (the fixture's, no point).
// Pat, Monday: Amy 09:00–10:00, Ben 10:30–11:15 (outside Ben's hours), Amy 13:00–14:00, Ben 14:30 cancelled; before:
// Amy on 20 February, Ben on 1 November 2029 (a visit to a client the practitioner visited before, however long ago,
// is a repeat: every visit but their first to that client).
//   idle: 10:00 → 10:30 less 378 s = 1422 s; 11:15 → 13:00 less 378 s = 5922 s; 7344 s.
//   utilisation 9900 ÷ 28 800 = 0.344; punctual Amy, Amy = 2 of 3; repeats Amy 09:00 (20 Feb), Ben (1 Nov), Amy 13:00 = 3 of 3.
// Quinn (no hours, starts from the depot), Tuesday: Cora 09:00–09:30 (nursing) and 11:00–11:30 (physio), Cora not available
// on Tuesdays: punctual 0; idle 09:30 → 11:00 less a 0 s leg = 5400 s; repeat: the 11:00 visit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appointments, clients, customLocations, practitioners } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
const ids: Record<string, number> = {};

const RANGE = '?start_date=2030-03-04&end_date=2030-03-05';
const get = (report: string, query = RANGE, token = acme.tokens.admin) => t.request('GET', `/api/reports/${report}${query}`, { token });

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  const { db } = t.ctx;
  const [pat, quinn] = acme.practitionerIds;
  await db.update(practitioners).set({
    start_place_kind: 'home', home_lat: -27.5, home_lng: 153.0,
    working_hours: [{ start: '08:00', end: '16:00' }, null, null, null, null, null, null],
  }).where(eq(practitioners.id, pat));
  // Quinn starts from the depot (−27.4445 153.0375): it is nearer than Pat's home for Cora (2.7 km) and Cal (27.4 km).
  await db.update(practitioners).set({ start_place_kind: 'custom_location', start_custom_location_id: acme.customLocationIds[0] }).where(eq(practitioners.id, quinn));
  const base = { business_account_id: acme.businessAccountId, time_zone: 'Australia/Brisbane', lng: 153.0, geo_precision: 'address' as const, geo_source: 'pms' as const };
  const [amy, ben, cal] = await db.insert(clients).values([
    { ...base, first_name: 'Amy', last_name: 'Able', lat: -27.49, city: 'Annerley', post_code: '4103' },
    { ...base, first_name: 'Ben', last_name: 'Best', lat: -27.47, city: 'Annerley', post_code: '4103', availability: [{ dow: 1, hours: ['09:00-10:00'] }] },
    { ...base, first_name: 'Cal', last_name: 'Coast', lat: -27.2, city: 'Redcliffe', post_code: '4020' },
  ]).returning();
  Object.assign(ids, { amy: amy.id, ben: ben.id, cal: cal.id });
  const cora = acme.clientIds[0];
  const [nursing, physio] = acme.appointmentTypeIds;
  const visit = (clientId: number, practitionerId: number, start: string, minutes: number, extra: Partial<typeof appointments.$inferInsert> = {}) => ({
    business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: nursing,
    starts_at: new Date(`${start}+10:00`), ends_at: new Date(Date.parse(`${start}+10:00`) + minutes * 60_000), ...extra,
  });
  await db.insert(appointments).values([
    visit(amy.id, pat, '2030-02-20T09:00:00', 60),
    visit(ben.id, pat, '2029-11-01T09:00:00', 60),
    visit(amy.id, pat, '2030-03-04T09:00:00', 60),
    visit(ben.id, pat, '2030-03-04T10:30:00', 45, { arrive_at: new Date('2030-03-04T10:30:00+10:00') }),
    visit(amy.id, pat, '2030-03-04T13:00:00', 60),
    visit(ben.id, pat, '2030-03-04T14:30:00', 60, { cancelled_at: new Date('2030-03-01T00:00:00Z') }),
    visit(cora, quinn, '2030-03-05T09:00:00', 30),
    visit(cora, quinn, '2030-03-05T11:00:00', 30, { appointment_type_id: physio }),
    // The day after the range: never counted.
    visit(amy.id, pat, '2030-03-06T09:00:00', 60),
  ]);
  // Another business works the same days: never in acme's reports.
  const [olga] = await db.insert(clients).values({ ...base, business_account_id: other.businessAccountId, first_name: 'Olga', last_name: 'Other', lat: -27.49 }).returning();
  await db.insert(appointments).values({
    business_account_id: other.businessAccountId, client_id: olga.id, practitioner_id: other.practitionerIds[0], appointment_type_id: other.appointmentTypeIds[0],
    starts_at: new Date('2030-03-04T09:00:00+10:00'), ends_at: new Date('2030-03-04T10:00:00+10:00'),
  });
  await db.update(practitioners).set({ working_hours: [{ start: '08:00', end: '16:00' }, null, null, null, null, null, null] })
    .where(eq(practitioners.id, other.practitionerIds[0]));
}, 120_000);
afterAll(() => t?.close());

describe('practitioner performance', () => {
  it('answers each practitioner’s visits, utilisation, idle time, punctuality and continuity, and the totals', async () => {
    const response = await get('practitioner-performance');
    expect(response.status).toBe(200);
    const [pat, quinn] = acme.practitionerIds;
    expect(response.body.rows).toEqual([
      {
        practitioner_id: pat, practitioner_name: 'Pat acme-One', visits: 3, cancellations: 1, visit_seconds: 9900, working_seconds: 28800,
        utilisation: 0.344, idle_seconds: 7344, punctual_visits: 2, punctuality: 0.667, from_check_ins: 0, from_planned_times: 3, clients: 2, repeat_visits: 3, continuity: 1,
      },
      {
        practitioner_id: quinn, practitioner_name: 'Quinn acme-Two', visits: 2, cancellations: 0, visit_seconds: 3600, working_seconds: 0,
        utilisation: null, idle_seconds: 5400, punctual_visits: 0, punctuality: 0, from_check_ins: 0, from_planned_times: 2, clients: 1, repeat_visits: 1, continuity: 0.5,
      },
    ]);
    expect(response.body.summary).toMatchObject({
      practitioners: 2, visits: 5, cancellations: 1, visit_seconds: 13500, working_seconds: 28800, utilisation: 0.344,
      idle_seconds: 12744, punctual_visits: 2, punctuality: 0.4, from_check_ins: 0, from_planned_times: 5, clients: 3, repeat_visits: 4, continuity: 0.8,
    });
  });

  it('keeps each practitioner’s first visit to a client as visits are cancelled, moved, added and removed', async () => {
    const { db } = t.ctx;
    const [pat] = acme.practitionerIds;
    const patRepeats = async () => (await get('practitioner-performance')).body.rows.find((row: { practitioner_id: number }) => row.practitioner_id === pat).repeat_visits;
    const [february] = await db.select().from(appointments).where(eq(appointments.starts_at, new Date('2030-02-20T09:00:00+10:00')));
    // Amy's February visit cancelled: her 09:00 visit is Pat's first to her.
    await db.update(appointments).set({ cancelled_at: new Date('2030-02-01T00:00:00Z') }).where(eq(appointments.id, february.id));
    expect(await patRepeats()).toBe(2);
    // Back, but moved after the range: still not before the 09:00 visit.
    await db.update(appointments).set({ cancelled_at: null, starts_at: new Date('2030-04-01T09:00:00+10:00'), ends_at: new Date('2030-04-01T10:00:00+10:00') })
      .where(eq(appointments.id, february.id));
    expect(await patRepeats()).toBe(2);
    // An earlier visit added makes the 09:00 a repeat again; deleted, it is not.
    const [earlier] = await db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: ids.amy, practitioner_id: pat, appointment_type_id: acme.appointmentTypeIds[0],
      starts_at: new Date('2029-06-01T09:00:00+10:00'), ends_at: new Date('2029-06-01T10:00:00+10:00'),
    }).returning();
    expect(await patRepeats()).toBe(3);
    await db.delete(appointments).where(eq(appointments.id, earlier.id));
    expect(await patRepeats()).toBe(2);
    await db.update(appointments).set({ starts_at: february.starts_at, ends_at: february.ends_at }).where(eq(appointments.id, february.id));
    expect(await patRepeats()).toBe(3);
  });

  it('counts only the chosen types and practitioners; an active practitioner with hours is shown without visits', async () => {
    const [pat, quinn] = acme.practitionerIds;
    const { body } = await get('practitioner-performance', `${RANGE}&appointment_type_ids=${acme.appointmentTypeIds[1]}`);
    expect(body.rows).toEqual([
      expect.objectContaining({ practitioner_id: pat, visits: 0, cancellations: 0, working_seconds: 28800, utilisation: 0, idle_seconds: 0, punctuality: null, continuity: null }),
      // The 11:00 visit repeats the 09:00 one, whatever its type; the wait before it is its idle time.
      expect.objectContaining({ practitioner_id: quinn, visits: 1, visit_seconds: 1800, idle_seconds: 5400, repeat_visits: 1, continuity: 1 }),
    ]);
    const only = await get('practitioner-performance', `${RANGE}&practitioner_ids=${quinn}`);
    expect(only.body.rows.map((row: { practitioner_id: number }) => row.practitioner_id)).toEqual([quinn]);
    expect(only.body.summary).toMatchObject({ visits: 2, working_seconds: 0, utilisation: null });
  });

  it('counts the days of the range in the business’s time zone', async () => {
    const { body } = await get('practitioner-performance', '?start_date=2030-03-05&end_date=2030-03-05');
    expect(body.rows.map((row: { practitioner_name: string; visits: number; working_seconds: number }) => [row.practitioner_name, row.visits, row.working_seconds]))
      .toEqual([['Quinn acme-Two', 2, 0]]);
  });

  it('is the admin’s only, of their own business, and needs a valid range', async () => {
    expect((await get('practitioner-performance', RANGE, acme.tokens.staff)).status).toBe(403);
    expect((await get('practitioner-performance', RANGE, acme.tokens.practitioner)).status).toBe(403);
    expect((await t.request('GET', `/api/reports/practitioner-performance${RANGE}`)).status).toBe(401);
    const theirs = await get('practitioner-performance', RANGE, other.tokens.admin);
    expect(theirs.body.rows).toEqual([expect.objectContaining({ practitioner_name: 'Pat other-One', visits: 1, clients: 1, working_seconds: 28800 })]);
    const missing = await get('practitioner-performance', '');
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/start_date/);
    const backwards = await get('practitioner-performance', '?start_date=2030-03-05&end_date=2030-03-04');
    expect(backwards.status).toBe(422);
  });
});

describe('client geography', () => {
  it('answers every client with the distance to the nearest start place, the groups and the summary', async () => {
    const response = await get('client-geography', '');
    expect(response.status).toBe(200);
    const [cora, dale] = acme.clientIds;
    const row = (client_id: number, client_name: string, suburb: string | null, postcode: string | null, distance_km: number | null, outside_radius: boolean, start: 'Home' | 'acme depot' | null) =>
      expect.objectContaining({
        client_id, client_name, suburb, postcode, distance_km, outside_radius,
        nearest_start_place: start, nearest_practitioner_name: start === null ? null : start === 'Home' ? 'Pat acme-One' : 'Quinn acme-Two',
      });
    expect(response.body.rows).toEqual([
      // Home 1.1 km, the depot 6.3 km.
      row(ids.amy, 'Amy Able', 'Annerley', '4103', 1.1, false, 'Home'),
      // Home 5.9 km, the depot 2.7 km.
      row(cora, 'Cora acme-Client', 'New Farm', '4005', 2.7, false, 'acme depot'),
      row(dale, 'Dale acme-Client', null, null, null, false, null),
      // Home 3.3 km, the depot 4.7 km.
      row(ids.ben, 'Ben Best', 'Annerley', '4103', 3.3, false, 'Home'),
      // Home 33.4 km, the depot 27.4 km.
      row(ids.cal, 'Cal Coast', 'Redcliffe', '4020', 27.4, true, 'acme depot'),
    ]);
    expect(response.body.groups).toEqual([
      { key: 'Annerley', clients: 2, placed: 2, outside_radius: 0 },
      { key: '', clients: 1, placed: 0, outside_radius: 0 },
      { key: 'New Farm', clients: 1, placed: 1, outside_radius: 0 },
      { key: 'Redcliffe', clients: 1, placed: 1, outside_radius: 1 },
    ]);
    // Median of 1.1, 2.7, 3.3, 27.4.
    expect(response.body.summary).toEqual({ clients: 5, placed: 4, outside_radius: 1, median_distance_km: 3, radius_km: 25, start_places: 2 });
  });

  it('pages and sorts the clients on the server; the groups, the map’s points and the summary stay over every client', async () => {
    const [cora, dale] = acme.clientIds;
    const farthest = await get('client-geography', '?sort=distance&direction=desc&per_page=10');
    // Distances 27.4, 3.3, 2.7, 1.1; Dale has none: last either way.
    expect(farthest.body.rows.map((row: { client_id: number }) => row.client_id)).toEqual([ids.cal, ids.ben, cora, ids.amy, dale]);
    expect(farthest.body.meta).toEqual({ page: 1, per_page: 10, total: 5 });
    const nearest = await get('client-geography', '?sort=distance&per_page=10');
    expect(nearest.body.rows.map((row: { client_id: number }) => row.client_id)).toEqual([ids.amy, cora, ids.ben, ids.cal, dale]);
    const beyond = await get('client-geography', '?page=2&per_page=10');
    expect(beyond.body.rows).toEqual([]);
    expect(beyond.body.summary).toEqual(farthest.body.summary);
    expect(beyond.body.groups).toEqual(farthest.body.groups);
    // The map: every client with a point, beyond the radius first, then by name.
    expect(beyond.body.points.map((point: { client_id: number; outside_radius: boolean }) => [point.client_id, point.outside_radius]))
      .toEqual([[ids.cal, true], [ids.amy, false], [cora, false], [ids.ben, false]]);
    expect(beyond.body.points[0]).toEqual({ client_id: ids.cal, client_name: 'Cal Coast', lat: -27.2, lng: 153, outside_radius: true });
    const bySuburb = await get('client-geography', '?sort=suburb&direction=desc');
    expect(bySuburb.body.rows.map((row: { suburb: string | null }) => row.suburb)).toEqual(['Redcliffe', 'New Farm', 'Annerley', 'Annerley', null]);
    expect(bySuburb.body.meta).toEqual({ page: 1, per_page: 5, total: 5 });
  });

  it('takes the radius and the grouping from the address', async () => {
    const { body } = await get('client-geography', '?radius_km=3&group_by=postcode');
    expect(body.summary).toMatchObject({ outside_radius: 2, radius_km: 3 });
    expect(body.groups[0]).toEqual({ key: '4103', clients: 2, placed: 2, outside_radius: 1 });
  });

  it('with a range or visit filter, counts only clients with a visit that is not cancelled', async () => {
    const names = (body: { rows: { client_name: string }[] }) => body.rows.map((row) => row.client_name);
    expect(names((await get('client-geography', RANGE)).body)).toEqual(['Amy Able', 'Cora acme-Client', 'Ben Best']);
    expect(names((await get('client-geography', '?start_date=2030-03-05&end_date=2030-03-05')).body)).toEqual(['Cora acme-Client']);
    // Without a range, any visit of Quinn's: the fixture's Dale (November 2026) and Cora.
    expect(names((await get('client-geography', `?practitioner_ids=${acme.practitionerIds[1]}`)).body)).toEqual(['Cora acme-Client', 'Dale acme-Client']);
  });

  it('follows a start place that moves or is renamed (the answer is kept only while lists_version stays, which locations move)', async () => {
    const cora = acme.clientIds[0];
    const nearestOf = (body: { rows: { client_id: number; nearest_start_place: string | null; distance_km: number | null }[] }, id: number) =>
      body.rows.find((row) => row.client_id === id);
    expect(nearestOf((await get('client-geography', '')).body, cora)).toMatchObject({ nearest_start_place: 'acme depot', distance_km: 2.7 });
    const [depot] = await t.ctx.db.select().from(customLocations).where(eq(customLocations.id, acme.customLocationIds[0]));
    try {
      // The depot moves 1° north (about 111 km): Pat's home (5.9 km) is now Cora's nearest, and Cal's (33.4 km).
      await t.ctx.db.update(customLocations).set({ lat: depot.lat + 1 }).where(eq(customLocations.id, depot.id));
      const moved = (await get('client-geography', '')).body;
      expect(nearestOf(moved, cora)).toMatchObject({ nearest_start_place: 'Home', distance_km: 5.9 });
      expect(nearestOf(moved, ids.cal)).toMatchObject({ nearest_start_place: 'Home', distance_km: 33.4 });
      // Back, renamed.
      await t.ctx.db.update(customLocations).set({ lat: depot.lat, name: 'acme yard' }).where(eq(customLocations.id, depot.id));
      expect(nearestOf((await get('client-geography', '')).body, cora)).toMatchObject({ nearest_start_place: 'acme yard', distance_km: 2.7 });
    } finally {
      await t.ctx.db.update(customLocations).set({ lat: depot.lat, name: depot.name }).where(eq(customLocations.id, depot.id));
    }
    expect(nearestOf((await get('client-geography', '')).body, cora)).toMatchObject({ nearest_start_place: 'acme depot', distance_km: 2.7 });
  });

  it('is the admin’s only, of their own business, and names a wrong field', async () => {
    expect((await get('client-geography', '', acme.tokens.staff)).status).toBe(403);
    expect((await get('client-geography', '', acme.tokens.practitioner)).status).toBe(403);
    const theirs = await get('client-geography', '', other.tokens.admin);
    expect(theirs.body.rows.map((row: { client_name: string }) => row.client_name)).toEqual(['Olga Other', 'Cora other-Client', 'Dale other-Client']);
    // Their practitioners have no start place: no distance, none outside.
    expect(theirs.body.summary).toMatchObject({ start_places: 0, outside_radius: 0, median_distance_km: null });
    for (const query of ['?radius_km=0', '?radius_km=far', '?radius_km=5000']) {
      const response = await get('client-geography', query);
      expect(response.status, query).toBe(422);
      expect(response.body.message, query).toMatch(/radius_km/);
    }
    const group = await get('client-geography', '?group_by=region');
    expect(group.status).toBe(422);
    expect(group.body.message).toMatch(/group_by/);
  });
});
