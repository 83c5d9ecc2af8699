// A booking's write to the PMS when the sandbox misbehaves: the create committed and then the answer was lost or late,
// 429, 500, a refusal, no answer at all, and an import running between the commit and the link. Each time exactly one
// appointment in the sandbox (or none, for a refusal), the visit's write state right, and nothing lost.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appointments, resourceMaps } from '../../server/src/db/schema';
import { jobs } from '../../server/src/db/schema-jobs';
import { drainJobs } from './support/jobs';
import {
  FAST, externalIdOf, freeClients, runImport, sandboxCopiesOf, settle, startBookingWorld, stopBookingWorld, typeOf, writesOf, type BookingWorld,
} from './support/bookings';

let world: BookingWorld;
let t: BookingWorld['t'];
const DAY = '2029-11-20'; // Tuesday
const SATURDAY = '2029-11-24';
let slot = 0;

beforeAll(async () => {
  world = await startBookingWorld();
  t = world.t;
}, 120_000);
afterEach(() => {
  world.sandbox.setFaults({ commitThenDropNext: 0, commitThenFailNext: 0, commitThenDelayMs: 0, errorNext: 0, rateLimitNext: 0, dropNext: 0 });
});
afterAll(() => stopBookingWorld(world));

/** Books a visit of a free client with the first practitioner, each at its own evening slot; answers its id. */
async function bookOne(): Promise<number> {
  const practitionerId = world.staff[slot % world.staff.length];
  const clientId = (await freeClients(world, DAY))[0];
  const startsAt = new Date(Date.parse(`${DAY}T17:30:00+10:00`) + Math.floor(slot / world.staff.length) * 60 * 60_000);
  slot += 1;
  const booked = await t.request('POST', '/api/visits', {
    token: world.acme.tokens.admin,
    body: { client_id: clientId, practitioner_id: practitionerId, appointment_type_id: await typeOf(world, practitionerId), starts_at: startsAt.toISOString() },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  return booked.body.appointment.id;
}

const latestWrite = async (id: number) => (await writesOf(world, id)).at(-1)!;

describe('a booking written through a faulty PMS', () => {
  it('the create committed and its answer dropped: looked up, not created again; saved', async () => {
    world.sandbox.setFaults({ commitThenDropNext: 1 });
    const id = await bookOne();
    await settle(world);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(1);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved', attempts: 2 });
    expect(await externalIdOf(world, 'Appointment', id)).toBe((await sandboxCopiesOf(world, id))[0].id);
  });

  it('the create committed and answered too late (a timeout): one appointment; saved', async () => {
    world.sandbox.setFaults({ commitThenDelayMs: 1_500 });
    const id = await bookOne();
    await drainJobs(t.ctx, { tuning: { ...FAST, requestTimeoutMs: 500 }, retryDelayMs: 0 });
    world.sandbox.setFaults({ commitThenDelayMs: 0 });
    await settle(world);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(1);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved' });
  });

  it('429 is waited out and sent again: one appointment, saved on the first try', async () => {
    world.sandbox.setFaults({ rateLimitNext: 1, rateLimitWindowMs: 500 });
    const id = await bookOne();
    await settle(world);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(1);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved', attempts: 1 });
  });

  it('500 before anything was committed: tried again, one appointment; saved', async () => {
    world.sandbox.setFaults({ errorNext: 1 });
    const id = await bookOne();
    await settle(world);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(1);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved', attempts: 2 });
  });

  it('no answer at all, time after time: failed in words with Try again; tried again later, saved once', async () => {
    world.sandbox.setFaults({ errorNext: 1_000 });
    const id = await bookOne();
    await settle(world);
    world.sandbox.setFaults({ errorNext: 0 });
    const failed = await latestWrite(id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 4, message: expect.stringMatching(/^Cliniko is not answering: .+ Try again\.$/) });
    expect(await sandboxCopiesOf(world, id)).toHaveLength(0);
    const list = await t.request('GET', '/api/pms_writes?state=failed', { token: world.acme.tokens.staff });
    expect(list.body.pms_writes.map((write: { id: number }) => write.id)).toContain(failed.id);
    const retried = await t.request('POST', `/api/pms_writes/${failed.id}/retry`, { token: world.acme.tokens.staff });
    expect(retried.status).toBe(200);
    await settle(world);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(1);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved', message: null });
  });

  it('a write whose worker stopped responding on every try is failed in words, not saving for ever; Try again saves it once', async () => {
    const id = await bookOne();
    const write = await latestWrite(id);
    // Each worker that claimed the write died (its lease ran out) and no try is left.
    await t.ctx.db.update(jobs).set({ status: 'INPROGRESS', attempts: 4, max_attempts: 4, locked_by: 'a dead worker', locked_until: new Date(Date.now() - 60_000) })
      .where(and(eq(jobs.kind, 'PMS_WRITE'), eq(jobs.status, 'PENDING')));
    await settle(world);
    const abandoned = await latestWrite(id);
    expect(abandoned).toMatchObject({ id: write.id, state: 'failed', message: 'Rounds stopped while writing it to Cliniko (4 tries), so it may or may not be there. Try again.' });
    expect((await t.request('POST', `/api/pms_writes/${write.id}/retry`, { token: world.acme.tokens.staff })).status).toBe(200);
    await settle(world);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(1);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved' });
  });

  it('a refusal (422: the client is archived in Cliniko) fails with its words; Discard removes the visit from Rounds', async () => {
    const id = await bookOne();
    const [visit] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, id));
    const patientId = await externalIdOf(world, 'Client', visit.client_id!);
    const record = world.sandbox.dataset.patients.find((candidate) => candidate.id === patientId)!;
    const archivedBefore = record.archived_at;
    record.archived_at = '2029-01-01T00:00:00Z';
    try {
      await settle(world);
    } finally {
      record.archived_at = archivedBefore;
    }
    const failed = await latestWrite(id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, message: expect.stringMatching(/^Cliniko refused it: patient/) });
    expect(await sandboxCopiesOf(world, id)).toHaveLength(0);
    const read = await t.request('GET', `/api/appointments/${id}`, { token: world.acme.tokens.admin });
    expect(read.body.appointment.pms_write).toMatchObject({ state: 'failed', message: failed.message });

    const discarded = await t.request('POST', `/api/pms_writes/${failed.id}/discard`, { token: world.acme.tokens.staff });
    expect(discarded.status, JSON.stringify(discarded.body)).toBe(200);
    expect(discarded.body).toMatchObject({ pms_write: { state: 'discarded', appointment_id: null }, appointment: null });
    expect((await t.request('GET', `/api/appointments/${id}`, { token: world.acme.tokens.admin })).status).toBe(404);
  });

  it('an import between the commit and the link links the booking: no second visit in Rounds', async () => {
    world.sandbox.setFaults({ commitThenDropNext: 1 });
    const id = await bookOne();
    // The first try commits and loses its answer; the next waits a minute.
    await settle(world, 60_000);
    expect(await latestWrite(id)).toMatchObject({ state: 'saving', attempts: 1, message: expect.stringMatching(/^Cliniko is not answering .*Rounds will keep trying\.$/) });
    const [copy] = await sandboxCopiesOf(world, id);
    expect(copy).toBeDefined();

    const imported = await runImport(world, { start_date: DAY, end_date: DAY });
    expect(imported.result.appointments_created).toBe(0);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved' });
    const maps = await t.ctx.db.select().from(resourceMaps).where(and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.external_id, copy.id)));
    expect(maps.map((map) => map.resource_id)).toEqual([id]);

    // The waiting try finds the write saved and writes nothing.
    await t.ctx.db.update(jobs).set({ run_after: new Date() }).where(eq(jobs.kind, 'PMS_WRITE'));
    await settle(world);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(1);
    expect(await latestWrite(id)).toMatchObject({ state: 'saved', attempts: 1 });
  });

  it('Discard of a booking that reached Cliniko after all (its answer lost, then no answer): linked and saved instead, one appointment', async () => {
    world.sandbox.setFaults({ commitThenDropNext: 1 });
    const id = await bookOne();
    await settle(world, 60_000);
    // Every later try gets no answer, until the write is failed.
    world.sandbox.setFaults({ errorNext: 1_000 });
    await t.ctx.db.update(jobs).set({ run_after: new Date() }).where(eq(jobs.kind, 'PMS_WRITE'));
    await settle(world);
    world.sandbox.setFaults({ errorNext: 0 });
    const failed = await latestWrite(id);
    expect(failed.state).toBe('failed');
    const discarded = await t.request('POST', `/api/pms_writes/${failed.id}/discard`, { token: world.acme.tokens.admin });
    expect(discarded.status).toBe(409);
    expect(discarded.body).toMatchObject({ code: 'PMS_WRITE_SAVED', message: expect.stringMatching(/^Cliniko has this booking after all/) });
    expect(await latestWrite(id)).toMatchObject({ state: 'saved' });
    const copies = await sandboxCopiesOf(world, id);
    expect(copies).toHaveLength(1);
    expect(await externalIdOf(world, 'Appointment', id)).toBe(copies[0].id);
  });

  it('a booking rescheduled before its write linked it: the PMS copy found by its reference gets the new time; one appointment', async () => {
    world.sandbox.setFaults({ commitThenDropNext: 1 });
    const id = await bookOne();
    await settle(world, 60_000);
    const [copy] = await sandboxCopiesOf(world, id);
    const booked = Date.parse(copy.starts_at);
    const later = new Date(booked + 30 * 60_000).toISOString();
    const moved = await t.request('PATCH', `/api/visits/${id}/reschedule`, { token: world.acme.tokens.admin, body: { starts_at: later } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // No separate write: the booking's own writes the visit as it is now.
    expect((await writesOf(world, id)).map((write) => write.kind)).toEqual(['create']);
    await t.ctx.db.update(jobs).set({ run_after: new Date() }).where(eq(jobs.kind, 'PMS_WRITE'));
    await settle(world);
    const copies = await sandboxCopiesOf(world, id);
    expect(copies).toHaveLength(1);
    expect(Date.parse(copies[0].starts_at)).toBe(Date.parse(later));
    expect(await latestWrite(id)).toMatchObject({ state: 'saved' });
  });

  it('cancelling a booking that never reached Cliniko cancels it in Rounds and gives its write up; nothing is sent', async () => {
    world.sandbox.setFaults({ errorNext: 1_000 });
    const id = await bookOne();
    await settle(world);
    world.sandbox.setFaults({ errorNext: 0 });
    expect(await latestWrite(id)).toMatchObject({ state: 'failed' });
    const cancelled = await t.request('POST', `/api/visits/${id}/cancel`, { token: world.acme.tokens.admin, body: { reason: 50 } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.appointment.status).toBe('CANCELLED');
    await settle(world);
    expect((await writesOf(world, id)).map((write) => [write.kind, write.state])).toEqual([['create', 'discarded']]);
    expect(await sandboxCopiesOf(world, id)).toHaveLength(0);
  });

  it('a visit Rounds never linked to Cliniko is rescheduled in Rounds; its write fails saying so', async () => {
    const practitionerId = world.staff[0];
    const [visit] = await t.ctx.db.insert(appointments).values({
      business_account_id: world.acme.businessAccountId, client_id: (await freeClients(world, SATURDAY))[0], practitioner_id: practitionerId,
      appointment_type_id: await typeOf(world, practitionerId), starts_at: new Date(`${SATURDAY}T10:00:00+10:00`), ends_at: new Date(`${SATURDAY}T10:30:00+10:00`),
      arrive_at: new Date(`${SATURDAY}T10:00:00+10:00`), lat: -27.47, lng: 153.03,
    }).returning();
    const moved = await t.request('PATCH', `/api/visits/${visit.id}/reschedule`, { token: world.acme.tokens.admin, body: { starts_at: `${SATURDAY}T10:30:00+10:00` } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await settle(world);
    expect(await latestWrite(visit.id)).toMatchObject({
      kind: 'update', state: 'failed', message: 'This visit is not in Cliniko (it was never imported from it or booked in it), so its new time cannot be written there.',
    });
  });
});
