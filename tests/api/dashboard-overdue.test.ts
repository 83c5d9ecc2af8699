// The coordinator's live desk (issue 26): the day's list answers each visit's state and actual times, the business
// setting overdue_after_minutes (1..240, default 15) is checked in words, and GET /dashboard counts today's overdue
// visits (no check-in, planned start more than the setting ago, not cancelled) by the rule in server/src/lib/overdue.ts.
import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

const ZONE = 'Australia/Brisbane';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let today: string;
let keys = 0;
/**
 * Minutes of today (Brisbane) gone when the file is read: a visit planned that long ago is still today's. Read here,
 * not in beforeAll: `it.skipIf` reads it when the tests are collected, before any hook runs (it was always undefined
 * there, so near midnight the tests ran and failed instead of being skipped).
 */
const minutesIntoToday = (() => {
  const now = Temporal.Now.zonedDateTimeISO(ZONE);
  return Math.floor(now.since(now.startOfDay()).total('minutes'));
})();

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  const now = Temporal.Now.zonedDateTimeISO(ZONE);
  today = now.toPlainDate().toString();
}, 120_000);
afterAll(() => t.close());

/** A visit of today planned `minutesAgo` before now (negative: ahead), 45 minutes long. */
async function addVisit(minutesAgo: number, options: { business?: BusinessFixture; cancelled?: boolean; practitionerIndex?: number } = {}): Promise<number> {
  const business = options.business ?? acme;
  const starts = new Date(Date.now() - minutesAgo * 60_000);
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: business.businessAccountId, client_id: business.clientIds[0], practitioner_id: business.practitionerIds[options.practitionerIndex ?? 0],
    appointment_type_id: business.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + 45 * 60_000), arrive_at: starts,
    lat: -27.467, lng: 153.047, cancelled_at: options.cancelled ? new Date() : null,
  }).returning({ id: appointments.id });
  return row.id;
}

function step(id: number, body: Record<string, unknown>, token = acme.tokens.staff) {
  return t.request('POST', `/api/appointments/${id}/steps`, { token, body: { idempotency_key: `desk-${process.pid}-${(keys += 1)}`, ...body } });
}

const dashboard = async (token = acme.tokens.staff, date?: string) => {
  const response = await t.request('GET', `/api/dashboard${date ? `?date=${date}` : ''}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

const setting = (value: unknown, token = acme.tokens.admin) => t.request('PATCH', '/api/business_account', { token, body: { overdue_after_minutes: value } });

describe('the setting overdue_after_minutes', () => {
  it('is 15 by default, in the account and in the signed-in user\'s business', async () => {
    const account = await t.request('GET', '/api/business_account', { token: acme.tokens.admin });
    expect(account.body.business_account.overdue_after_minutes).toBe(15);
    const me = await t.request('GET', '/api/auth/user', { token: acme.tokens.staff });
    expect(me.status).toBe(200);
    expect((me.body.user ?? me.body).business_account.overdue_after_minutes).toBe(15);
  });

  it('takes 1 to 240 minutes, and refuses anything else with a 422 naming the field', async () => {
    for (const wrong of [0, 241, -5, 2.5, '15', null]) {
      const response = await setting(wrong);
      expect(response.status, `${wrong}`).toBe(422);
      expect(response.body.message).toMatch(/overdue_after_minutes/);
    }
    const saved = await setting(30);
    expect(saved.status).toBe(200);
    expect(saved.body.business_account.overdue_after_minutes).toBe(30);
    expect((await setting(15)).status).toBe(200);
  });

  it('is the administrator\'s to change', async () => {
    expect((await setting(20, acme.tokens.staff)).status).toBe(403);
  });
});

describe("today's list", () => {
  it.skipIf(minutesIntoToday < 30)('answers each visit\'s state and its actual arrived and done times beside the planned ones', async () => {
    const id = await addVisit(20, { practitionerIndex: 1 });
    const arrivedAt = new Date(Date.now() - 12 * 60_000).toISOString();
    const doneAt = new Date(Date.now() - 2 * 60_000).toISOString();
    expect((await step(id, { step: 'arrived', at: arrivedAt })).status).toBe(201);
    let listed = await t.request('GET', `/api/appointments?start_date=${today}&end_date=${today}`, { token: acme.tokens.staff });
    let item = listed.body.appointments.find((row: { id: number }) => row.id === id);
    expect(item).toMatchObject({ visit_state: 'arrived', visit: { arrived_at: arrivedAt, done_at: null } });

    expect((await step(id, { step: 'done', at: doneAt })).status).toBe(201);
    listed = await t.request('GET', `/api/appointments?start_date=${today}&end_date=${today}`, { token: acme.tokens.staff });
    item = listed.body.appointments.find((row: { id: number }) => row.id === id);
    expect(item).toMatchObject({ visit_state: 'done', visit: { arrived_at: arrivedAt, done_at: doneAt } });

    // Planned five minutes ago, so still today's however near midnight the test runs (an hour ahead is tomorrow after 23:00).
    const notStarted = await addVisit(5, { practitionerIndex: 1 });
    listed = await t.request('GET', `/api/appointments?start_date=${today}&end_date=${today}`, { token: acme.tokens.staff });
    expect(listed.body.appointments.find((row: { id: number }) => row.id === notStarted)).toMatchObject({ visit_state: 'not_started', visit: null });
    // It would be overdue for the counts below.
    await t.ctx.db.delete(appointments).where(eq(appointments.id, notStarted));
  });
});

describe('overdue visits on the dashboard', () => {
  it.skipIf(minutesIntoToday < 90)("counts today's visits with no check-in more than the setting past their planned start", async () => {
    const before = (await dashboard()).overview.overdue_visits;
    expect(before).toMatchObject({ date: today, after_minutes: 15 });

    const late = await addVisit(40); // overdue by the default 15 minutes
    await addVisit(10); // not yet: 10 minutes past
    await addVisit(-30); // ahead
    await addVisit(70, { cancelled: true }); // cancelled: never overdue
    const checkedIn = await addVisit(50);
    expect((await step(checkedIn, { step: 'on_my_way' })).status).toBe(201);
    await addVisit(40, { business: other }); // another business's

    let counted = (await dashboard()).overview.overdue_visits;
    expect(counted).toMatchObject({ date: today, count: before.count + 1, after_minutes: 15 });
    expect(counted.alerts).toContainEqual({ appointment_id: late, kind: 'not_started', minutes: 40, text: expect.stringMatching(/: not started, 40 min late \(/) });

    // A shorter setting makes the 10-minute one overdue too.
    expect((await setting(5)).status).toBe(200);
    counted = (await dashboard()).overview.overdue_visits;
    expect(counted).toMatchObject({ date: today, count: before.count + 2, after_minutes: 5 });

    // A check-in ends it.
    expect((await step(late, { step: 'arrived' })).status).toBe(201);
    counted = (await dashboard(acme.tokens.admin)).overview.overdue_visits;
    expect(counted.count).toBe(before.count + 1);
    expect((await setting(15)).status).toBe(200);

    // Another business sees its own.
    expect((await dashboard(other.tokens.staff)).overview.overdue_visits.count).toBe(1);
  });

  it('counts none on another day than today (looked at from its start)', async () => {
    const tomorrow = Temporal.PlainDate.from(today).add({ days: 1 }).toString();
    expect((await dashboard(acme.tokens.staff, tomorrow)).overview.overdue_visits).toEqual({ date: tomorrow, count: 0, after_minutes: 15, alerts: [] });
  });

  it.skipIf(minutesIntoToday < 160)('counts a practitioner on the way beyond the travel plus the setting, and one still there long past the booked length, in words', async () => {
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const before = (await dashboard(other.tokens.staff)).overview.overdue_visits.count;
    // On my way 90 minutes ago to a visit planned 80 minutes ago, a few kilometres across Brisbane: long since due.
    const onTheWay = await addVisit(80, { business: other });
    expect((await step(onTheWay, { step: 'on_my_way', at: minutesAgo(90) }, other.tokens.staff)).status).toBe(201);
    // Arrived 130 minutes ago at a 45-minute visit, and no Done since.
    const stillThere = await addVisit(150, { business: other, practitionerIndex: 1 });
    expect((await step(stillThere, { step: 'arrived', at: minutesAgo(130) }, other.tokens.staff)).status).toBe(201);
    // Set off a minute ago: not yet due.
    const justLeft = await addVisit(20, { business: other, practitionerIndex: 1 });
    expect((await step(justLeft, { step: 'on_my_way', at: minutesAgo(1) }, other.tokens.staff)).status).toBe(201);

    const counted = (await dashboard(other.tokens.staff)).overview.overdue_visits;
    expect(counted.count).toBe(before + 2);
    expect(counted.alerts).toContainEqual({ appointment_id: onTheWay, kind: 'on_the_way', minutes: 90, text: expect.stringMatching(/^Pat other-One has been on the way to .+ for 1 h 30 min$/) });
    expect(counted.alerts).toContainEqual({ appointment_id: stillThere, kind: 'still_there', minutes: 130, text: expect.stringMatching(/ arrived at .+ 2 h 10 min ago, visit booked for 45 min$/) });
    expect(counted.alerts.some((alert: { appointment_id: number }) => alert.appointment_id === justLeft)).toBe(false);
  });
});
