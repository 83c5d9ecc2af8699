// The travel summary (ADR 0017) answers what the travel module's travelDays() computes from scratch, after the
// changes that move its figures: a visit moved to another practitioner and time, a visit cancelled, a day routed, a practitioner's
// home moved, a client's point moved, the business's time zone changed (practitioner travel, its legs, client travel
// and practitioner performance's idle time). Each report is asked before the change (so
// the summary is warm) and after it, and compared with travelDays() over the same range.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { appointments, businessAccounts, clients, practitioners, routes } from '../../server/src/db/schema';
import { travelProviderFor } from '../../server/src/modules/schedule';
import { travelDays, workingSecondsOf } from '../../server/src/modules/travel';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
const RANGE = { startDate: '2030-05-06', endDate: '2030-05-08' };
const QUERY = `?start_date=${RANGE.startDate}&end_date=${RANGE.endDate}`;
const clientIds: number[] = [];
const visitIds: number[] = [];

const get = async (path: string) => {
  const response = await t.request('GET', `/api/reports/${path}${QUERY}`, { token: acme.tokens.admin });
  expect(response.status, path).toBe(200);
  return response.body;
};

/** The practitioner and client travel figures computed from scratch by the travel module's travelDays(). */
async function fromScratch() {
  const days = await travelDays(t.ctx.db, travelProviderFor(t.ctx.config), acme.businessAccountId, { ...RANGE, practitionerIds: [] });
  const byPractitioner = new Map<number, Record<string, number>>();
  const byClient = new Map<number, Record<string, number>>();
  for (const day of days) {
    const own = byPractitioner.get(day.practitionerId) ?? { days: 0, visits: 0, travel_seconds: 0, travel_metres: 0, working_seconds: 0, unlocated_visits: 0, idle_seconds: 0 };
    byPractitioner.set(day.practitionerId, own);
    own.days += 1;
    own.visits += day.visits.length;
    own.travel_seconds += day.legs.reduce((sum, leg) => sum + leg.seconds, 0);
    own.travel_metres += day.legs.reduce((sum, leg) => sum + leg.metres, 0);
    own.working_seconds += workingSecondsOf(day);
    own.unlocated_visits += day.unlocatedVisitIds.length;
    // Idle (Practitioner performance): between two visits in a row, the time beyond the leg between them.
    const byId = new Map(day.visits.map((visit) => [visit.id, visit]));
    const leaves = (visit: (typeof day.visits)[number]) => (visit.arriveAt ?? visit.startsAt).getTime() + visit.endsAt.getTime() - visit.startsAt.getTime();
    for (const leg of day.legs.filter((candidate) => candidate.kind === 'between')) {
      const [from, to] = [byId.get(leg.fromAppointmentId!)!, byId.get(leg.toAppointmentId!)!];
      own.idle_seconds += Math.max(0, Math.round(((to.arriveAt ?? to.startsAt).getTime() - leaves(from)) / 1000) - leg.seconds);
    }
    for (const visit of day.visits) {
      if (visit.clientId === null) continue;
      const leg = day.legs.find((candidate) => candidate.toAppointmentId === visit.id);
      const client = byClient.get(visit.clientId) ?? { visits: 0, visits_without_travel: 0, travel_seconds: 0, travel_metres: 0 };
      byClient.set(visit.clientId, client);
      client.visits += 1;
      if (!leg) client.visits_without_travel += 1;
      client.travel_seconds += leg?.seconds ?? 0;
      client.travel_metres += leg?.metres ?? 0;
    }
  }
  return {
    practitioners: Object.fromEntries([...byPractitioner].map(([id, figures]) => [id, figures])),
    clients: Object.fromEntries([...byClient].map(([id, figures]) => [id, figures])),
    legs: days.flatMap((day) => day.legs.map((leg) => [day.practitionerId, day.day, leg.kind, leg.fromAppointmentId, leg.toAppointmentId, leg.seconds, leg.metres, leg.source])),
  };
}

/** The same figures as the reports answer them from the summary. */
async function fromReports() {
  const [travel, client, legs, performance] = await Promise.all([
    get('practitioner-travel'), get('client-travel'), get('practitioner-travel/legs'), get('practitioner-performance'),
  ]);
  const idleOf = new Map((performance.rows as any[]).map((row) => [row.practitioner_id, row.idle_seconds]));
  const pick = (row: Record<string, number>, keys: string[]) => Object.fromEntries(keys.map((key) => [key, row[key]]));
  return {
    practitioners: Object.fromEntries(travel.rows.map((row: any) => [row.practitioner_id, {
      ...pick(row, ['days', 'visits', 'travel_seconds', 'travel_metres', 'working_seconds', 'unlocated_visits']), idle_seconds: idleOf.get(row.practitioner_id),
    }])),
    clients: Object.fromEntries(client.rows.map((row: any) => [row.client_id, pick(row, ['visits', 'visits_without_travel', 'travel_seconds', 'travel_metres'])])),
    legs: (legs.legs as any[]).map((leg): unknown[] => [leg.practitioner_id, leg.day, leg.kind, leg.from_appointment_id, leg.to_appointment_id, leg.travel_seconds, leg.travel_metres, leg.source]),
  };
}

const sortedLegs = (legs: unknown[][]) => [...legs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
async function expectSummaryEqualsScratch() {
  const [scratch, reports] = await Promise.all([fromScratch(), fromReports()]);
  expect(reports.practitioners).toEqual(scratch.practitioners);
  expect(reports.clients).toEqual(scratch.clients);
  expect(sortedLegs(reports.legs)).toEqual(sortedLegs(scratch.legs));
  return reports;
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  const { db } = t.ctx;
  const [pat, quinn] = acme.practitionerIds;
  await db.update(practitioners).set({ start_place_kind: 'home', home_lat: -27.5, home_lng: 153.0 }).where(eq(practitioners.id, pat));
  await db.update(practitioners).set({ start_place_kind: 'home', home_lat: -27.45, home_lng: 153.05 }).where(eq(practitioners.id, quinn));
  const base = { business_account_id: acme.businessAccountId, time_zone: 'Australia/Brisbane', geo_precision: 'address' as const, geo_source: 'pms' as const };
  const rows = await db.insert(clients).values(Array.from({ length: 6 }, (_, index) => ({
    ...base, first_name: `Client${index}`, last_name: 'Summary', lat: -27.4 - index * 0.013, lng: 153.0 + (index % 3) * 0.021,
  }))).returning({ id: clients.id });
  clientIds.push(...rows.map((row) => row.id));
  // Three days, two practitioners, four visits each a day, every client in turn; plus a visit without a point.
  const planned: (typeof appointments.$inferInsert)[] = [];
  for (const [dayIndex, day] of ['2030-05-06', '2030-05-07', '2030-05-08'].entries()) {
    for (const [practitionerIndex, practitionerId] of [pat, quinn].entries()) {
      for (let slot = 0; slot < 4; slot++) {
        const start = new Date(`${day}T${String(8 + slot * 2).padStart(2, '0')}:00:00+10:00`);
        planned.push({
          business_account_id: acme.businessAccountId, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
          client_id: clientIds[(dayIndex + practitionerIndex * 2 + slot) % clientIds.length], starts_at: start, ends_at: new Date(start.getTime() + 45 * 60_000),
        });
      }
    }
  }
  planned.push({
    business_account_id: acme.businessAccountId, practitioner_id: pat, client_id: acme.clientIds[1], appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: new Date('2030-05-07T15:00:00+10:00'), ends_at: new Date('2030-05-07T15:30:00+10:00'),
  });
  visitIds.push(...(await db.insert(appointments).values(planned).returning({ id: appointments.id })).map((row) => row.id));
}, 120_000);
afterAll(() => t?.close());

describe('the travel summary', () => {
  it('answers what the legs computed from scratch say, before any change', async () => {
    const reports = await expectSummaryEqualsScratch();
    expect(Object.keys(reports.practitioners)).toHaveLength(2);
  });

  it('follows a visit moved to another practitioner and time', async () => {
    const before = await fromReports();
    await t.ctx.db.update(appointments).set({
      practitioner_id: acme.practitionerIds[1], starts_at: new Date('2030-05-08T17:00:00+10:00'), ends_at: new Date('2030-05-08T18:00:00+10:00'),
    }).where(eq(appointments.id, visitIds[0]));
    const after = await expectSummaryEqualsScratch();
    expect(after.practitioners).not.toEqual(before.practitioners);
  });

  it('follows a cancelled visit', async () => {
    const before = await fromReports();
    await t.ctx.db.update(appointments).set({ cancelled_at: new Date() }).where(eq(appointments.id, visitIds[5]));
    const after = await expectSummaryEqualsScratch();
    expect(after.practitioners).not.toEqual(before.practitioners);
  });

  it('follows a day routed, and the route going stale', async () => {
    const [pat] = acme.practitionerIds;
    const dayVisits = await t.ctx.db.select({ id: appointments.id, starts_at: appointments.starts_at }).from(appointments)
      .where(sql`${appointments.practitioner_id} = ${pat} AND ${appointments.starts_at} >= '2030-05-07T00:00:00+10:00' AND ${appointments.starts_at} < '2030-05-07T14:00:00+10:00' AND ${appointments.cancelled_at} IS NULL`)
      .orderBy(appointments.starts_at);
    const home = { kind: 'home' as const, id: null, name: 'Home', lat: -27.5, lng: 153.0 };
    const [route] = await t.ctx.db.insert(routes).values({
      business_account_id: acme.businessAccountId, practitioner_id: pat, day: '2030-05-07', start_place: home, end_place: home,
      metrics: { travel_seconds: 0, travel_metres: 0, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 },
      stops: dayVisits.map((visit, index) => ({ appointment_id: visit.id, arrive_at: visit.starts_at.toISOString(), travel_seconds: 700 + index, travel_metres: 7000 + index })),
      return_leg: { travel_seconds: 1111, travel_metres: 11111 },
    }).returning();
    const routed = await expectSummaryEqualsScratch();
    expect(routed.legs.filter((leg) => leg[7] === 'route').length).toBeGreaterThan(0);
    await t.ctx.db.update(routes).set({ stale_at: new Date() }).where(eq(routes.id, route.id));
    const stale = await expectSummaryEqualsScratch();
    expect(stale.legs.filter((leg) => leg[7] === 'route')).toEqual([]);
  });

  it('follows a practitioner’s home and a client’s point moving', async () => {
    const before = await fromReports();
    await t.ctx.db.update(practitioners).set({ home_lat: -27.3, home_lng: 152.9 }).where(eq(practitioners.id, acme.practitionerIds[0]));
    const moved = await expectSummaryEqualsScratch();
    expect(moved.practitioners[acme.practitionerIds[0]]).not.toEqual(before.practitioners[acme.practitionerIds[0]]);
    await t.ctx.db.update(clients).set({ lat: -27.2, lng: 153.2 }).where(eq(clients.id, clientIds[2]));
    const client = await expectSummaryEqualsScratch();
    expect(client.clients[clientIds[2]]).not.toEqual(moved.clients[clientIds[2]]);
  });

  it('follows the business’s time zone (a visit’s day is a day in it)', async () => {
    await t.ctx.db.update(businessAccounts).set({ time_zone: 'Pacific/Honolulu' }).where(eq(businessAccounts.id, acme.businessAccountId));
    await expectSummaryEqualsScratch();
    await t.ctx.db.update(businessAccounts).set({ time_zone: 'Australia/Brisbane' }).where(eq(businessAccounts.id, acme.businessAccountId));
    await expectSummaryEqualsScratch();
  });

  it('answers the same when rebuilt from nothing', async () => {
    const kept = await fromReports();
    await t.ctx.db.execute(sql`SELECT travel_summary_fill(${acme.businessAccountId})`);
    expect(await fromReports()).toEqual(kept);
  });
});
