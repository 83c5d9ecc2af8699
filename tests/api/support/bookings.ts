// A business connected to the Cliniko sandbox and imported, for the booking tests (bookings, bookings-faults,
// best-fit): three practitioners working 06:00–20:00 every day from homes in Brisbane, the clients the sandbox placed.
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { appointments, clients, practitioners, resourceMaps } from '../../../server/src/db/schema';
import { pmsWrites } from '../../../server/src/db/schema-bookings';
import { startSandbox, type SandboxHandle } from '../../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './app';
import { createBusinessFixture, type BusinessFixture } from './fixtures';
import { drainJobs } from './jobs';
import { workingEveryDay } from './routing';

export const WEEK = { start_date: '2029-11-19', end_date: '2029-11-25' };
export const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 3_000, maxRateLimitWaitMs: 5_000 };

export interface BookingWorld {
  t: TestApp;
  sandbox: SandboxHandle;
  acme: BusinessFixture;
  other: BusinessFixture;
  /** The imported practitioners (local ids). */
  staff: number[];
}

type Kind = 'Practitioner' | 'AppointmentType' | 'Client' | 'BusinessLocation' | 'Appointment';

export async function startBookingWorld(options: { fixtureOnly?: boolean } = {}): Promise<BookingWorld> {
  const sandbox = await startSandbox({ seed: 11, startDate: WEEK.start_date, weeks: 1, patients: 40, practitioners: 3, inactivePractitioners: 0 });
  const t = await startTestApp({ clinikoBaseUrl: sandbox.url, optimizerMaxSearchMs: 200 });
  const acme = await createBusinessFixture(t, 'acme');
  const other = await createBusinessFixture(t, 'other');
  const world: BookingWorld = { t, sandbox, acme, other, staff: [] };
  if (options.fixtureOnly) return world;
  expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST });
  await runImport(world);
  world.staff = (await t.ctx.db.select({ id: resourceMaps.resource_id }).from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner')))
    .orderBy(resourceMaps.resource_id)).map((row) => row.id);
  for (const [index, id] of world.staff.entries()) {
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: `${index + 1} Home St`, home_lat: -27.47 + index * 0.01, home_lng: 153.02, working_hours: workingEveryDay('06:00', '20:00'),
    }).where(eq(practitioners.id, id));
  }
  return world;
}

export async function stopBookingWorld(world: BookingWorld | undefined) {
  await world?.t.close();
  await world?.sandbox.close();
}

export async function runImport({ t, acme }: BookingWorld, body: Record<string, unknown> = WEEK) {
  const created = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  const done = await t.request('GET', `/api/imports/${created.body.import.id}`, { token: acme.tokens.admin });
  expect(done.body.import.status, JSON.stringify(done.body.import)).toBe('COMPLETE');
  return done.body.import;
}

/** Runs the queued writes to the PMS (and anything else queued) until none is runnable. */
export const settle = ({ t }: BookingWorld, retryDelayMs = 0) => drainJobs(t.ctx, { tuning: FAST, retryDelayMs });

export async function externalIdOf({ t, acme }: BookingWorld, type: Kind, localId: number): Promise<string | undefined> {
  const [row] = await t.ctx.db.select({ id: resourceMaps.external_id }).from(resourceMaps).where(and(
    eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, type), eq(resourceMaps.resource_id, localId)));
  return row?.id;
}

/** Imported clients with a map position and no visit on `date` (Brisbane), by id. */
export async function freeClients({ t, acme }: BookingWorld, date: string): Promise<number[]> {
  const rows = await t.ctx.db.select({ id: clients.id }).from(clients)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Client'), eq(resourceMaps.resource_id, clients.id)))
    .where(and(eq(clients.business_account_id, acme.businessAccountId), isNotNull(clients.lat), sql`NOT EXISTS (
      SELECT 1 FROM appointments a WHERE a.client_id = ${clients.id} AND a.cancelled_at IS NULL
        AND (a.starts_at AT TIME ZONE 'Australia/Brisbane')::date = ${date}::date)`))
    .orderBy(asc(clients.id));
  return rows.map((row) => row.id);
}

/** A type the practitioner delivers (as imported), and the others given deliver too. */
export async function typeOf({ t }: BookingWorld, practitionerId: number, ...others: number[]): Promise<number> {
  const typesOf = async (id: number) => (await t.ctx.db.select({ types: practitioners.pms_appointment_type_ids }).from(practitioners).where(eq(practitioners.id, id)))[0].types ?? [];
  let types = await typesOf(practitionerId);
  for (const other of others) {
    const theirs = new Set(await typesOf(other));
    types = types.filter((type) => theirs.has(type));
  }
  expect(types.length).toBeGreaterThan(0);
  return types[0];
}

/** The sandbox's appointments carrying the booking reference of the visit's create. */
export async function sandboxCopiesOf(world: BookingWorld, appointmentId: number) {
  const [write] = await world.t.ctx.db.select().from(pmsWrites).where(and(eq(pmsWrites.appointment_id, appointmentId), eq(pmsWrites.kind, 'create')));
  return world.sandbox.dataset.appointments.filter((record) => record.notes?.includes(`(ref ${write.reference})`));
}

export const writesOf = (world: BookingWorld, appointmentId: number) =>
  world.t.ctx.db.select().from(pmsWrites).where(eq(pmsWrites.appointment_id, appointmentId)).orderBy(pmsWrites.id);

export const visitRow = async (world: BookingWorld, id: number) => (await world.t.ctx.db.select().from(appointments).where(eq(appointments.id, id)))[0];
