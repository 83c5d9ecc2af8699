// Booking, rescheduling and cancelling visits in Rounds, written through to the Cliniko sandbox over real HTTP: the
// visit is in Rounds at once (on its route), in the sandbox after its write with the right practitioner, type, patient,
// business and times; the rules refuse a hard break in words; a repeated request books nothing new; a visit changed in
// the PMS meanwhile is a conflict with its differences (Overwrite / Discard); roles and tenancy.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, resourceMaps, versions } from '../../server/src/db/schema';
import { clientPractitionerPreferences } from '../../server/src/db/schema-clients';
import {
  externalIdOf, freeClients, sandboxCopiesOf, settle, startBookingWorld, stopBookingWorld, typeOf, visitRow, writesOf, type BookingWorld,
} from './support/bookings';
import { brisbaneAt, optimiseAndApply, routesOf } from './support/routing';

let world: BookingWorld;
let t: BookingWorld['t'];
const DAY = '2029-11-21'; // Wednesday
const NEXT_DAY = '2029-11-22';

beforeAll(async () => {
  world = await startBookingWorld();
  t = world.t;
}, 120_000);
afterAll(() => stopBookingWorld(world));

async function book(body: Record<string, unknown>, token = world.acme.tokens.admin) {
  return t.request('POST', '/api/visits', { token, body });
}

async function bookable(practitionerIndex = 0, clientIndex = 0) {
  const practitionerId = world.staff[practitionerIndex];
  return { client_id: (await freeClients(world, DAY))[clientIndex], appointment_type_id: await typeOf(world, practitionerId), practitioner_id: practitionerId };
}

describe('booking a visit', () => {
  it('is in Rounds at once on the practitioner\'s route, and in Cliniko after its write with the right practitioner, type, patient, business and times', async () => {
    await optimiseAndApply(t, world.acme, DAY, [world.staff[0]]);
    const [route] = await routesOf(t, world.acme, DAY);
    const body = { ...(await bookable()), starts_at: '2029-11-21T18:30:00+10:00', notes: 'Key under the mat' };
    const booked = await book(body, world.acme.tokens.staff);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const visit = booked.body.appointment;
    expect(visit).toMatchObject({
      practitioner: { id: body.practitioner_id }, client: { id: body.client_id }, appointment_type: { id: body.appointment_type_id },
      starts_at: brisbaneAt(DAY, '18:30').toISOString().replace('.000Z', '.000Z'), route_id: route.id, pms_write: { kind: 'create', state: 'saving', attempts: 0 },
    });
    expect(booked.body.warnings).toEqual(expect.any(Array));
    // Its stop is on the route, and the day list says it is being saved.
    const [routeAfter] = await routesOf(t, world.acme, DAY);
    expect(routeAfter.stops.map((stop: { appointment_id: number }) => stop.appointment_id)).toContain(visit.id);
    const list = await t.request('GET', `/api/appointments?start_date=${DAY}&end_date=${DAY}`, { token: world.acme.tokens.staff });
    expect(list.body.appointments.find((row: { id: number }) => row.id === visit.id).pms_write_state).toBe('saving');

    await settle(world);
    const copies = await sandboxCopiesOf(world, visit.id);
    expect(copies, JSON.stringify(await writesOf(world, visit.id))).toHaveLength(1);
    const [local] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, visit.id));
    const [client] = await t.ctx.db.select().from(clients).where(eq(clients.id, body.client_id));
    expect(copies[0]).toMatchObject({
      practitioner_id: await externalIdOf(world, 'Practitioner', body.practitioner_id),
      appointment_type_id: await externalIdOf(world, 'AppointmentType', body.appointment_type_id),
      patient_id: await externalIdOf(world, 'Client', body.client_id),
      business_id: await externalIdOf(world, 'BusinessLocation', local.business_location_id!),
    });
    expect(Date.parse(copies[0].starts_at)).toBe(brisbaneAt(DAY, '18:30').getTime());
    expect(Date.parse(copies[0].ends_at)).toBe(local.ends_at.getTime());
    expect(copies[0].notes).toMatch(/^Key under the mat\n\nBooked in Rounds \(ref R-/);
    expect(local).toMatchObject({ lat: client.lat, lng: client.lng, address_1: client.address_1, agreed_starts_at: brisbaneAt(DAY, '18:30') });
    // Linked to its PMS id, saved, and in the change log.
    expect(await externalIdOf(world, 'Appointment', visit.id)).toBe(copies[0].id);
    const read = await t.request('GET', `/api/appointments/${visit.id}`, { token: world.acme.tokens.admin });
    expect(read.body.appointment.pms_write).toMatchObject({ kind: 'create', state: 'saved', message: null, attempts: 1, created_by: 'Sid' });
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Appointment'), eq(versions.item_id, visit.id)));
    expect(log).toMatchObject([{ event: 'create', whodunnit: 'Sid', reason: 'Booked by Sid' }]);
    // An import afterwards finds it as it is: nothing new, nothing changed.
    const again = await t.request('POST', '/api/imports', { token: world.acme.tokens.admin, body: { start_date: DAY, end_date: DAY } });
    expect(again.status).toBe(201);
    await settle(world);
    const imported = await t.request('GET', `/api/imports/${again.body.import.id}`, { token: world.acme.tokens.admin });
    const importLog = await t.ctx.db.select().from(versions).where(eq(versions.whodunnit, `Import #${again.body.import.id} by Ada acme`));
    expect(imported.body.import.result, JSON.stringify(importLog)).toMatchObject({ appointments_created: 0, appointments_updated: 0 });
  });

  it('answers the same visit for the same request_id, booking nothing new', async () => {
    const body = { ...(await bookable(1)), starts_at: '2029-11-21T19:00:00+10:00', request_id: 'req-repeat-0001' };
    const first = await book(body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await book(body);
    expect(second.status).toBe(201);
    expect(second.body.appointment.id).toBe(first.body.appointment.id);
    await settle(world);
    expect(await sandboxCopiesOf(world, first.body.appointment.id)).toHaveLength(1);
    expect(await writesOf(world, first.body.appointment.id)).toHaveLength(1);
    const count = await t.ctx.db.$count(appointments, and(eq(appointments.client_id, body.client_id), eq(appointments.starts_at, brisbaneAt(DAY, '19:00'))));
    expect(count).toBe(1);
  });

  it('refuses a hard break of the rules in words (the practitioner is at another visit then), booking nothing', async () => {
    const practitionerId = world.staff[2];
    const [busy] = await t.ctx.db.select().from(appointments)
      .where(and(eq(appointments.practitioner_id, practitionerId))).orderBy(appointments.starts_at).limit(1);
    const before = await t.ctx.db.$count(appointments);
    const refused = await book({ ...(await bookable(2)), starts_at: busy.starts_at.toISOString() });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'RULES_BROKEN', message: expect.stringMatching(/^This change would break the rules of home care: .+/) });
    expect(await t.ctx.db.$count(appointments)).toBe(before);
  });

  it('refuses in words: a client without a map position, a start in the past, an inactive or excluded practitioner, a type they do not deliver', async () => {
    const base = { ...(await bookable()), starts_at: '2029-11-21T17:30:00+10:00' };
    const [unplaced] = await t.ctx.db.insert(clients).values({ business_account_id: world.acme.businessAccountId, first_name: 'Nora', last_name: 'Nowhere' }).returning();
    const noPlace = await book({ ...base, client_id: unplaced.id });
    expect(noPlace.status).toBe(422);
    expect(noPlace.body.message).toBe('client_id: Nora Nowhere has no map position (no address Rounds could place); add their address first.');
    const past = await book({ ...base, starts_at: '2020-01-06T09:00:00+10:00' });
    expect(past.status).toBe(422);
    expect(past.body.message).toMatch(/^starts_at: /);
    await t.ctx.db.insert(clientPractitionerPreferences).values({
      business_account_id: world.acme.businessAccountId, client_id: base.client_id, practitioner_id: base.practitioner_id, kind: 'excluded',
    });
    const excluded = await book(base);
    expect(excluded.status).toBe(409);
    expect(excluded.body).toMatchObject({ code: 'PRACTITIONER_EXCLUDED', message: expect.stringMatching(/has asked not to be visited by /) });
    await t.ctx.db.delete(clientPractitionerPreferences).where(eq(clientPractitionerPreferences.client_id, base.client_id));
    const notDelivered = await book({ ...base, practitioner_id: world.acme.practitionerIds[2] });
    expect(notDelivered.status).toBe(422);
    expect(notDelivered.body.message).toMatch(/^practitioner_id: Rory acme-Inactive is inactive/);
  });

  it('PRACTITIONER may not book, reschedule or cancel (403); another business\'s client, type or practitioner is 404', async () => {
    const base = { ...(await bookable()), starts_at: '2029-11-21T17:00:00+10:00' };
    expect((await book(base, world.acme.tokens.practitioner)).status).toBe(403);
    const visitId = world.acme.appointmentIds[0];
    expect((await t.request('PATCH', `/api/visits/${visitId}/reschedule`, { token: world.acme.tokens.practitioner, body: { starts_at: base.starts_at } })).status).toBe(403);
    expect((await t.request('POST', `/api/visits/${visitId}/cancel`, { token: world.acme.tokens.practitioner, body: { reason: 50 } })).status).toBe(403);
    for (const foreign of [{ client_id: world.other.clientIds[0] }, { appointment_type_id: world.other.appointmentTypeIds[0] }, { practitioner_id: world.other.practitionerIds[0] }]) {
      const response = await book({ ...base, ...foreign });
      expect(response.status, JSON.stringify(foreign)).toBe(404);
    }
    const theirs = await t.request('POST', `/api/visits/${world.other.appointmentIds[0]}/cancel`, { token: world.acme.tokens.admin, body: { reason: 50 } });
    expect(theirs.status).toBe(404);
  });

  it('answers 409 PMS_NOT_CONNECTED for a business without a PMS connection', async () => {
    const response = await t.request('POST', '/api/visits', {
      token: world.other.tokens.admin,
      body: { client_id: world.other.clientIds[0], appointment_type_id: world.other.appointmentTypeIds[0], practitioner_id: world.other.practitionerIds[0], starts_at: '2029-11-21T10:00:00+10:00' },
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('PMS_NOT_CONNECTED');
  });
});

describe('rescheduling and cancelling', () => {
  let visitId: number;
  let externalId: string;

  beforeAll(async () => {
    const body = { ...(await bookable(1, 2)), appointment_type_id: await typeOf(world, world.staff[1], world.staff[0]) };
    const booked = await book({ ...body, starts_at: '2029-11-21T07:00:00+10:00' });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    visitId = booked.body.appointment.id;
    await settle(world);
    externalId = (await externalIdOf(world, 'Appointment', visitId))!;
    expect(externalId).toBeTruthy();
  });
  const inSandbox = () => world.sandbox.dataset.appointments.find((record) => record.id === externalId)!;

  it('moves the visit to another day and practitioner, in Rounds and in Cliniko, with who and why in the change log', async () => {
    const to = world.staff[0];
    const moved = await t.request('PATCH', `/api/visits/${visitId}/reschedule`, {
      token: world.acme.tokens.staff, body: { starts_at: '2029-11-22T06:30:00+10:00', practitioner_id: to, reason: 'Client asked for Thursday' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.appointment).toMatchObject({ practitioner: { id: to }, pms_write: { kind: 'update', state: 'saving' } });
    await settle(world);
    expect(Date.parse(inSandbox().starts_at)).toBe(brisbaneAt(NEXT_DAY, '06:30').getTime());
    expect(inSandbox().practitioner_id).toBe(await externalIdOf(world, 'Practitioner', to));
    const row = await visitRow(world, visitId);
    expect(row.agreed_starts_at).toEqual(brisbaneAt(NEXT_DAY, '06:30'));
    const [logged] = await t.ctx.db.select().from(versions).where(and(eq(versions.item_id, visitId), eq(versions.item_type, 'Appointment'), eq(versions.event, 'update')));
    expect(logged.reason).toBe('Rescheduled by Sid: Client asked for Thursday');
    const read = await t.request('GET', `/api/appointments/${visitId}`, { token: world.acme.tokens.admin });
    expect(read.body.appointment.pms_write).toMatchObject({ kind: 'update', state: 'saved' });
  });

  it('does not overwrite a visit changed in Cliniko since: a conflict with the differences in words, then Overwrite', async () => {
    Object.assign(inSandbox(), { starts_at: '2029-11-21T23:00:00Z', ends_at: '2029-11-22T00:00:00Z', updated_at: new Date().toISOString() });
    const moved = await t.request('PATCH', `/api/visits/${visitId}/reschedule`, { token: world.acme.tokens.admin, body: { starts_at: '2029-11-22T07:00:00+10:00' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await settle(world);
    const [, , conflicted] = await writesOf(world, visitId);
    expect(conflicted).toMatchObject({ kind: 'update', state: 'conflict' });
    expect(conflicted.differences).toEqual(expect.arrayContaining([
      { field: 'starts_at', label: 'Start', rounds: expect.stringMatching(/7:00/), pms: expect.stringMatching(/9:00/) },
    ]));
    expect(inSandbox().starts_at).toBe('2029-11-21T23:00:00Z');
    const listed = await t.request('GET', '/api/pms_writes?state=conflict', { token: world.acme.tokens.staff });
    expect(listed.body.pms_writes).toMatchObject([{ id: conflicted.id, appointment_id: visitId, state: 'conflict', client_name: expect.any(String) }]);

    const retried = await t.request('POST', `/api/pms_writes/${conflicted.id}/retry`, { token: world.acme.tokens.staff, body: { overwrite: true } });
    expect(retried.status).toBe(200);
    expect(retried.body.pms_write).toMatchObject({ state: 'saving', differences: [] });
    await settle(world);
    expect(Date.parse(inSandbox().starts_at)).toBe(brisbaneAt(NEXT_DAY, '07:00').getTime());
    expect((await writesOf(world, visitId)).at(-1)).toMatchObject({ state: 'saved' });
  });

  it('a conflict discarded takes Cliniko\'s version back', async () => {
    Object.assign(inSandbox(), { starts_at: '2029-11-22T00:00:00Z', ends_at: '2029-11-22T01:00:00Z', updated_at: new Date().toISOString() });
    await t.request('PATCH', `/api/visits/${visitId}/reschedule`, { token: world.acme.tokens.admin, body: { starts_at: '2029-11-22T06:00:00+10:00' } });
    await settle(world);
    const conflicted = (await writesOf(world, visitId)).at(-1)!;
    expect(conflicted.state).toBe('conflict');
    const discarded = await t.request('POST', `/api/pms_writes/${conflicted.id}/discard`, { token: world.acme.tokens.admin });
    expect(discarded.status, JSON.stringify(discarded.body)).toBe(200);
    expect(discarded.body.pms_write.state).toBe('discarded');
    expect(discarded.body.appointment.starts_at).toBe('2029-11-22T00:00:00.000Z');
    expect((await visitRow(world, visitId)).starts_at).toEqual(new Date('2029-11-22T00:00:00Z'));
    const twice = await t.request('POST', `/api/pms_writes/${conflicted.id}/discard`, { token: world.acme.tokens.admin });
    expect(twice.status).toBe(409);
  });

  it('cancels with a reason: cancelled in Rounds at once and in Cliniko with that reason code; a second cancel is 409', async () => {
    const reasons = await t.request('GET', '/api/visits/cancellation_reasons', { token: world.acme.tokens.staff });
    expect(reasons.body.reasons).toContainEqual({ code: 30, label: 'Sick' });
    const cancelled = await t.request('POST', `/api/visits/${visitId}/cancel`, {
      token: world.acme.tokens.staff, body: { reason: 30, note: 'In hospital', tell_client: true },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.appointment).toMatchObject({ status: 'CANCELLED', pms_write: { kind: 'cancel', state: 'saving' } });
    expect(cancelled.body.told_client).toEqual(expect.any(Boolean));
    await settle(world);
    expect(inSandbox()).toMatchObject({ cancellation_reason: 30, cancelled_at: expect.any(String) });
    const [logged] = await t.ctx.db.select().from(versions)
      .where(and(eq(versions.item_id, visitId), eq(versions.item_type, 'Appointment'), eq(versions.reason, 'Cancelled by Sid: Sick: In hospital')));
    expect(logged).toBeDefined();
    const again = await t.request('POST', `/api/visits/${visitId}/cancel`, { token: world.acme.tokens.staff, body: { reason: 30 } });
    expect(again.status).toBe(409);
    const map = await t.ctx.db.select().from(resourceMaps).where(eq(resourceMaps.resource_id, visitId));
    expect(map).toHaveLength(1);
  });

  it('cancelling a visit on a route takes it off and offers to re-optimise that day', async () => {
    const [route] = await routesOf(t, world.acme, DAY);
    const onRoute = route.stops[0].appointment_id as number;
    const cancelled = await t.request('POST', `/api/visits/${onRoute}/cancel`, { token: world.acme.tokens.admin, body: { reason: 50 } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.reoptimise).toEqual({ date: DAY, practitioner_id: route.practitioner_id });
    const [after] = await routesOf(t, world.acme, DAY);
    expect(after.stops.map((stop: { appointment_id: number }) => stop.appointment_id)).not.toContain(onRoute);
    expect(after.stale).toBe(true);
  });
});
