// Appointments report (issue 13): visits, booked hours, cancelled visits, distinct clients and visits outside the
// client's availability (arrival, else start; the optimiser's rule), grouped by practitioner, type, location or day,
// with totals and a series of every day — on a hand-checked week; days in the business time zone; visit filters;
// ADMIN only; never another business's visits; 422s naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { appointments, clients } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

const WEEK = '?start_date=2030-03-04&end_date=2030-03-11';
const report = (query = WEEK, token = acme.tokens.admin) => t.request('GET', `/api/reports/appointments${query}`, { token });
const figures = (visits: number, hours: number, cancelled: number, outside: number, clients: number) =>
  ({ visits, hours, cancelled, outside_availability: outside, clients });

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  const base = { business_account_id: acme.businessAccountId, time_zone: 'Australia/Brisbane' };
  // Ivy may be visited on Mondays 09:00–12:00 only; Jon any time.
  const [ivy, jon] = await t.ctx.db.insert(clients).values([
    { ...base, first_name: 'Ivy', last_name: 'Moss', availability: [{ dow: 1, hours: ['09:00-12:00'] }] },
    { ...base, first_name: 'Jon', last_name: 'Reed' },
  ]).returning();
  const [pat, quinn] = acme.practitionerIds;
  const [nursing, physio] = acme.appointmentTypeIds;
  const office = acme.businessLocationIds[0];
  /** `local` is Brisbane time (UTC+10, no daylight saving). */
  const visit = (clientId: number, practitionerId: number, local: string, minutes: number, extra: Partial<typeof appointments.$inferInsert> = {}) => {
    const startsAt = new Date(`${local}+10:00`);
    return {
      business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: nursing,
      business_location_id: office, starts_at: startsAt, ends_at: new Date(startsAt.getTime() + minutes * 60_000), ...extra,
    };
  };
  await t.ctx.db.insert(appointments).values([
    // Monday 4 March: inside Ivy's hours; arriving 08:10 (outside); Jon at 07:30 (still Sunday 3 March in UTC).
    visit(ivy.id, pat, '2030-03-04T09:30:00', 60),
    visit(ivy.id, quinn, '2030-03-04T08:00:00', 30, { appointment_type_id: physio, business_location_id: null, arrive_at: new Date('2030-03-04T08:10:00+10:00') }),
    visit(jon.id, pat, '2030-03-04T07:30:00', 90),
    // Tuesday 5 March: Ivy is never available on Tuesdays; Jon's visit is cancelled.
    visit(ivy.id, pat, '2030-03-05T10:00:00', 45, { appointment_type_id: physio }),
    visit(jon.id, quinn, '2030-03-05T11:00:00', 60, { cancelled_at: new Date('2030-03-01T00:00:00Z') }),
    // Monday 11 March: booked 08:30 (outside) but arriving 09:15 (inside): the arrival counts.
    visit(ivy.id, pat, '2030-03-11T08:30:00', 30, { arrive_at: new Date('2030-03-11T09:15:00+10:00') }),
    // The day after the range.
    visit(jon.id, pat, '2030-03-12T09:00:00', 60),
  ]);
  // Another business's visit in the same week: never in acme's report.
  await t.ctx.db.insert(appointments).values({
    business_account_id: other.businessAccountId, client_id: other.clientIds[0], practitioner_id: other.practitionerIds[0],
    starts_at: new Date('2030-03-04T09:00:00+10:00'), ends_at: new Date('2030-03-04T10:00:00+10:00'),
  });
}, 120_000);
afterAll(() => t?.close());

describe('appointments report', () => {
  it('counts visits, hours, cancellations, clients and visits outside availability per practitioner, with totals and every day', async () => {
    const response = await report();
    expect(response.status).toBe(200);
    expect(response.body.rows).toEqual([
      { key: String(acme.practitionerIds[0]), label: 'Pat acme-One', ...figures(4, 3.75, 0, 1, 2) },
      { key: String(acme.practitionerIds[1]), label: 'Quinn acme-Two', ...figures(1, 0.5, 1, 1, 1) },
    ]);
    expect(response.body.summary).toEqual(figures(5, 4.25, 1, 2, 2));
    expect(response.body.days).toEqual([
      { day: '2030-03-04', visits: 3, cancelled: 0 }, { day: '2030-03-05', visits: 1, cancelled: 1 },
      ...['06', '07', '08', '09', '10'].map((day) => ({ day: `2030-03-${day}`, visits: 0, cancelled: 0 })),
      { day: '2030-03-11', visits: 1, cancelled: 0 },
    ]);
  });

  it('groups by type, location or day', async () => {
    expect((await report(`${WEEK}&group_by=type`)).body.rows).toEqual([
      { key: String(acme.appointmentTypeIds[0]), label: 'Nursing visit', ...figures(3, 3, 1, 0, 2) },
      { key: String(acme.appointmentTypeIds[1]), label: 'Physiotherapy', ...figures(2, 1.25, 0, 2, 1) },
    ]);
    expect((await report(`${WEEK}&group_by=location`)).body.rows).toEqual([
      { key: String(acme.businessLocationIds[0]), label: 'acme office', ...figures(4, 3.75, 1, 1, 2) },
      { key: 'none', label: 'No business location', ...figures(1, 0.5, 0, 1, 1) },
    ]);
    const byDay = await report(`${WEEK}&group_by=day`);
    expect(byDay.body.rows).toEqual([
      { key: '2030-03-04', label: '2030-03-04', ...figures(3, 3, 0, 1, 2) },
      { key: '2030-03-05', label: '2030-03-05', ...figures(1, 0.75, 1, 1, 1) },
      { key: '2030-03-11', label: '2030-03-11', ...figures(1, 0.5, 0, 0, 1) },
    ]);
    expect(byDay.body.summary).toEqual(figures(5, 4.25, 1, 2, 2));
  });

  it('takes days in the business time zone and counts only the chosen practitioners, types and locations', async () => {
    // Jon's 07:30 visit is on Monday 4 March in Brisbane though Sunday 3 March in UTC.
    expect((await report('?start_date=2030-03-03&end_date=2030-03-03')).body.summary).toEqual(figures(0, 0, 0, 0, 0));
    expect((await report('?start_date=2030-03-04&end_date=2030-03-04')).body.summary).toEqual(figures(3, 3, 0, 1, 2));
    expect((await report(`${WEEK}&practitioner_ids=${acme.practitionerIds[1]}`)).body.summary).toEqual(figures(1, 0.5, 1, 1, 1));
    expect((await report(`${WEEK}&appointment_type_ids=${acme.appointmentTypeIds[1]}`)).body.summary).toEqual(figures(2, 1.25, 0, 2, 1));
    expect((await report(`${WEEK}&business_location_ids=${acme.businessLocationIds[0]}&group_by=day`)).body.rows.map((row: any) => row.visits)).toEqual([2, 1, 1]);
  });

  it('is for admins only, and each business sees only its own visits', async () => {
    expect((await report(WEEK, acme.tokens.staff)).status).toBe(403);
    expect((await report(WEEK, acme.tokens.practitioner)).status).toBe(403);
    expect((await t.request('GET', `/api/reports/appointments${WEEK}`)).status).toBe(401);
    const theirs = await report(WEEK, other.tokens.admin);
    expect(theirs.body.rows).toEqual([{ key: String(other.practitionerIds[0]), label: 'Pat other-One', ...figures(1, 1, 0, 0, 1) }]);
    expect((await report(`${WEEK}&practitioner_ids=${other.practitionerIds[0]}`)).body.summary).toEqual(figures(0, 0, 0, 0, 0));
  });

  it('refuses a missing or bad range and an unknown grouping with a message naming the field', async () => {
    for (const [query, message] of [
      ['', /start_date is required/],
      ['?start_date=2030-03-04', /end_date is required/],
      ['?start_date=2030-01-01&end_date=2031-06-30', /limited to 366 days/],
      [`${WEEK}&group_by=client`, /group_by/],
    ] as const) {
      const response = await report(query);
      expect(response.status, query).toBe(422);
      expect(response.body.message, query).toMatch(message);
    }
  });

  it('follows a client\'s availability and a visit\'s arrival changing after the report was read', async () => {
    const before = await report();
    expect(before.body.summary.outside_availability).toBe(2);
    const { db } = t.ctx;
    const [ivy] = await db.select().from(clients).where(and(eq(clients.business_account_id, acme.businessAccountId), eq(clients.first_name, 'Ivy')));
    // Ivy now takes visits all Tuesday too: Pat's Tuesday visit is inside.
    await db.update(clients).set({ availability: [{ dow: 1, hours: ['09:00-12:00'] }, { dow: 2 }] }).where(eq(clients.id, ivy.id));
    expect((await report()).body.rows.map((row: any) => [row.label, row.outside_availability])).toEqual([['Pat acme-One', 0], ['Quinn acme-Two', 1]]);
    // Quinn's Monday visit now arrives at 09:10, inside Ivy's hours; then at 12:30, outside again.
    const quinnMonday = and(eq(appointments.practitioner_id, acme.practitionerIds[1]), eq(appointments.starts_at, new Date('2030-03-04T08:00:00+10:00')));
    await db.update(appointments).set({ arrive_at: new Date('2030-03-04T09:10:00+10:00') }).where(quinnMonday);
    expect((await report()).body.summary).toEqual(figures(5, 4.25, 1, 0, 2));
    await db.update(appointments).set({ arrive_at: new Date('2030-03-04T12:30:00+10:00') }).where(quinnMonday);
    expect((await report(`${WEEK}&group_by=day`)).body.rows.map((row: any) => row.outside_availability)).toEqual([1, 0, 0]);
  });

  it('follows the business time zone changing after the report was read', async () => {
    const sunday = '?start_date=2030-03-03&end_date=2030-03-03';
    expect((await report(sunday)).body.summary.visits).toBe(0);
    const businessAccount = (time_zone: string) => t.request('PATCH', '/api/business_account', { token: acme.tokens.admin, body: { time_zone } });
    expect((await businessAccount('UTC')).status).toBe(200);
    try {
      // Monday 4 March's three visits before 10:00 in Brisbane are on Sunday 3 March in UTC.
      expect((await report(sunday)).body.summary.visits).toBe(3);
    } finally {
      await businessAccount('Australia/Brisbane');
    }
  });
});
