// Open visits and care plans written through to the Cliniko sandbox over real HTTP (issue 36): an allocation of a plan
// of 3 visits a week for 4 weeks, applied → 12 appointments in the sandbox with at most two carers; changing the plan
// cancels the booked visits that no longer fit (future only), an absence pauses it (Sick for hospital), ending it
// cancels what comes after; an open visit filled by hand leaves the list in the same transaction; a booked visit its
// practitioner cannot do becomes an open visit (cancelled in the sandbox as Other) and is filled again; roles and tenancy.
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointmentTypes, appointments, clients, practitioners, resourceMaps, versions } from '../../server/src/db/schema';
import { openVisits } from '../../server/src/db/schema-care';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { brisbaneAt, brisbaneClock, workingEveryDay } from './support/routing';

const WEEK = { start_date: '2029-11-19', end_date: '2029-11-25' };
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 3_000, maxRateLimitWaitMs: 5_000 };
/** Four weeks from Monday 3 December 2029 (nothing booked in the sandbox then). */
const FROM = '2029-12-03';
const TO = '2029-12-30';

let sandbox: SandboxHandle;
let t: TestApp;
let acme: BusinessFixture;
let zenith: BusinessFixture;
let staff: number[];
let client: number;
let other: number;
let type: number;

const settle = () => drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
const externalId = async (kind: string, id: number) => (await t.ctx.db.select({ id: resourceMaps.external_id }).from(resourceMaps)
  .where(and(eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, kind), eq(resourceMaps.resource_id, id))))[0]?.id;
/** The sandbox's appointments of a client in December 2029. */
const sandboxVisitsOf = async (clientId: number) => {
  const patient = await externalId('Client', clientId);
  return sandbox.dataset.appointments.filter((record) => record.patient_id === patient && record.starts_at >= '2029-12-01' && !record.deleted_at);
};

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, startDate: WEEK.start_date, weeks: 1, patients: 40, practitioners: 3, inactivePractitioners: 0 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url, optimizerMaxSearchMs: 200 });
  acme = await createBusinessFixture(t, 'acme');
  zenith = await createBusinessFixture(t, 'zenith');
  expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await settle();
  const imported = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: WEEK });
  expect(imported.status).toBe(201);
  await settle();
  staff = (await t.ctx.db.select({ id: resourceMaps.resource_id }).from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner')))
    .orderBy(resourceMaps.resource_id)).map((row) => row.id);
  for (const [index, id] of staff.entries()) {
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: `${index + 1} Home St`, home_lat: -27.47 + index * 0.01, home_lng: 153.02, working_hours: workingEveryDay('06:00', '20:00'),
    }).where(eq(practitioners.id, id));
  }
  // The type most imported practitioners deliver, and two imported clients with a map position and no custom availability.
  const skills = await t.ctx.db.select({ types: practitioners.pms_appointment_type_ids }).from(practitioners).where(sql`${practitioners.id} IN ${staff}`);
  const delivered = skills.flatMap((row) => row.types ?? []);
  type = [...new Set(delivered)].sort((a, b) => delivered.filter((id) => id === b).length - delivered.filter((id) => id === a).length || a - b)[0];
  const imported_clients = await t.ctx.db.select({ id: clients.id }).from(clients)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Client'), eq(resourceMaps.resource_id, clients.id)))
    .where(and(eq(clients.business_account_id, acme.businessAccountId), isNotNull(clients.lat))).orderBy(asc(clients.id));
  [client, other] = imported_clients.map((row) => row.id);
  await t.ctx.db.update(clients).set({ availability: [] }).where(sql`${clients.id} IN ${[client, other]}`);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('a care plan allocated, applied, changed, paused and ended', () => {
  let planId: number;

  it('books 3 visits a week for 4 weeks in the sandbox with at most two carers, and the open visits leave the list', async () => {
    const created = await t.request('POST', `/api/clients/${client}/care_plans`, {
      token: acme.tokens.staff, body: { appointment_type_id: type, weekdays: [1, 3, 5], window_start: '07:30', window_end: '09:00', duration_minutes: 45, starts_on: FROM },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    planId = created.body.care_plan.id;
    const started = await t.request('POST', '/api/care_plan_allocations', { token: acme.tokens.staff, body: { start_date: FROM, weeks: 4 } });
    expect(started.status).toBe(202);
    expect(started.body.allocation).toMatchObject({ status: 'RUNNING', start_date: FROM, end_date: TO, generated: 12 });
    await settle();
    const done = (await t.request('GET', `/api/care_plan_allocations/${started.body.allocation.id}`, { token: acme.tokens.staff })).body.allocation;
    expect(done.status, done.message).toBe('DONE');
    expect(done.figures).toMatchObject({ visits: 12, placed: 12, unplaced: 0, hard_breaks: 0 });

    const applied = await t.request('POST', `/api/care_plan_allocations/${done.id}/apply`, { token: acme.tokens.staff });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.allocation).toMatchObject({ status: 'APPLIED', message: 'Booked 12 of 12 visits.' });
    expect((await t.request('POST', `/api/care_plan_allocations/${done.id}/apply`, { token: acme.tokens.staff })).status).toBe(409);
    await settle();

    const inSandbox = await sandboxVisitsOf(client);
    expect(inSandbox).toHaveLength(12);
    expect(new Set(inSandbox.map((record) => record.practitioner_id)).size).toBeLessThanOrEqual(2);
    for (const record of inSandbox) {
      expect(brisbaneClock(record.starts_at) >= '07:30' && brisbaneClock(record.starts_at) <= '08:15', record.starts_at).toBe(true);
      expect(record.appointment_type_id).toBe(await externalId('AppointmentType', type));
    }
    const open = await t.request('GET', `/api/open_visits?start_date=${FROM}&end_date=${TO}`, { token: acme.tokens.staff });
    expect(open.body.open_visits.filter((visit: any) => visit.client.id === client)).toEqual([]);
    const plans = await t.request('GET', `/api/clients/${client}/care_plans`, { token: acme.tokens.staff });
    expect(plans.body.care_plans[0]).toMatchObject({ id: planId, upcoming_visits: 12, open_visits: 0 });
  });

  it('changing the plan cancels the future booked visits that no longer fit (Other) and leaves the past ones', async () => {
    // A visit of the plan yesterday (booked then): a change from today on never touches it.
    const yesterday = Temporal.Now.plainDateISO('Australia/Brisbane').subtract({ days: 1 }).toString();
    const [past] = await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: client, practitioner_id: staff[0], appointment_type_id: type,
      starts_at: brisbaneAt(yesterday, '08:00'), ends_at: brisbaneAt(yesterday, '08:45'), lat: -27.47, lng: 153.02,
    }).returning();
    await t.ctx.db.insert(openVisits).values({
      business_account_id: acme.businessAccountId, client_id: client, appointment_type_id: type, care_plan_id: planId, date: yesterday,
      window_start: 450, window_end: 540, duration_minutes: 45, reason: 'New', state: 'filled', appointment_id: past.id,
    });
    const changed = await t.request('PATCH', `/api/care_plans/${planId}`, {
      token: acme.tokens.staff, body: { appointment_type_id: type, weekdays: [1, 3], window_start: '07:30', window_end: '09:00', duration_minutes: 45, starts_on: FROM },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.care_plan).toMatchObject({ weekdays: [1, 3], upcoming_visits: 8, open_visits: 0 });
    await settle();
    const inSandbox = await sandboxVisitsOf(client);
    const cancelled = inSandbox.filter((record) => record.cancelled_at);
    expect(cancelled).toHaveLength(4);
    expect(cancelled.every((record) => record.cancellation_reason === 50 && Temporal.PlainDate.from(brisbaneDay(record.starts_at)).dayOfWeek === 5)).toBe(true);
    const [pastAfter] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, past.id));
    expect(pastAfter.cancelled_at).toBeNull();
  });

  it('an absence in hospital pauses the plan: its booked visits in the range are cancelled as Sick, and come back as open visits after it is removed', async () => {
    const absence = await t.request('POST', `/api/clients/${client}/absences`, {
      token: acme.tokens.staff, body: { starts_on: '2029-12-10', ends_on: '2029-12-12', reason: 'hospital', note: 'Hip' },
    });
    expect(absence.status, JSON.stringify(absence.body)).toBe(201);
    expect(absence.body).toMatchObject({ cancelled_visits: 2, removed_open_visits: 0, absence: { reason: 'hospital', note: 'Hip' } });
    await settle();
    const sick = (await sandboxVisitsOf(client)).filter((record) => record.cancellation_reason === 30);
    expect(sick.map((record) => brisbaneDay(record.starts_at)).sort()).toEqual(['2029-12-10', '2029-12-12']);
    const list = await t.request('GET', `/api/clients/${client}/absences`, { token: acme.tokens.staff });
    expect(list.body.absences).toHaveLength(1);
    expect((await t.request('DELETE', `/api/client_absences/${absence.body.absence.id}`, { token: zenith.tokens.staff })).status).toBe(404);
    expect((await t.request('DELETE', `/api/client_absences/${absence.body.absence.id}`, { token: acme.tokens.staff })).status).toBe(204);
    const again = await t.request('POST', '/api/care_plan_allocations', { token: acme.tokens.staff, body: { start_date: FROM, weeks: 4 } });
    expect(again.body.allocation.generated).toBe(2);
    await settle();
  });

  it('ending the plan cancels its booked visits after the last day and removes its open visits after it', async () => {
    const ended = await t.request('POST', `/api/care_plans/${planId}/end`, { token: acme.tokens.staff, body: { ends_on: '2029-12-19' } });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    // Booked after the 19th: Monday 24 and Wednesday 26 December.
    expect(ended.body).toMatchObject({ cancelled_visits: 2, care_plan: { ends_on: '2029-12-19' } });
    await settle();
    const live = (await sandboxVisitsOf(client)).filter((record) => !record.cancelled_at).map((record) => brisbaneDay(record.starts_at)).sort();
    expect(live).toEqual(['2029-12-03', '2029-12-05', '2029-12-17', '2029-12-19']);
    expect((await t.request('POST', `/api/care_plans/${planId}/end`, { token: acme.tokens.staff, body: { ends_on: '2020-01-01' } })).status).toBe(422);
  });
});

describe('an open visit', () => {
  it('is filled by booking it with a practitioner inside its window, leaves the list, and cannot be filled twice', async () => {
    const created = await t.request('POST', '/api/open_visits', {
      token: acme.tokens.staff, body: { client_id: other, appointment_type_id: type, date: '2029-12-04', window_start: '10:00', window_end: '12:00', notes: 'Dressing' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const visit = created.body.open_visit;
    expect(visit).toMatchObject({ care_plan_id: null, reason: 'Added by Sid', window_start: '10:00', window_end: '12:00', notes: 'Dressing' });
    const outside = await t.request('POST', `/api/open_visits/${visit.id}/fill`, { token: acme.tokens.staff, body: { practitioner_id: staff[1], starts_at: '2029-12-04T09:00:00+10:00' } });
    expect(outside.status).toBe(422);
    expect((await t.request('POST', `/api/open_visits/${visit.id}/fill`, { token: acme.tokens.practitioner, body: { practitioner_id: staff[1], starts_at: '2029-12-04T10:30:00+10:00' } })).status).toBe(403);
    expect((await t.request('POST', `/api/open_visits/${visit.id}/fill`, { token: zenith.tokens.staff, body: { practitioner_id: staff[1], starts_at: '2029-12-04T10:30:00+10:00' } })).status).toBe(404);

    const filled = await t.request('POST', `/api/open_visits/${visit.id}/fill`, { token: acme.tokens.staff, body: { practitioner_id: staff[1], starts_at: '2029-12-04T10:30:00+10:00' } });
    expect(filled.status, JSON.stringify(filled.body)).toBe(201);
    expect(filled.body.appointment).toMatchObject({ practitioner: { id: staff[1] }, client: { id: other } });
    const open = await t.request('GET', '/api/open_visits?start_date=2029-12-04&end_date=2029-12-04', { token: acme.tokens.staff });
    expect(open.body.open_visits.map((row: any) => row.id)).not.toContain(visit.id);
    const twice = await t.request('POST', `/api/open_visits/${visit.id}/fill`, { token: acme.tokens.staff, body: { practitioner_id: staff[1], starts_at: '2029-12-04T10:30:00+10:00' } });
    expect(twice.status).toBe(409);
    expect((await t.request('DELETE', `/api/open_visits/${visit.id}`, { token: acme.tokens.staff })).status).toBe(409);
    await settle();
    const inSandbox = await sandboxVisitsOf(other);
    expect(inSandbox).toHaveLength(1);
    expect(Date.parse(inSandbox[0].starts_at)).toBe(brisbaneAt('2029-12-04', '10:30').getTime());
  });

  it('booked through POST /visits with open_visit_id, it leaves the list in the same transaction (another client\'s is refused)', async () => {
    const created = await t.request('POST', '/api/open_visits', {
      token: acme.tokens.staff, body: { client_id: other, appointment_type_id: type, date: '2029-12-06', window_start: '13:00', window_end: '15:00' },
    });
    const id = created.body.open_visit.id;
    const body = { client_id: other, appointment_type_id: type, practitioner_id: staff[0], starts_at: '2029-12-06T13:30:00+10:00', open_visit_id: id };
    const wrongClient = await t.request('POST', '/api/visits', { token: acme.tokens.staff, body: { ...body, client_id: client } });
    expect(wrongClient.status).toBe(422);
    const booked = await t.request('POST', '/api/visits', { token: acme.tokens.staff, body });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const [row] = await t.ctx.db.select().from(openVisits).where(eq(openVisits.id, id));
    expect(row).toMatchObject({ state: 'filled', appointment_id: booked.body.appointment.id });
    expect((await t.request('POST', '/api/visits', { token: acme.tokens.staff, body })).status).toBe(409);
  });

  it('filled, then its booking refused by Cliniko and discarded: open again, saying why', async () => {
    const created = await t.request('POST', '/api/open_visits', {
      token: acme.tokens.staff, body: { client_id: client, appointment_type_id: type, date: '2029-12-07', window_start: '13:00', window_end: '16:00' },
    });
    const id = created.body.open_visit.id;
    const filled = await t.request('POST', `/api/open_visits/${id}/fill`, { token: acme.tokens.staff, body: { practitioner_id: staff[1], starts_at: '2029-12-07T14:00:00+10:00' } });
    expect(filled.status, JSON.stringify(filled.body)).toBe(201);
    // Cliniko refuses the create (the client archived there meanwhile): the write fails, and Discard gives it up.
    const patientId = await externalId('Client', client);
    const archived = sandbox.dataset.patients.find((candidate) => candidate.id === patientId)!;
    const before = archived.archived_at;
    archived.archived_at = '2029-01-01T00:00:00Z';
    try {
      await settle();
    } finally {
      archived.archived_at = before;
    }
    const read = await t.request('GET', `/api/appointments/${filled.body.appointment.id}`, { token: acme.tokens.staff });
    expect(read.body.appointment.pms_write).toMatchObject({ state: 'failed' });
    const discarded = await t.request('POST', `/api/pms_writes/${read.body.appointment.pms_write.id}/discard`, { token: acme.tokens.staff });
    expect(discarded.status, JSON.stringify(discarded.body)).toBe(200);
    const open = await t.request('GET', '/api/open_visits?start_date=2029-12-07&end_date=2029-12-07', { token: acme.tokens.staff });
    expect(open.body.open_visits).toEqual([expect.objectContaining({ id, reason: 'Its booking was discarded before Cliniko had it' })]);
  });

  it('a booking the rules refuse leaves it open', async () => {
    const created = await t.request('POST', '/api/open_visits', {
      token: acme.tokens.staff, body: { client_id: other, appointment_type_id: type, date: '2029-12-04', window_start: '10:00', window_end: '12:00' },
    });
    // The same practitioner and time as the visit just booked for this client: a hard break.
    const refused = await t.request('POST', `/api/open_visits/${created.body.open_visit.id}/fill`, { token: acme.tokens.staff, body: { practitioner_id: staff[1], starts_at: '2029-12-04T10:30:00+10:00' } });
    expect(refused.status).toBe(409);
    const open = await t.request('GET', '/api/open_visits?start_date=2029-12-04&end_date=2029-12-04', { token: acme.tokens.staff });
    expect(open.body.open_visits.map((row: any) => row.id)).toContain(created.body.open_visit.id);
  });
});

describe('a booked visit its practitioner cannot do ("Needs another practitioner")', () => {
  it('is cancelled in the sandbox (Other, with why) and waits as an open visit around its agreed start; Fill books it with another practitioner', async () => {
    const booked = await t.request('POST', '/api/visits', {
      token: acme.tokens.staff,
      body: { client_id: other, appointment_type_id: type, practitioner_id: staff[0], starts_at: '2029-12-13T11:00:00+10:00', duration_minutes: 45, notes: 'Key in the lockbox' },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const visit = booked.body.appointment;
    expect(visit.tolerance_minutes).toBe(30);
    await settle();
    const path = `/api/visits/${visit.id}/open`;
    expect((await t.request('POST', path, { token: acme.tokens.practitioner, body: { reason: 'off sick' } })).status).toBe(403);
    expect((await t.request('POST', path, { token: zenith.tokens.staff, body: { reason: 'off sick' } })).status).toBe(404);
    expect((await t.request('POST', path, { token: acme.tokens.staff, body: { reason: 'x'.repeat(501) } })).status).toBe(422);

    const opened = await t.request('POST', path, { token: acme.tokens.staff, body: { reason: ' off sick ' } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const why = `${visit.practitioner.full_name} cannot do it: off sick`;
    expect(opened.body.appointment).toMatchObject({ id: visit.id, status: 'CANCELLED', route_id: null });
    // Agreed at 11:00 with 30 minutes either side: it may start 10:30 to 11:30, and lasts 45 minutes.
    expect(opened.body.open_visit).toMatchObject({
      client: { id: other }, appointment_type: { id: type }, date: '2029-12-13', window_start: '10:30', window_end: '12:15', duration_minutes: 45,
      reason: why, care_plan_id: null, notes: 'Key in the lockbox',
    });
    expect((await t.request('POST', path, { token: acme.tokens.staff, body: {} })).status).toBe(409);
    const [logged] = await t.ctx.db.select().from(versions)
      .where(and(eq(versions.item_type, 'Appointment'), eq(versions.item_id, visit.id), eq(versions.event, 'update'), eq(versions.whodunnit, 'Sid')));
    expect(logged.reason).toBe('Cancelled by Sid: Other: Needs another practitioner: off sick');

    await settle();
    const cancelled = (await sandboxVisitsOf(other)).find((record) => Date.parse(record.starts_at) === brisbaneAt('2029-12-13', '11:00').getTime())!;
    expect(cancelled).toMatchObject({ cancellation_reason: 50, cancellation_note: 'Needs another practitioner: off sick', practitioner_id: await externalId('Practitioner', staff[0]) });
    expect(cancelled.cancelled_at).toBeTruthy();
    const listed = await t.request('GET', '/api/open_visits?start_date=2029-12-13&end_date=2029-12-13', { token: acme.tokens.staff });
    expect(listed.body.open_visits).toEqual([expect.objectContaining({ id: opened.body.open_visit.id, window_start: '10:30', window_end: '12:15', reason: why })]);

    const filled = await t.request('POST', `/api/open_visits/${opened.body.open_visit.id}/fill`, {
      token: acme.tokens.staff, body: { practitioner_id: staff[1], starts_at: '2029-12-13T11:15:00+10:00' },
    });
    expect(filled.status, JSON.stringify(filled.body)).toBe(201);
    await settle();
    const live = (await sandboxVisitsOf(other)).filter((record) => !record.cancelled_at && record.starts_at.startsWith('2029-12-13'));
    expect(live).toEqual([expect.objectContaining({ practitioner_id: await externalId('Practitioner', staff[1]) })]);
    expect(Date.parse(live[0].starts_at)).toBe(brisbaneAt('2029-12-13', '11:15').getTime());

    // Its new practitioner cannot do it either: the same open visit is open again, around the start now agreed.
    const reopened = await t.request('POST', `/api/visits/${filled.body.appointment.id}/open`, { token: acme.tokens.staff, body: {} });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(201);
    expect(reopened.body.open_visit).toMatchObject({
      id: opened.body.open_visit.id, window_start: '10:45', window_end: '12:30', reason: `${filled.body.appointment.practitioner.full_name} cannot do it`, notes: 'Key in the lockbox',
    });
  });

  it('refuses a visit on a day that has passed, and leaves it booked', async () => {
    const yesterday = Temporal.Now.plainDateISO('Australia/Brisbane').subtract({ days: 1 }).toString();
    const [past] = await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: other, practitioner_id: staff[0], appointment_type_id: type,
      starts_at: brisbaneAt(yesterday, '15:00'), ends_at: brisbaneAt(yesterday, '15:45'), lat: -27.47, lng: 153.02,
    }).returning();
    const refused = await t.request('POST', `/api/visits/${past.id}/open`, { token: acme.tokens.staff, body: { reason: 'off sick' } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/which has passed/);
    const [after] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, past.id));
    expect(after.cancelled_at).toBeNull();
  });

  it("keeps the care plan of the plan's visit it was, which counts as open again", async () => {
    const [plan] = (await t.request('GET', `/api/clients/${client}/care_plans`, { token: acme.tokens.staff })).body.care_plans;
    const [booking] = await t.ctx.db.select({ id: appointments.id, openVisitId: openVisits.id }).from(openVisits)
      .innerJoin(appointments, eq(appointments.id, openVisits.appointment_id))
      .where(and(eq(openVisits.care_plan_id, plan.id), eq(openVisits.date, '2029-12-17'), eq(openVisits.state, 'filled'), sql`${appointments.cancelled_at} IS NULL`));
    const opened = await t.request('POST', `/api/visits/${booking.id}/open`, { token: acme.tokens.staff, body: {} });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.open_visit).toMatchObject({ care_plan_id: plan.id, date: '2029-12-17', duration_minutes: 45, reason: expect.stringMatching(/ cannot do it$/) });
    const after = (await t.request('GET', `/api/clients/${client}/care_plans`, { token: acme.tokens.staff })).body.care_plans[0];
    expect(after.open_visits).toBe(plan.open_visits + 1);
    expect(after.upcoming_visits).toBe(plan.upcoming_visits - 1);
    // Generating the plan again never doubles the occurrence.
    const again = await t.request('POST', '/api/care_plan_allocations', { token: acme.tokens.staff, body: { start_date: FROM, weeks: 4 } });
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body.allocation.generated).toBe(0);
    await settle();
    const open = await t.request('GET', '/api/open_visits?start_date=2029-12-17&end_date=2029-12-17', { token: acme.tokens.staff });
    expect(open.body.open_visits.filter((row: any) => row.client.id === client)).toHaveLength(1);
  });
});

function brisbaneDay(iso: string) {
  return new Date(Date.parse(iso) + 10 * 3600_000).toISOString().slice(0, 10);
}

describe('a two-carer care plan of a type that needs two practitioners', () => {
  it('books both carers of each occurrence together in the sandbox, at the same start', async () => {
    await t.ctx.db.update(appointmentTypes).set({ needs_two_practitioners: true }).where(eq(appointmentTypes.id, type));
    try {
      const created = await t.request('POST', `/api/clients/${other}/care_plans`, {
        token: acme.tokens.staff,
        body: { appointment_type_id: type, weekdays: [6], window_start: '09:00', window_end: '11:00', duration_minutes: 30, carers: 2, starts_on: FROM, ends_on: '2029-12-08' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const started = await t.request('POST', '/api/care_plan_allocations', { token: acme.tokens.staff, body: { start_date: FROM, weeks: 1 } });
      await settle();
      const done = (await t.request('GET', `/api/care_plan_allocations/${started.body.allocation.id}`, { token: acme.tokens.staff })).body.allocation;
      const pair = done.visits.filter((visit: any) => visit.care_plan_id === created.body.care_plan.id);
      expect(pair.map((visit: any) => visit.practitioner !== null), JSON.stringify(done.visits)).toEqual([true, true]);

      const applied = await t.request('POST', `/api/care_plan_allocations/${done.id}/apply`, { token: acme.tokens.staff });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      const open = await t.request('GET', `/api/open_visits?start_date=${FROM}&end_date=2029-12-09`, { token: acme.tokens.staff });
      expect(open.body.open_visits.filter((visit: any) => visit.care_plan_id === created.body.care_plan.id), applied.body.allocation.message).toEqual([]);
      await settle();
      const booked = (await sandboxVisitsOf(other)).filter((record) => record.starts_at.startsWith('2029-12-07') || record.starts_at.startsWith('2029-12-08'))
        .filter((record) => brisbaneClock(record.starts_at) >= '09:00' && brisbaneClock(record.starts_at) < '11:00' && !record.cancelled_at);
      expect(booked).toHaveLength(2);
      expect(booked[0].starts_at).toBe(booked[1].starts_at);
      expect(booked[0].practitioner_id).not.toBe(booked[1].practitioner_id);
    } finally {
      await t.ctx.db.update(appointmentTypes).set({ needs_two_practitioners: false }).where(eq(appointmentTypes.id, type));
    }
  });
});
