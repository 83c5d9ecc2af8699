// Best fit for a new visit over an imported day: only qualified practitioners who work that day, placed by the
// optimiser's cheapest insertion inside the window asked for; continuity and preferences flagged; leave and no room
// said in others; an excluded practitioner never named; a visit being rescheduled left out of its own day; 4xx in words.
import { and, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, practitioners } from '../../server/src/db/schema';
import { clientPractitionerPreferences } from '../../server/src/db/schema-clients';
import { practitionerLeave } from '../../server/src/db/schema-leave';
import { freeClients, startBookingWorld, stopBookingWorld, typeOf, type BookingWorld } from './support/bookings';
import { brisbaneAt } from './support/routing';

let world: BookingWorld;
let t: BookingWorld['t'];
const DAY = '2029-11-23'; // Friday
const SATURDAY = '2029-11-24';

beforeAll(async () => {
  world = await startBookingWorld();
  t = world.t;
  // Every imported practitioner delivers every imported type (as if Cliniko said so), so several compete for a visit.
  const types = [...new Set((await t.ctx.db.select({ types: practitioners.pms_appointment_type_ids }).from(practitioners)
    .where(inArray(practitioners.id, world.staff))).flatMap((row) => row.types ?? []))].sort((a, b) => a - b);
  await t.ctx.db.update(practitioners).set({ pms_appointment_type_ids: types }).where(inArray(practitioners.id, world.staff));
}, 120_000);
afterAll(() => stopBookingWorld(world));

const bestFit = (body: Record<string, unknown>, token = world.acme.tokens.staff) => t.request('POST', '/api/visits/best_fit', { token, body });

async function qualified(typeId: number) {
  const rows = await t.ctx.db.select({ id: practitioners.id, types: practitioners.pms_appointment_type_ids }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, world.acme.businessAccountId), eq(practitioners.active, true)));
  return rows.filter((row) => row.types?.includes(typeId)).map((row) => row.id).sort((a, b) => a - b);
}

describe('best fit', () => {
  it('ranks the qualified practitioners who work that day, each placed in their day with the travel it adds; changes nothing', async () => {
    const clientId = (await freeClients(world, DAY))[0];
    const typeId = await typeOf(world, world.staff[0]);
    const before = await t.ctx.db.$count(appointments);
    const response = await bestFit({ client_id: clientId, appointment_type_id: typeId, date: DAY, limit: 20 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const result = response.body;
    expect(result).toMatchObject({ date: DAY, window_start: null, window_end: null, message: null });
    const named = [...result.fits, ...result.others].map((entry: { practitioner_id: number }) => entry.practitioner_id).sort((a: number, b: number) => a - b);
    expect(named).toEqual(await qualified(typeId));
    expect(result.fits.length).toBeGreaterThan(0);
    for (const fit of result.fits) {
      expect(Date.parse(fit.arrive_at)).toBeGreaterThanOrEqual(brisbaneAt(DAY, '06:00').getTime());
      expect(Date.parse(fit.leave_at) - Date.parse(fit.arrive_at)).toBe(result.duration_minutes * 60_000);
      expect(Date.parse(fit.leave_at)).toBeLessThanOrEqual(brisbaneAt(DAY, '20:00').getTime());
      expect(fit.added_travel_seconds).toBeGreaterThanOrEqual(0);
    }
    expect(await t.ctx.db.$count(appointments)).toBe(before);
  });

  it('today offers no start that has passed or is within the fixed-visit margin, and says when a window is too late', async () => {
    const clientId = (await freeClients(world, DAY))[2];
    const typeId = await typeOf(world, world.staff[0]);
    const now = Temporal.Now.zonedDateTimeISO('Australia/Brisbane');
    const today = now.toPlainDate().toString();
    const margin = 30 * 60_000; // the default fixed_before_minutes
    const whole = await bestFit({ client_id: clientId, appointment_type_id: typeId, date: today, limit: 20 });
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    for (const fit of whole.body.fits) expect(Date.parse(fit.arrive_at)).toBeGreaterThan(Date.now() + margin - 60_000);
    // A window that ended an hour ago (from 02:00 on, so that it is today's).
    if (now.hour >= 2) {
      const clock = (time: Temporal.ZonedDateTime) => time.toPlainTime().toString({ smallestUnit: 'minute' });
      const passed = await bestFit({
        client_id: clientId, appointment_type_id: typeId, date: today, window_start: clock(now.subtract({ hours: 2 })), window_end: clock(now.subtract({ hours: 1 })), duration_minutes: 15,
      });
      expect(passed.body.fits).toEqual([]);
      expect(passed.body.message).toMatch(/^It is too late today for a visit between \d\d:\d\d and \d\d:\d\d: a visit can start from \d\d:\d\d\.$/);
    }
  });

  it('keeps to the window asked for (in the business\'s time zone), and says when there is none', async () => {
    const clientId = (await freeClients(world, DAY))[1];
    const typeId = await typeOf(world, world.staff[0]);
    const response = await bestFit({ client_id: clientId, appointment_type_id: typeId, date: DAY, window_start: '18:00', window_end: '19:45', duration_minutes: 30 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.fits.length).toBeGreaterThan(0);
    for (const fit of response.body.fits) {
      expect(Date.parse(fit.arrive_at)).toBeGreaterThanOrEqual(brisbaneAt(DAY, '18:00').getTime());
      expect(Date.parse(fit.leave_at)).toBeLessThanOrEqual(brisbaneAt(DAY, '19:45').getTime());
    }
    // Before anyone starts work: no room for anyone, each said why.
    const early = await bestFit({ client_id: clientId, appointment_type_id: typeId, date: DAY, window_start: '04:00', window_end: '05:30', duration_minutes: 30 });
    expect(early.body.fits).toEqual([]);
    expect(early.body.message).toMatch(/^No qualified practitioner has room for this visit on .* between 04:00 and 05:30\.$/);
    const reasons = new Set(early.body.others.map((other: { reason: string }) => other.reason));
    expect(reasons).toContain('No room between 04:00 and 05:30');
    // The sandbox gives the second practitioner that Friday off.
    expect([...reasons].filter((reason) => reason !== 'No room between 04:00 and 05:30')).toEqual(['On leave (Annual leave)']);
  });

  it('flags continuity (visited the client in the last 8 weeks) and preference; never names an excluded practitioner; says who is on leave', async () => {
    // A client with a visit earlier in the week, of a type the practitioner delivers.
    const [earlier] = await t.ctx.db.select().from(appointments).where(and(
      eq(appointments.business_account_id, world.acme.businessAccountId), isNull(appointments.cancelled_at),
      gte(appointments.starts_at, brisbaneAt('2029-11-19', '00:00')), lt(appointments.starts_at, brisbaneAt('2029-11-20', '00:00')),
    )).orderBy(appointments.id).limit(1);
    const typeId = earlier.appointment_type_id!;
    const familiar = earlier.practitioner_id;
    const others = (await qualified(typeId)).filter((id) => id !== familiar);
    const [preferredOne, excludedOne] = others;
    expect(excludedOne).toBeDefined();
    const business = world.acme.businessAccountId;
    await t.ctx.db.insert(clientPractitionerPreferences).values([
      { business_account_id: business, client_id: earlier.client_id!, practitioner_id: preferredOne, kind: 'preferred' },
      { business_account_id: business, client_id: earlier.client_id!, practitioner_id: excludedOne, kind: 'excluded' },
    ]);
    const [leave] = await t.ctx.db.insert(practitionerLeave).values({
      business_account_id: business, practitioner_id: familiar, starts_at: brisbaneAt(SATURDAY, '00:00'), ends_at: brisbaneAt('2029-11-25', '00:00'), reason: 'Annual leave', created_by_name: 'Ada',
    }).returning();
    try {
      const onLeave = await bestFit({ client_id: earlier.client_id, appointment_type_id: typeId, date: SATURDAY, limit: 20 });
      expect(onLeave.body.others).toContainEqual({ practitioner_id: familiar, name: expect.any(String), reason: 'On leave (Annual leave)' });
      const everyone = [...onLeave.body.fits, ...onLeave.body.others].map((entry: { practitioner_id: number }) => entry.practitioner_id);
      expect(everyone).not.toContain(excludedOne);
      expect(onLeave.body.fits.find((entry: { practitioner_id: number }) => entry.practitioner_id === preferredOne)).toMatchObject({ preferred: true, continuity: false });
      await t.ctx.db.delete(practitionerLeave).where(eq(practitionerLeave.id, leave.id));
      const back = await bestFit({ client_id: earlier.client_id, appointment_type_id: typeId, date: SATURDAY, limit: 20 });
      const familiarFit = back.body.fits.find((entry: { practitioner_id: number }) => entry.practitioner_id === familiar);
      expect(familiarFit, JSON.stringify(back.body)).toMatchObject({ continuity: true });
    } finally {
      await t.ctx.db.delete(practitionerLeave).where(eq(practitionerLeave.id, leave.id));
      await t.ctx.db.delete(clientPractitionerPreferences).where(eq(clientPractitionerPreferences.client_id, earlier.client_id!));
    }
  });

  it('leaves a visit being rescheduled out of its own practitioner\'s day', async () => {
    const [visit] = await t.ctx.db.select().from(appointments).where(and(
      eq(appointments.business_account_id, world.acme.businessAccountId), eq(appointments.practitioner_id, world.staff[0]), isNull(appointments.cancelled_at),
      gte(appointments.starts_at, brisbaneAt(DAY, '00:00')), lt(appointments.starts_at, brisbaneAt('2029-11-24', '00:00')),
    )).orderBy(appointments.starts_at).limit(1);
    const body = { client_id: visit.client_id, appointment_type_id: visit.appointment_type_id, date: DAY, practitioner_ids: [world.staff[0]] };
    const plain = await bestFit(body);
    const rescheduling = await bestFit({ ...body, appointment_id: visit.id });
    expect(rescheduling.status, JSON.stringify(rescheduling.body)).toBe(200);
    const [withIt] = plain.body.fits;
    const [withoutIt] = rescheduling.body.fits;
    expect(withoutIt.visits).toBe((withIt?.visits ?? withoutIt.visits + 1) - 1);
  });

  it('answers 4xx in words: a window that is not start < end, a client without a map position; another business\'s client is 404; PRACTITIONER 403', async () => {
    const clientId = (await freeClients(world, DAY))[0];
    const typeId = await typeOf(world, world.staff[0]);
    const backwards = await bestFit({ client_id: clientId, appointment_type_id: typeId, date: DAY, window_start: '12:00', window_end: '09:00' });
    expect(backwards.status).toBe(422);
    expect(backwards.body.message).toBe('window_end must be after window_start (got 12:00–09:00).');
    const [unplaced] = await t.ctx.db.insert(clients).values({ business_account_id: world.acme.businessAccountId, first_name: 'Nell', last_name: 'Nowhere' }).returning();
    const noPlace = await bestFit({ client_id: unplaced.id, appointment_type_id: typeId, date: DAY });
    expect(noPlace.status).toBe(422);
    expect(noPlace.body.message).toMatch(/^client_id: Nell Nowhere has no map position/);
    expect((await bestFit({ client_id: world.other.clientIds[0], appointment_type_id: typeId, date: DAY })).status).toBe(404);
    expect((await bestFit({ client_id: clientId, appointment_type_id: typeId, date: DAY }, world.acme.tokens.practitioner)).status).toBe(403);
  });
});
