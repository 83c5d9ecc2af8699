// Care plans (issue 36): generating a plan's visits for the weeks ahead as open visits (weekdays, windows, its last
// day, public holidays, the client's absences, visits already booked, never twice, two carers) and the allocation's
// proposal (every visit with a qualified practitioner the client did not exclude, the same few carers week after week,
// no hard break); plan changes and ends from today on; roles and tenancy.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, appointmentTypes, clients, practitioners } from '../../server/src/db/schema';
import { clientPractitionerPreferences } from '../../server/src/db/schema-clients';
import { openVisits } from '../../server/src/db/schema-care';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { brisbaneAt, brisbaneClock, workingEveryDay } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let zenith: BusinessFixture;
/** Four weeks from Monday 3 December 2029. */
const FROM = '2029-12-03';
const TO = '2029-12-30';

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 200 });
  acme = await createBusinessFixture(t, 'acme');
  zenith = await createBusinessFixture(t, 'zenith');
}, 120_000);
afterAll(() => t.close());

let clientCount = 0;
/** A client of acme in New Farm (no custom availability). */
async function newClient(business = acme, lat = -27.467, lng = 153.047) {
  clientCount++;
  const [row] = await t.ctx.db.insert(clients).values({
    business_account_id: business.businessAccountId, first_name: 'Mei', last_name: `Lee ${clientCount}`, lat, lng, geo_precision: 'address', geo_source: 'pms', time_zone: 'Australia/Brisbane',
  }).returning();
  return row.id;
}

const nursing = () => acme.appointmentTypeIds[0];
const plan = (client: number, body: Record<string, unknown>, token = acme.tokens.staff) =>
  t.request('POST', `/api/clients/${client}/care_plans`, { token, body: { appointment_type_id: nursing(), weekdays: [1, 3, 5], window_start: '07:30', window_end: '09:00', starts_on: FROM, ...body } });
const openOf = async (client: number, from = FROM, to = TO) =>
  ((await t.request('GET', `/api/open_visits?start_date=${from}&end_date=${to}`, { token: acme.tokens.staff })).body.open_visits as any[])
    .filter((visit) => visit.client.id === client);

async function allocate(body: Record<string, unknown> = { start_date: FROM, weeks: 4 }, business = acme) {
  const started = await t.request('POST', '/api/care_plan_allocations', { token: business.tokens.staff, body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body.allocation.status).toBe('RUNNING');
  await drainJobs(t.ctx);
  const done = await t.request('GET', `/api/care_plan_allocations/${started.body.allocation.id}`, { token: business.tokens.staff });
  expect(done.body.allocation.status, JSON.stringify(done.body.allocation.message)).toBe('DONE');
  return { generated: started.body.allocation.generated as number, allocation: done.body.allocation };
}

/** Clears the open visits other tests left in the range, so each allocation reads its own. */
const removeEveryOpenVisit = () => t.ctx.db.update(openVisits).set({ state: 'removed' }).where(eq(openVisits.state, 'open'));

describe('generating a care plan\'s visits', () => {
  it('makes one open visit per weekday of the plan inside its dates, skipping public holidays and the client\'s absences, never twice', async () => {
    await removeEveryOpenVisit();
    const client = await newClient();
    const created = await plan(client, { ends_on: '2029-12-26', notes: 'Shower and dressing' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.care_plan).toMatchObject({
      client_id: client, weekdays: [1, 3, 5], window_start: '07:30', window_end: '09:00', duration_minutes: 45, carers: 1, starts_on: FROM, ends_on: '2029-12-26',
      appointment_type: { id: nursing(), name: 'Nursing visit' },
    });
    // Wednesday 12 December is a public holiday; the client is away from Monday 17 to Wednesday 19 December.
    const holiday = await t.request('POST', '/api/public_holidays', { token: acme.tokens.admin, body: { date: '2029-12-12', name: 'Test Day' } });
    expect(holiday.status).toBe(201);
    const away = await t.request('POST', `/api/clients/${client}/absences`, { token: acme.tokens.staff, body: { starts_on: '2029-12-17', ends_on: '2029-12-19', reason: 'away' } });
    expect(away.status, JSON.stringify(away.body)).toBe(201);
    // Days it overlaps are refused in words; the same new absence sent twice at once is recorded once.
    const overlapping = await t.request('POST', `/api/clients/${client}/absences`, {
      token: acme.tokens.staff, body: { starts_on: '2029-12-18', ends_on: '2029-12-20', reason: 'hospital' },
    });
    expect(overlapping.body).toMatchObject({ code: 'ABSENCE_OVERLAPS', message: expect.stringMatching(/is already away from .+: remove that absence first/) });
    const twice = await Promise.all([1, 2].map(() => t.request('POST', `/api/clients/${client}/absences`, {
      token: acme.tokens.staff, body: { starts_on: '2030-02-01', ends_on: '2030-02-02', reason: 'away' },
    })));
    expect(twice.map((response) => response.status).sort()).toEqual([201, 409]);
    expect((await t.request('GET', `/api/clients/${client}/absences`, { token: acme.tokens.staff })).body.absences).toHaveLength(2);

    const { generated } = await allocate();
    const open = await openOf(client);
    expect(open.map((visit) => visit.date)).toEqual(['2029-12-03', '2029-12-05', '2029-12-07', '2029-12-10', '2029-12-14', '2029-12-21', '2029-12-24', '2029-12-26']);
    expect(generated).toBeGreaterThanOrEqual(8);
    expect(open[0]).toMatchObject({
      window_start: '07:30', window_end: '09:00', duration_minutes: 45, care_plan_id: created.body.care_plan.id, notes: 'Shower and dressing',
      reason: `New in Mei Lee ${clientCount}'s care plan`, appointment_type: { id: nursing() },
    });
    // A second allocation generates none of them again.
    const again = await allocate();
    expect(again.generated).toBe(0);
    expect(await openOf(client)).toHaveLength(8);
    // A removed occurrence is not generated again either.
    expect((await t.request('DELETE', `/api/open_visits/${open[0].id}`, { token: acme.tokens.staff })).status).toBe(204);
    expect((await allocate()).generated).toBe(0);
    expect(await openOf(client)).toHaveLength(7);
    // Removing the absence: the next allocation generates its days again (Monday 17, Wednesday 19).
    expect((await t.request('DELETE', `/api/client_absences/${away.body.absence.id}`, { token: acme.tokens.staff })).status).toBe(204);
    expect((await allocate()).generated).toBe(2);
    expect((await openOf(client)).map((visit) => visit.date)).toContain('2029-12-17');
    expect((await t.request('DELETE', `/api/public_holidays/${holiday.body.public_holiday.id}`, { token: acme.tokens.admin })).status).toBe(204);
  });

  it('skips a day the client already has a visit of that type in the window (an imported booking), and makes two for two carers', async () => {
    await removeEveryOpenVisit();
    const client = await newClient();
    await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: client, practitioner_id: acme.practitionerIds[0], appointment_type_id: nursing(),
      starts_at: brisbaneAt('2029-12-05', '08:00'), ends_at: brisbaneAt('2029-12-05', '08:45'), lat: -27.467, lng: 153.047,
    });
    expect((await plan(client, { weekdays: [3], carers: 2, ends_on: '2029-12-12' })).status).toBe(201);
    await allocate();
    const open = await openOf(client);
    // 5 December: one carer is booked already, so one more; 12 December: two.
    expect(open.map((visit) => visit.date)).toEqual(['2029-12-05', '2029-12-12', '2029-12-12']);
  });

  it('refuses a window that ends before it starts or cannot hold the visit, and another business\'s type or practitioner', async () => {
    const client = await newClient();
    const backwards = await plan(client, { window_start: '09:00', window_end: '08:00' });
    expect(backwards.status).toBe(422);
    expect(backwards.body.message).toMatch(/window_end/);
    const tooShort = await plan(client, { window_start: '08:00', window_end: '08:30' });
    expect(tooShort.status).toBe(422);
    expect(tooShort.body.message).toMatch(/45-minute visit does not fit/);
    expect((await plan(client, { appointment_type_id: zenith.appointmentTypeIds[0] })).status).toBe(404);
    expect((await plan(client, { preferred_practitioner_ids: [zenith.practitionerIds[0]] })).status).toBe(404);
    expect((await plan(client, { ends_on: '2029-12-01' })).status).toBe(422);
  });
});

describe('allocating a care plan', () => {
  const staff: number[] = [];
  beforeAll(async () => {
    // Six practitioners at work 06:00–18:00 every day around Brisbane; the nearest to the clients does not deliver
    // nursing, the next is excluded by the client of the first test.
    const homes = [[-27.47, 152.93], [-27.47, 153.11], [-27.50, 153.00], [-27.43, 153.02], [-27.468, 153.048], [-27.466, 153.046]];
    for (const [index, [lat, lng]] of homes.entries()) {
      const [row] = await t.ctx.db.insert(practitioners).values({
        business_account_id: acme.businessAccountId, first_name: 'Carer', last_name: `${index}`, start_place_kind: 'home', home_address: `${index} Home St`,
        home_lat: lat, home_lng: lng, working_hours: workingEveryDay('06:00', '18:00'), pms_appointment_type_ids: acme.appointmentTypeIds,
      }).returning();
      staff.push(row.id);
    }
    await t.ctx.db.update(practitioners).set({ skill_appointment_type_ids: [acme.appointmentTypeIds[1]] }).where(eq(practitioners.id, staff[4]));
  });

  it('places 3 visits a week for 4 weeks with qualified practitioners the client did not exclude, at most two carers, no hard break', async () => {
    await removeEveryOpenVisit();
    const db = t.ctx.db;
    const [, , , , unqualified, excluded] = staff;
    const client = await newClient();
    await db.insert(clientPractitionerPreferences).values({ business_account_id: acme.businessAccountId, client_id: client, practitioner_id: excluded, kind: 'excluded' });
    expect((await plan(client, { ends_on: TO })).status).toBe(201);

    const { allocation } = await allocate();
    const visits = (allocation.visits as any[]).filter((visit) => visit.client.id === client);
    expect(visits).toHaveLength(12);
    expect(visits.filter((visit) => visit.practitioner === null), JSON.stringify(visits)).toEqual([]);
    const carers = new Set(visits.map((visit) => visit.practitioner.id));
    expect(carers.size).toBeLessThanOrEqual(2);
    expect(carers.has(unqualified)).toBe(false);
    expect(carers.has(excluded)).toBe(false);
    for (const visit of visits) {
      // Inside the window: arrives 07:30–08:15 for a 45-minute visit ending by 09:00.
      expect(brisbaneClock(visit.arrive_at) >= '07:30' && brisbaneClock(visit.arrive_at) <= '08:15', visit.arrive_at).toBe(true);
      expect(visit.arrive_at.slice(0, 10) <= visit.date).toBe(true);
    }
    expect(allocation.figures).toMatchObject({ hard_breaks: 0 });
    expect(allocation.figures.carers_by_client.find((entry: any) => entry.client_id === client).carers).toBe(carers.size);
    // Nothing was booked: the allocation is a proposal.
    expect(await db.select().from(appointments).where(and(eq(appointments.client_id, client)))).toHaveLength(0);
    expect(await openOf(client)).toHaveLength(12);
  });

  it('keeps the carer who has served the client in the last 8 weeks, though another lives nearer', async () => {
    await removeEveryOpenVisit();
    const client = await newClient();
    const usual = staff[0]; // lives 11 km west; staff[3] (5 km) is whom a new client gets
    await t.ctx.db.insert(appointments).values(['2029-11-12', '2029-11-19', '2029-11-26'].map((date) => ({
      business_account_id: acme.businessAccountId, client_id: client, practitioner_id: usual, appointment_type_id: nursing(),
      starts_at: brisbaneAt(date, '08:00'), ends_at: brisbaneAt(date, '08:45'), lat: -27.467, lng: 153.047,
    })));
    expect((await plan(client, { ends_on: '2029-12-09' })).status).toBe(201);
    const { allocation } = await allocate({ start_date: FROM, weeks: 1 });
    const visits = (allocation.visits as any[]).filter((visit) => visit.client.id === client);
    expect(visits.map((visit) => visit.practitioner?.id)).toEqual([usual, usual, usual]);
  });

  it('gives a two-carer visit two different practitioners arriving together, with no hard break (a type that needs two)', async () => {
    await removeEveryOpenVisit();
    await t.ctx.db.update(appointmentTypes).set({ needs_two_practitioners: true }).where(eq(appointmentTypes.id, nursing()));
    try {
      const client = await newClient(acme, -27.45, 153.03);
      expect((await plan(client, { weekdays: [2], carers: 2, ends_on: '2029-12-04' })).status).toBe(201);
      const { allocation } = await allocate({ start_date: FROM, weeks: 1 });
      const pair = (allocation.visits as any[]).filter((visit) => visit.client.id === client);
      expect(pair).toHaveLength(2);
      expect(pair.every((visit) => visit.practitioner !== null), JSON.stringify(pair)).toBe(true);
      expect(pair[0].practitioner.id).not.toBe(pair[1].practitioner.id);
      expect(pair[0].arrive_at).toBe(pair[1].arrive_at);
      expect(allocation.figures.hard_breaks).toBe(0);
    } finally {
      await t.ctx.db.update(appointmentTypes).set({ needs_two_practitioners: false }).where(eq(appointmentTypes.id, nursing()));
    }
  });

  it('leaves a visit open with its reason when no qualified practitioner works that day', async () => {
    await removeEveryOpenVisit();
    const client = await newClient();
    // Physiotherapy on Sundays before anyone starts work.
    expect((await plan(client, { appointment_type_id: acme.appointmentTypeIds[1], weekdays: [7], window_start: '04:00', window_end: '05:00', ends_on: '2029-12-09' })).status).toBe(201);
    const { allocation } = await allocate({ start_date: FROM, weeks: 1 });
    const [visit] = (allocation.visits as any[]).filter((candidate) => candidate.client.id === client);
    expect(visit).toMatchObject({ practitioner: null, arrive_at: null, date: '2029-12-09' });
    expect(visit.reason).toMatch(/^No qualified practitioner has room on Sunday 9 Dec 04:00–05:00/);
  });

  it('answers 409 to a second allocation while one runs, and refuses a start in the past', async () => {
    const first = await t.request('POST', '/api/care_plan_allocations', { token: acme.tokens.staff, body: { start_date: FROM, weeks: 1 } });
    expect(first.status).toBe(202);
    // Without a body (from tomorrow, for the business's weeks ahead): refused while one runs.
    const second = await t.request('POST', '/api/care_plan_allocations', { token: acme.tokens.staff });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/running already/);
    await drainJobs(t.ctx);
    expect((await t.request('POST', '/api/care_plan_allocations', { token: acme.tokens.staff, body: { start_date: '2020-01-06' } })).status).toBe(422);
    // Apply of an allocation whose business has no PMS connection: 409 in words.
    const applied = await t.request('POST', `/api/care_plan_allocations/${first.body.allocation.id}/apply`, { token: acme.tokens.staff });
    expect(applied.status).toBe(409);
    expect(applied.body.message).toMatch(/Cliniko is not connected|were filled or removed/);
  });
});

describe('public holidays, roles and tenancy', () => {
  it('lets an ADMIN add and remove holidays (409 for a date twice) and a coordinator read them; a practitioner is refused', async () => {
    const added = await t.request('POST', '/api/public_holidays', { token: acme.tokens.admin, body: { date: '2029-12-25', name: 'Christmas Day' } });
    expect(added.status).toBe(201);
    const twice = await t.request('POST', '/api/public_holidays', { token: acme.tokens.admin, body: { date: '2029-12-25', name: 'Christmas' } });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/public holiday already/);
    expect((await t.request('POST', '/api/public_holidays', { token: acme.tokens.staff, body: { date: '2029-12-26', name: 'Boxing Day' } })).status).toBe(403);
    const list = await t.request('GET', '/api/public_holidays', { token: acme.tokens.staff });
    expect(list.body.public_holidays.map((holiday: any) => holiday.date)).toContain('2029-12-25');
    expect((await t.request('GET', '/api/public_holidays', { token: acme.tokens.practitioner })).status).toBe(403);
    expect((await t.request('DELETE', `/api/public_holidays/${added.body.public_holiday.id}`, { token: zenith.tokens.admin })).status).toBe(404);
    expect((await t.request('DELETE', `/api/public_holidays/${added.body.public_holiday.id}`, { token: acme.tokens.admin })).status).toBe(204);
  });

  it('refuses a practitioner every care operation, and answers 404 for another business\'s client, plan and allocation', async () => {
    const client = await newClient();
    expect((await plan(client, {}, acme.tokens.practitioner)).status).toBe(403);
    expect((await t.request('GET', '/api/open_visits', { token: acme.tokens.practitioner })).status).toBe(403);
    expect((await plan(client, {}, zenith.tokens.admin)).status).toBe(404);
    const created = await plan(client, {});
    const id = created.body.care_plan.id;
    expect((await t.request('PATCH', `/api/care_plans/${id}`, { token: zenith.tokens.staff, body: { appointment_type_id: zenith.appointmentTypeIds[0], weekdays: [1], window_start: '07:30', window_end: '09:00', starts_on: FROM } })).status).toBe(404);
    expect((await t.request('POST', `/api/care_plans/${id}/end`, { token: zenith.tokens.staff, body: { ends_on: '2029-12-31' } })).status).toBe(404);
    expect((await t.request('GET', `/api/care_plan_allocations/${acme.allocationIds[0]}`, { token: zenith.tokens.staff })).status).toBe(404);
    // Zenith's list shows nothing of acme's plans.
    expect((await t.request('GET', `/api/clients/${client}/care_plans`, { token: zenith.tokens.staff })).status).toBe(404);
    const theirs = await t.request('GET', `/api/open_visits?start_date=${FROM}&end_date=${TO}`, { token: zenith.tokens.staff });
    expect(JSON.stringify(theirs.body)).not.toMatch(/Mei Lee/);
  });
});
