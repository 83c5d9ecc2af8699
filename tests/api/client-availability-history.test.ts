// A visit is judged by the availability its client had on the visit's day: changing a client's availability today
// leaves last week's visits as punctual as they were (the Appointments report, the appointments list and a visit's
// details), while today's and later visits follow the new availability. A second change on the same day keeps the
// availability of the days before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { appointments, clients } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let clientId: number;
const ids: Record<'lastWeek' | 'today' | 'nextWeek', number> = { lastWeek: 0, today: 0, nextWeek: 0 };

const today = Temporal.Now.plainDateISO('Australia/Brisbane');
const lastWeek = today.subtract({ days: 7 });
const nextWeek = today.add({ days: 7 });
/** The weekday of all three visits, as the contract numbers days (0 = Sunday). */
const dow = today.dayOfWeek % 7;
const mornings = [{ dow, hours: ['09:00-12:00'] }];
const otherDayOnly = [{ dow: (dow + 1) % 7, hours: ['09:00-12:00'] }];

const outsideOn = async (day: Temporal.PlainDate) => {
  const response = await t.request('GET', `/api/reports/appointments?start_date=${day}&end_date=${day}`, { token: acme.tokens.admin });
  expect(response.status).toBe(200);
  return response.body.summary.outside_availability as number;
};
const setAvailability = async (availability: unknown) => {
  const response = await t.request('PUT', `/api/clients/${clientId}/update_availability`, { token: acme.tokens.staff, body: { availability } });
  expect(response.status).toBe(200);
};

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  const [client] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: 'Mei', last_name: 'Lee', time_zone: 'Australia/Brisbane', availability: mornings,
  }).returning();
  clientId = client.id;
  const visitAt = (day: Temporal.PlainDate) => {
    const startsAt = new Date(day.toZonedDateTime({ timeZone: 'Australia/Brisbane', plainTime: '10:00' }).epochMilliseconds);
    return {
      business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: acme.practitionerIds[0],
      starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 3600_000),
    };
  };
  const rows = await t.ctx.db.insert(appointments).values([visitAt(lastWeek), visitAt(today), visitAt(nextWeek)]).returning();
  [ids.lastWeek, ids.today, ids.nextWeek] = rows.map((row) => row.id);
}, 120_000);
afterAll(() => t?.close());

describe("a client's availability in force on a visit's day", () => {
  it('keeps last week punctual after the availability changes today; today and later follow the new availability', async () => {
    expect([await outsideOn(lastWeek), await outsideOn(today), await outsideOn(nextWeek)]).toEqual([0, 0, 0]);

    await setAvailability(otherDayOnly);
    expect([await outsideOn(lastWeek), await outsideOn(today), await outsideOn(nextWeek)]).toEqual([0, 1, 1]);

    // Changed again the same day (back to no restriction, then to the other day): last week still had mornings.
    await setAvailability([]);
    await setAvailability(otherDayOnly);
    expect([await outsideOn(lastWeek), await outsideOn(today), await outsideOn(nextWeek)]).toEqual([0, 1, 1]);
  });

  it("gives the appointments list and a visit's details the availability of the visit's day", async () => {
    const list = await t.request('GET', `/api/appointments?start_date=${lastWeek}&end_date=${nextWeek}`, { token: acme.tokens.staff });
    expect(list.status).toBe(200);
    const byId = new Map((list.body.appointments as { id: number; client_availability: unknown }[]).map((item) => [item.id, item.client_availability]));
    expect([byId.get(ids.lastWeek), byId.get(ids.today), byId.get(ids.nextWeek)]).toEqual([mornings, null, null]);
    expect(list.body.clients.find((client: { id: number }) => client.id === clientId).availability).toEqual(otherDayOnly);

    const details = async (id: number) => (await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.staff })).body.appointment.client.availability;
    expect(await details(ids.lastWeek)).toEqual(mornings);
    expect(await details(ids.nextWeek)).toEqual(otherDayOnly);
  });
});
