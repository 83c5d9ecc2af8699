// The demo's day as it happens (issue 26): on a fresh start, today's earlier visits are walked through their steps
// (through the appointments module's service) so the live desk shows states and actual times, and exactly one visit
// is left overdue. The demo's generated visits are on weekdays, so this test books its own day of visits.
import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../server/src/db/schema';
import { walkDemoDay } from '../../server/src/demo/live-day';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
/** Minutes of today (Brisbane) gone, read when the file is (it.skipIf reads it as the tests are collected, before hooks). */
const minutesIntoToday = (() => {
  const now = Temporal.Now.zonedDateTimeISO('Australia/Brisbane');
  return Math.floor(now.since(now.startOfDay()).total('minutes'));
})();

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
}, 120_000);
afterAll(() => t.close());

async function book(practitionerIndex: number, minutesAgo: number, minutes = 30): Promise<number> {
  const starts = new Date(Date.now() - minutesAgo * 60_000);
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: acme.clientIds[0], practitioner_id: acme.practitionerIds[practitionerIndex],
    appointment_type_id: acme.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + minutes * 60_000), arrive_at: starts,
  }).returning({ id: appointments.id });
  return row.id;
}

describe("the demo's day", () => {
  it.skipIf(minutesIntoToday < 240)('walks the earlier visits through their steps and leaves exactly one overdue', async () => {
    const pat = [await book(0, 200), await book(0, 150), await book(0, 100), await book(0, 50), await book(0, 10)];
    const quinn = [await book(1, 180), await book(1, 120), await book(1, 60), await book(1, 5)];
    const day = await walkDemoDay(t.ctx, acme.businessAccountId);
    expect(day.steps).toBeGreaterThan(5);
    expect(day.overdueAppointmentId).not.toBeNull();

    const states = new Map((await t.ctx.db.select({ id: appointments.id, state: appointments.visit_state }).from(appointments)
      .where(eq(appointments.business_account_id, acme.businessAccountId))).map((row) => [row.id, row.state]));
    // Every earlier visit but the overdue one (and those after it in its practitioner's day) has a check-in.
    expect(states.get(pat[0])).toBe('done');
    expect(states.get(quinn[0])).toBe('done');
    expect([...pat, ...quinn].filter((id) => states.get(id) === 'done').length).toBeGreaterThanOrEqual(4);

    const dashboard = await t.request('GET', '/api/dashboard', { token: acme.tokens.staff });
    expect(dashboard.body.overview.overdue_visits.count).toBe(1);
    const listed = await t.request('GET', `/api/appointments?start_date=${Temporal.Now.plainDateISO('Australia/Brisbane')}&end_date=${Temporal.Now.plainDateISO('Australia/Brisbane')}`, { token: acme.tokens.staff });
    const walked = listed.body.appointments.filter((item: { visit_state: string }) => item.visit_state !== 'not_started');
    expect(walked.length).toBeGreaterThanOrEqual(5);
    for (const item of walked.filter((row: { visit_state: string }) => row.visit_state === 'done')) {
      expect(item.visit.arrived_at).not.toBeNull();
      expect(Date.parse(item.visit.done_at)).toBeGreaterThan(Date.parse(item.visit.arrived_at));
    }
  });
});
