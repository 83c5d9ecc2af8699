// The dashboard (issue 13): GET /dashboard answers each role's dashboard in one request, with figures hand-checked on
// a small week of acme's data (Brisbane, UTC+10, no daylight saving). "Today" is Wednesday 6 March 2030 (the date
// parameter), so this week is Monday 4 – Sunday 10 March and last week Monday 25 February – Sunday 3 March. Another
// business has visits, routes, clients and jobs on the same days: none of them is ever counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { appointments, clients, practitioners, routes, users } from '../../server/src/db/schema';
import { jobs } from '../../server/src/db/schema-jobs';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
const visitIds: Record<string, number> = {};
let failedImportId = 0;
let conflictExportId = 0;

const TODAY = '2030-03-06';
const dashboard = (token: string, query = `?date=${TODAY}`) => t.request('GET', `/api/dashboard${query}`, { token });
const metrics = (travel_seconds: number, travel_metres: number) => ({ travel_seconds, travel_metres, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 });
/** Brisbane wall-clock time of a March 2030 day as an instant. */
const at = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+10:00`);

async function seed(business: BusinessFixture) {
  const { db } = t.ctx;
  const [pat, quinn, rory] = business.practitionerIds;
  const weekdays = (start: string, end: string) => [0, 1, 2, 3, 4].map(() => ({ start, end })).concat([null as never, null as never]);
  // Pat starts at the depot and works 08:00–16:00 Monday to Friday (40 h a week); Quinn works 09:00–13:00 on
  // weekdays (20 h) but has no start place, so Quinn's days are never "unrouted"; Rory is inactive.
  await db.update(practitioners).set({ start_place_kind: 'custom_location', start_custom_location_id: business.customLocationIds[0], working_hours: weekdays('08:00', '16:00') })
    .where(eq(practitioners.id, pat));
  await db.update(practitioners).set({ working_hours: weekdays('09:00', '13:00') }).where(eq(practitioners.id, quinn));
  await db.update(practitioners).set({ working_hours: weekdays('09:00', '17:00') }).where(eq(practitioners.id, rory));
  const base = { business_account_id: business.businessAccountId, time_zone: 'Australia/Brisbane' };
  const [eve, fay] = await db.insert(clients).values([
    // Eve, on the Gold Coast: available all Wednesday, Thursday 12:00–15:00, all Friday and Saturday.
    { ...base, first_name: 'Eve', last_name: 'Coast', address_1: '1 Surf Parade', city: 'Broadbeach', lat: -28.0167, lng: 153.4, geo_precision: 'address', geo_source: 'pms',
      availability: [{ dow: 3 }, { dow: 4, hours: ['12:00-15:00'] }, { dow: 5 }, { dow: 6 }] },
    // Fay: a street without a suburb, so her address is incomplete (the report's rule).
    { ...base, first_name: 'Fay', last_name: 'Street', address_1: '7 Hope Street', lat: -27.47, lng: 153.02, geo_precision: 'street', geo_source: 'pms' },
  ]).returning();
  const cora = business.clientIds[0]; // New Farm; available Mondays 09:00–12:00 only
  const visit = (practitionerId: number, clientId: number, day: string, from: string, to: string, extra: Partial<typeof appointments.$inferInsert> = {}) => ({
    business_account_id: business.businessAccountId, practitioner_id: practitionerId, client_id: clientId, appointment_type_id: business.appointmentTypeIds[0],
    starts_at: at(day, from), ends_at: at(day, to), ...extra,
  });
  const rows = await db.insert(appointments).values([
    // Today: Pat at Cora's (not available on Wednesdays), then 5 minutes later on the Gold Coast (a travel warning);
    // Quinn at Cora's (outside again); a cancelled visit of Pat's (never counted).
    visit(pat, cora, TODAY, '09:00', '10:00'),
    visit(pat, eve.id, TODAY, '10:05', '11:00'),
    visit(quinn, cora, TODAY, '13:00', '13:30'),
    visit(pat, eve.id, TODAY, '15:00', '16:00', { cancelled_at: new Date('2030-03-01T00:00:00Z') }),
    // Tomorrow: Quinn at Eve's at 09:00, before her Thursday hours (outside).
    visit(quinn, eve.id, '2030-03-07', '09:00', '10:00'),
    // Friday: Pat at Fay's with no route (an unrouted day); Saturday: Pat, who does not work Saturdays (not unrouted).
    visit(pat, fay.id, '2030-03-08', '09:00', '09:45'),
    visit(pat, eve.id, '2030-03-09', '10:00', '11:00'),
    // Last week: Pat 2 h, Quinn 30 min, inactive Rory 1 h (left out of utilisation).
    visit(pat, cora, '2030-02-26', '09:00', '11:00'),
    visit(quinn, cora, '2030-02-27', '10:00', '10:30'),
    visit(rory, cora, '2030-02-27', '09:00', '10:00'),
  ]).returning({ id: appointments.id });
  const route = (practitionerId: number, day: string, travel: [number, number], staleAt: Date | null = null) => ({
    business_account_id: business.businessAccountId, practitioner_id: practitionerId, day, stops: [], metrics: metrics(...travel),
    applied_by_name: 'Ada', stale_at: staleAt,
  });
  await db.insert(routes).values([
    // Pat's route today changed after it was applied (stale); last week two routes, one of them stale too.
    route(pat, TODAY, [1800, 20_000], new Date('2030-03-05T00:00:00Z')),
    route(pat, '2030-02-26', [3600, 40_000]),
    route(pat, '2030-02-28', [600, 5000], new Date('2030-02-28T05:00:00Z')),
  ]);
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  const ids = await seed(acme);
  ['patCora', 'patEve', 'quinnCora', 'patCancelled', 'quinnEve', 'patFay', 'patSaturday'].forEach((name, index) => { visitIds[name] = ids[index]; });
  await seed(other);
  const { db } = t.ctx;
  const [staff] = await db.select({ id: users.id }).from(users).where(eq(users.email, acme.emails.staff));
  const noFilters = { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] };
  // acme's staff member started an import that failed; an admin's export finished with one conflict.
  const [failed] = await db.insert(jobs).values({
    business_account_id: acme.businessAccountId, kind: 'IMPORT', status: 'ERROR', start_date: '2030-03-06', end_date: '2030-03-12', filters: noFilters,
    created_by_user_id: staff.id, created_by_name: 'Sid', error_message: 'The practice management system refused the API key.', finished_at: new Date(),
  }).returning();
  const [exported] = await db.insert(jobs).values({
    business_account_id: acme.businessAccountId, kind: 'EXPORT', status: 'COMPLETE', start_date: '2030-03-06', end_date: '2030-03-06', filters: noFilters,
    created_by_name: 'Ada acme', finished_at: new Date(), result: { exported: 2, conflicts: [{ appointment_id: visitIds.patCora }] },
  }).returning();
  failedImportId = failed.id;
  conflictExportId = exported.id;
  // Another business's newer jobs are never acme's last.
  await db.insert(jobs).values((['IMPORT', 'EXPORT'] as const).map((kind) => ({
    business_account_id: other.businessAccountId, kind, status: 'ERROR' as const, start_date: '2030-03-06', end_date: '2030-03-06', filters: noFilters,
    created_by_name: 'Ada other', error_message: 'other', finished_at: new Date(),
  })));
}, 120_000);
afterAll(() => t?.close());

describe('GET /dashboard', () => {
  it('gives an ADMIN the overview with exact figures of their own business only', async () => {
    const response = await dashboard(acme.tokens.admin);
    expect(response.status).toBe(200);
    const [pat, quinn] = acme.practitionerIds;
    expect(response.body).toMatchObject({ role: 'ADMIN', today: TODAY, tomorrow: '2030-03-07', business_time_zone: 'Australia/Brisbane', practitioner_day: null });
    const overview = response.body.overview;
    expect(overview.visits_by_practitioner).toEqual([
      { practitioner_id: pat, name: 'Pat acme-One', color: expect.stringMatching(/^#/), today: 2, tomorrow: 0 },
      { practitioner_id: quinn, name: 'Quinn acme-Two', color: expect.stringMatching(/^#/), today: 1, tomorrow: 1 },
    ]);
    expect(overview.outside_availability).toEqual([{ date: TODAY, count: 2 }, { date: '2030-03-07', count: 1 }]);
    expect(overview.travel_warnings).toEqual([{ date: TODAY, count: 1 }, { date: '2030-03-07', count: 0 }]);
    expect(overview.unrouted_days).toEqual([{ date: '2030-03-08', practitioner_id: pat, practitioner_name: 'Pat acme-One', visits: 1 }]);
    expect(overview.unrouted_day_count).toBe(1);
    expect(overview.stale_routes).toEqual([{ date: TODAY, practitioner_id: pat, practitioner_name: 'Pat acme-One', stale_at: '2030-03-05T00:00:00.000Z' }]);
    // Dale (fixture: no address) and Fay (no suburb; her next visit is on Friday).
    expect(overview.clients_missing_address).toEqual({ clients: 2, with_visit_this_week: 1 });
    expect(overview.last_import).toMatchObject({ id: failedImportId, status: 'ERROR', error_message: 'The practice management system refused the API key.', created_by_name: 'Sid', problems: 0 });
    expect(overview.last_export).toMatchObject({ id: conflictExportId, status: 'COMPLETE', error_message: null, problems: 1 });
    // This week: Pat 1 h + 55 min + 45 min + 1 h (Saturday counts) = 13,200 s, Quinn 30 min + 1 h = 5,400 s, over
    // Pat's 40 h and Quinn's 20 h = 216,000 s. Last week: Pat 2 h + Quinn 30 min = 9,000 s (Rory is inactive).
    // Travel: every visit's legs (none from these routes: they have no stops), exactly what the Practitioner travel report counts for the week (the routes' legs
    // where they say them, else estimated).
    const weekTravel = async (start: string, end: string) =>
      (await t.request('GET', `/api/reports/practitioner-travel?start_date=${start}&end_date=${end}`, { token: acme.tokens.admin })).body.summary;
    const [thisWeek, lastWeek] = [await weekTravel('2030-03-04', '2030-03-10'), await weekTravel('2030-02-25', '2030-03-03')];
    expect(overview.this_week).toEqual({
      start: '2030-03-04', end: '2030-03-10', routed_days: 1, travel_seconds: thisWeek.travel_seconds, travel_metres: thisWeek.travel_metres,
      visit_seconds: 18_600, working_seconds: 216_000, utilisation: 0.086,
    });
    expect(overview.last_week).toEqual({
      start: '2030-02-25', end: '2030-03-03', routed_days: 2, travel_seconds: lastWeek.travel_seconds, travel_metres: lastWeek.travel_metres,
      visit_seconds: 9000, working_seconds: 216_000, utilisation: 0.042,
    });
    // Not the routes' metrics (1800 s this week): Pat's unrouted Friday and Saturday count too.
    expect(overview.this_week.travel_seconds).toBeGreaterThan(1800);
    expect(overview.travel).toBe('haversine');
  });

  it('gives a REGULAR_USER the same overview, with the last import and export they started', async () => {
    const admin = (await dashboard(acme.tokens.admin)).body.overview;
    const response = await dashboard(acme.tokens.staff);
    expect(response.status).toBe(200);
    expect(response.body.role).toBe('REGULAR_USER');
    const { last_import, last_export, ...rest } = response.body.overview;
    expect(last_import).toMatchObject({ id: failedImportId, status: 'ERROR' });
    // The export was not theirs: they cannot read it elsewhere either.
    expect(last_export).toBeNull();
    const { last_import: _import, last_export: _export, ...adminRest } = admin;
    expect(rest).toEqual(adminRest);
    expect(rest.unrouted_days).toHaveLength(1);
  });

  it('gives a PRACTITIONER only their practitioner: the next visit and the day’s visits, no overview', async () => {
    const response = await dashboard(acme.tokens.practitioner);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ role: 'PRACTITIONER', overview: null });
    const day = response.body.practitioner_day;
    expect(day.next_visit).toEqual({
      appointment_id: visitIds.patCora, starts_at: '2030-03-05T23:00:00.000Z', arrive_at: null, client_name: 'Cora acme-Client', suburb: null,
      practitioner_id: acme.ownPractitionerId, practitioner_name: 'Pat acme-One',
    });
    // Pat's three visits today, the cancelled one included as the appointments list shows it; never Quinn's.
    expect(day.today.appointments.map((a: any) => a.id)).toEqual([visitIds.patCora, visitIds.patEve, visitIds.patCancelled]);
    expect(day.today.appointments.map((a: any) => a.status)).toEqual(['BOOKED', 'BOOKED', 'CANCELLED']);
    expect(day.today.practitioners.map((p: any) => p.id)).toEqual([acme.ownPractitionerId]);
    // A visit the practitioner has done is not their next one any more.
    await t.ctx.db.update(appointments).set({ visit_state: 'done' }).where(eq(appointments.id, visitIds.patCora));
    expect((await dashboard(acme.tokens.practitioner)).body.practitioner_day.next_visit.appointment_id).toBe(visitIds.patEve);
    await t.ctx.db.update(appointments).set({ visit_state: 'not_started' }).where(eq(appointments.id, visitIds.patCora));
    // From Thursday's start, Pat's next visit is Friday's (Quinn's Thursday visit is not theirs).
    const thursday = await dashboard(acme.tokens.practitioner, '?date=2030-03-07');
    expect(thursday.body.practitioner_day.next_visit.appointment_id).toBe(visitIds.patFay);
    expect(thursday.body.practitioner_day.today.appointments).toEqual([]);
  });

  it('counts another business only in its own dashboard', async () => {
    const response = await dashboard(other.tokens.admin);
    expect(response.status).toBe(200);
    // The same week seeded for it: the same figures, none of acme's jobs.
    expect(response.body.overview.outside_availability).toEqual([{ date: TODAY, count: 2 }, { date: '2030-03-07', count: 1 }]);
    expect(response.body.overview.visits_by_practitioner.map((row: any) => row.practitioner_id)).toEqual(other.practitionerIds.slice(0, 2));
    expect(response.body.overview.last_import).toMatchObject({ status: 'ERROR', error_message: 'other' });
  });

  it('refuses a day that is not one (422 naming the field) and a caller without a session (401)', async () => {
    const response = await dashboard(acme.tokens.admin, '?date=2030-02-30');
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/date/);
    expect((await t.request('GET', '/api/dashboard')).status).toBe(401);
  });

  it('follows a client\'s availability and visits\' arrivals changing after it was read', async () => {
    const first = (await dashboard(acme.tokens.admin)).body.overview;
    expect(first.outside_availability).toEqual([{ date: TODAY, count: 2 }, { date: '2030-03-07', count: 1 }]);
    expect(first.travel_warnings).toEqual([{ date: TODAY, count: 1 }, { date: '2030-03-07', count: 0 }]);
    const { db } = t.ctx;
    // Cora now takes visits on Wednesdays too: today's two visits at hers are inside.
    await db.update(clients).set({ availability: [{ dow: 1, hours: ['09:00-12:00'] }, { dow: 3 }] })
      .where(and(eq(clients.business_account_id, acme.businessAccountId), eq(clients.id, acme.clientIds[0])));
    // Pat now reaches the Gold Coast at 13:00 (time enough to drive there); Quinn reaches Eve tomorrow at 12:30, in her hours.
    await db.update(appointments).set({ arrive_at: at(TODAY, '13:00') }).where(eq(appointments.id, visitIds.patEve));
    await db.update(appointments).set({ arrive_at: at('2030-03-07', '12:30') }).where(eq(appointments.id, visitIds.quinnEve));
    const overview = (await dashboard(acme.tokens.admin)).body.overview;
    expect(overview.outside_availability).toEqual([{ date: TODAY, count: 0 }, { date: '2030-03-07', count: 0 }]);
    expect(overview.travel_warnings).toEqual([{ date: TODAY, count: 0 }, { date: '2030-03-07', count: 0 }]);
    // Back at 10:05: the warning again.
    await db.update(appointments).set({ arrive_at: at(TODAY, '10:05') }).where(eq(appointments.id, visitIds.patEve));
    expect((await dashboard(acme.tokens.admin)).body.overview.travel_warnings).toEqual([{ date: TODAY, count: 1 }, { date: '2030-03-07', count: 0 }]);
  });
});
