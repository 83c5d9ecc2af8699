// Visit verification report (EVV, issue 26): each visit of the range with what its steps recorded — recorded here
// through the real POST /appointments/{id}/steps — its actual in and out, their places and distances to the client, the
// far-arrival flag, status and reason; punctuality from check-ins where a visit has one and from planned times where
// it has none (each counted apart), visit duration actual vs booked per type, missed visits by reason; a reopened
// visit starts over; the table paged and sorted on the server; ADMIN only; never another business's visits; 422s naming the field.
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt } from './support/routing';

const ZONE = 'Australia/Brisbane';
// Cora's point (the fixture's client in New Farm); 0.001° of latitude is about 111 m.
const POINT = { lat: -27.467, lng: 153.047 };

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let day: string;
let keys = 0;
const ids: Record<'early' | 'late' | 'missed' | 'planned' | 'reopened' | 'cancelled' | 'theirs', number> = {
  early: 0, late: 0, missed: 0, planned: 0, reopened: 0, cancelled: 0, theirs: 0,
};

const at = (time: string) => brisbaneAt(day, time).toISOString();
const query = () => `?start_date=${day}&end_date=${day}`;
const report = (q = query(), token = acme.tokens.admin) => t.request('GET', `/api/reports/visit-verification${q}`, { token });

async function step(id: number, body: Record<string, unknown>, token = acme.tokens.admin) {
  const response = await t.request('POST', `/api/appointments/${id}/steps`, { token, body: { idempotency_key: `evv-${process.pid}-${(keys += 1)}`, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function addVisit(business: BusinessFixture, options: { client: 0 | 1; practitioner: 0 | 1; type: 0 | 1; start: string; minutes: number; cancelled?: boolean }): Promise<number> {
  const starts = brisbaneAt(day, options.start);
  const located = options.client === 0;
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: business.businessAccountId, client_id: business.clientIds[options.client], practitioner_id: business.practitionerIds[options.practitioner],
    appointment_type_id: business.appointmentTypeIds[options.type], business_location_id: business.businessLocationIds[0],
    starts_at: starts, ends_at: new Date(starts.getTime() + options.minutes * 60_000), arrive_at: starts,
    lat: located ? POINT.lat : null, lng: located ? POINT.lng : null, cancelled_at: options.cancelled ? new Date() : null,
  }).returning({ id: appointments.id });
  return row.id;
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  // A past day (steps are recorded after the fact by a coordinator), never the fixture's own visits' day.
  const yesterday = Temporal.Now.plainDateISO(ZONE).subtract({ days: 1 });
  day = (yesterday.toString() === '2026-11-24' ? yesterday.subtract({ days: 1 }) : yesterday).toString();

  // Pat's nursing visit to Cora, 09:00–09:45: on the way, in 09:10 ~55 m from her point, out 10:00 at it.
  ids.early = await addVisit(acme, { client: 0, practitioner: 0, type: 0, start: '09:00', minutes: 45 });
  await step(ids.early, { step: 'on_my_way', at: at('08:40') });
  await step(ids.early, { step: 'arrived', at: at('09:10'), lat: POINT.lat + 0.0005, lng: POINT.lng, accuracy_m: 10 });
  await step(ids.early, { step: 'done', at: at('10:00'), lat: POINT.lat, lng: POINT.lng });
  // Quinn's physio to Cora, 11:00–12:00: in an hour late (past the 30-minute tolerance) and ~1.1 km away, out 12:30.
  ids.late = await addVisit(acme, { client: 0, practitioner: 1, type: 1, start: '11:00', minutes: 60 });
  await step(ids.late, { step: 'arrived', at: at('12:00'), lat: POINT.lat + 0.01, lng: POINT.lng });
  await step(ids.late, { step: 'done', at: at('12:30') });
  // Pat's nursing visit to Dale, 13:00: could not attend, client not home.
  ids.missed = await addVisit(acme, { client: 1, practitioner: 0, type: 0, start: '13:00', minutes: 45 });
  await step(ids.missed, { step: 'on_my_way', at: at('12:45') });
  await step(ids.missed, { step: 'could_not_attend', at: at('13:05'), reason: 'client_not_home' });
  // Quinn's nursing visit to Dale, 15:00: no step (Dale has no set availability: punctual by the plan).
  ids.planned = await addVisit(acme, { client: 1, practitioner: 1, type: 0, start: '15:00', minutes: 45 });
  // Pat's 16:00 visit to Dale: could not attend (hospital), then reopened by the coordinator and only on the way.
  ids.reopened = await addVisit(acme, { client: 1, practitioner: 0, type: 0, start: '16:00', minutes: 30 });
  await step(ids.reopened, { step: 'could_not_attend', at: at('16:05'), reason: 'hospital' });
  await step(ids.reopened, { step: 'reopened', at: at('16:10') });
  await step(ids.reopened, { step: 'on_my_way', at: at('16:20') });
  // A cancelled visit is not a visit to verify.
  ids.cancelled = await addVisit(acme, { client: 0, practitioner: 0, type: 0, start: '17:00', minutes: 45, cancelled: true });
  // Another business's visit the same day, stepped: never in acme's report.
  ids.theirs = await addVisit(other, { client: 0, practitioner: 0, type: 0, start: '09:00', minutes: 45 });
  await step(ids.theirs, { step: 'arrived', at: at('09:00'), lat: POINT.lat, lng: POINT.lng }, other.tokens.admin);
}, 120_000);
afterAll(() => t?.close());

describe('the visit verification report', () => {
  it('has a row per visit with its actual in and out, places, distances, status and reason', async () => {
    const response = await report();
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const rows = response.body.rows as Record<string, unknown>[];
    expect(rows.map((row) => row.appointment_id)).toEqual([ids.early, ids.late, ids.missed, ids.planned, ids.reopened]);
    const [early, late, missed, planned, reopened] = rows;
    expect(early).toMatchObject({
      client_name: 'Cora acme-Client', practitioner_name: 'Pat acme-One', appointment_type_name: 'Nursing visit',
      starts_at: at('09:00'), ends_at: at('09:45'), planned_arrival_at: at('09:00'), status: 'done',
      actual_in_at: at('09:10'), in_lat: POINT.lat + 0.0005, in_lng: POINT.lng, far_from_client: false,
      actual_out_at: at('10:00'), out_lat: POINT.lat, out_lng: POINT.lng, out_distance_m: 0,
      reason: null, actual_seconds: 50 * 60, booked_seconds: 45 * 60, punctual: true, punctuality_from: 'check_in',
    });
    expect(early.in_distance_m).toBeGreaterThan(45);
    expect(early.in_distance_m).toBeLessThan(65);
    expect(late).toMatchObject({
      practitioner_name: 'Quinn acme-Two', status: 'done', actual_in_at: at('12:00'), far_from_client: true,
      actual_out_at: at('12:30'), out_lat: null, out_distance_m: null, actual_seconds: 30 * 60, booked_seconds: 60 * 60,
      punctual: false, punctuality_from: 'check_in',
    });
    expect(late.in_distance_m).toBeGreaterThan(1000);
    expect(missed).toMatchObject({
      client_name: 'Dale acme-Client', status: 'could_not_attend', actual_in_at: null, actual_out_at: null,
      reason: 'client_not_home', punctual: null, punctuality_from: null, actual_seconds: null,
    });
    // Over without a check-in: not verified (missed), never on time by its plan.
    expect(planned).toMatchObject({ status: 'not_started', actual_in_at: null, in_lat: null, punctual: null, punctuality_from: null, not_verified: true });
    // Reopened: what it said before the reopening is gone; only On my way since.
    expect(reopened).toMatchObject({ status: 'on_my_way', reason: null, actual_in_at: null, punctuality_from: null, not_verified: true });
  });

  it('counts punctuality from check-ins and from planned times apart, durations per type and missed visits by reason', async () => {
    const { body } = await report();
    // The day is over: the two visits without a check-in are not verified, and the headline is from the check-ins.
    expect(body.summary).toEqual({
      visits: 5, not_started: 1, on_my_way: 1, arrived: 0, done: 2, could_not_attend: 1, far_from_client: 1, not_verified: 2,
      checked_in: 2, checked_in_on_time: 1, planned_only: 0, planned_punctual: 0, punctuality: 0.5, planned_punctuality: null,
    });
    expect(body.durations).toEqual([
      { appointment_type_id: acme.appointmentTypeIds[0], appointment_type_name: 'Nursing visit', visits: 1, booked_seconds: 2700, actual_seconds: 3000, difference_seconds: 300 },
      { appointment_type_id: acme.appointmentTypeIds[1], appointment_type_name: 'Physiotherapy', visits: 1, booked_seconds: 3600, actual_seconds: 1800, difference_seconds: -1800 },
    ]);
    expect(body.missed).toEqual([
      { reason: 'client_not_home', visits: 1 }, { reason: 'refused', visits: 0 }, { reason: 'hospital', visits: 0 }, { reason: 'other', visits: 0 },
    ]);
  });

  it('pages and sorts the table on the server, the figures always over every visit', async () => {
    const every = await report();
    expect(every.body.meta).toEqual({ page: 1, per_page: 5, total: 5 });
    const first = await report(`${query()}&sort=in_distance&direction=desc&page=1&per_page=10`);
    expect(first.status).toBe(200);
    // By distance at arrival, furthest first, visits without one last (ties by scheduled start).
    expect(first.body.rows.map((row: { appointment_id: number }) => row.appointment_id)).toEqual([ids.late, ids.early, ids.missed, ids.planned, ids.reopened]);
    expect(first.body.meta).toEqual({ page: 1, per_page: 10, total: 5 });
    const past = await report(`${query()}&page=2&per_page=10`);
    expect(past.body.rows).toEqual([]);
    expect(past.body.meta).toEqual({ page: 2, per_page: 10, total: 5 });
    expect(past.body.summary).toEqual(every.body.summary);
    expect(past.body.durations).toEqual(every.body.durations);
    const byClient = await report(`${query()}&sort=client&direction=desc`);
    expect(byClient.body.rows.map((row: { appointment_id: number }) => row.appointment_id)).toEqual([ids.missed, ids.planned, ids.reopened, ids.early, ids.late]);
    const byStatus = await report(`${query()}&sort=status`);
    // As a visit goes: not started, on the way, arrived, done, could not attend.
    expect(byStatus.body.rows.map((row: { status: string }) => row.status)).toEqual(['not_started', 'on_my_way', 'done', 'done', 'could_not_attend']);
    const bad = await report(`${query()}&sort=colour`);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/sort/);
  });

  it('judges Practitioner performance\'s punctuality by the same rule: check-ins where visits have them, else the plan', async () => {
    const response = await t.request('GET', `/api/reports/practitioner-performance${query()}`, { token: acme.tokens.admin });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const [pat, quinn] = acme.practitionerIds;
    const figures = (id: number) => {
      const row = response.body.rows.find((candidate: { practitioner_id: number }) => candidate.practitioner_id === id);
      return [row.visits, row.from_check_ins, row.from_planned_times, row.punctual_visits, row.punctuality];
    };
    // Pat: in on time (Cora's availability would have said outside), one not attended (not judged), one by plan.
    expect(figures(pat)).toEqual([3, 1, 1, 2, 1]);
    // Quinn: in an hour late, one by plan.
    expect(figures(quinn)).toEqual([2, 1, 1, 1, 0.5]);
    expect(response.body.summary).toMatchObject({ visits: 5, from_check_ins: 2, from_planned_times: 2, punctual_visits: 3, punctuality: 0.75 });
    // Visit verification's headline is from the check-ins alone.
    expect((await report()).body.summary.punctuality).toBe(0.5);
  });

  it('follows the visit filters', async () => {
    const pat = await report(`${query()}&practitioner_ids=${acme.practitionerIds[0]}`);
    expect(pat.body.rows.map((row: { appointment_id: number }) => row.appointment_id)).toEqual([ids.early, ids.missed, ids.reopened]);
    const physio = await report(`${query()}&appointment_type_ids=${acme.appointmentTypeIds[1]}`);
    expect(physio.body.rows.map((row: { appointment_id: number }) => row.appointment_id)).toEqual([ids.late]);
    expect(physio.body.summary).toMatchObject({ visits: 1, checked_in: 1, checked_in_on_time: 0, punctuality: 0 });
  });

  it('is for admins only, and each business sees only its own visits', async () => {
    expect((await report(query(), acme.tokens.staff)).status).toBe(403);
    expect((await report(query(), acme.tokens.practitioner)).status).toBe(403);
    expect((await t.request('GET', `/api/reports/visit-verification${query()}`)).status).toBe(401);
    const theirs = await report(query(), other.tokens.admin);
    expect(theirs.body.rows.map((row: { appointment_id: number }) => row.appointment_id)).toEqual([ids.theirs]);
    expect(theirs.body.rows[0]).toMatchObject({ status: 'arrived', actual_in_at: at('09:00'), in_distance_m: 0 });
    // Acme's practitioner as a filter in the other business's report finds nothing of acme's.
    const crossed = await report(`${query()}&practitioner_ids=${acme.practitionerIds[0]}`, other.tokens.admin);
    expect(crossed.body.rows).toEqual([]);
    expect(crossed.body.summary.visits).toBe(0);
  });

  it('is an audit record: who recorded the steps, On my way, far Yes/No, past visits without a check-in not verified, arrivals corrected after the day', async () => {
    // Its own business, over yesterday → tomorrow: the clock is the real one, so each visit is placed by its day.
    const audit = await createBusinessFixture(t, 'audit');
    const today = Temporal.Now.plainDateISO(ZONE);
    const [yesterday, tomorrow] = [today.subtract({ days: 1 }).toString(), today.add({ days: 1 }).toString()];
    const visit = async (date: string, time: string, client: 0 | 1) => {
      const starts = brisbaneAt(date, time);
      const [row] = await t.ctx.db.insert(appointments).values({
        business_account_id: audit.businessAccountId, client_id: audit.clientIds[client], practitioner_id: audit.practitionerIds[0],
        appointment_type_id: audit.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + 60_000), arrive_at: starts,
        lat: POINT.lat, lng: POINT.lng,
      }).returning({ id: appointments.id });
      return row.id;
    };
    // Today's first minute: the practitioner's phone set off and arrived now (late), the office recorded Done.
    const phone = await visit(today.toString(), '00:00', 1);
    await step(phone, { step: 'on_my_way' }, audit.tokens.practitioner);
    await step(phone, { step: 'arrived', lat: POINT.lat, lng: POINT.lng }, audit.tokens.practitioner);
    await step(phone, { step: 'done' }, audit.tokens.admin);
    // Yesterday: one recorded by the coordinator on time, one without any step (missed), its arrival then corrected by staff.
    const byCoordinator = await visit(yesterday, '10:00', 1);
    await step(byCoordinator, { step: 'arrived', at: brisbaneAt(yesterday, '10:05').toISOString() }, audit.tokens.admin);
    const missed = await visit(yesterday, '09:00', 1);
    const corrected = await t.request('PUT', `/api/appointments/${missed}/update_arrival_time`, {
      token: audit.tokens.staff, body: { arrive_at: brisbaneAt(yesterday, '09:30').toISOString() },
    });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    // Tomorrow's: not over, judged by its plan.
    const upcoming = await visit(tomorrow, '10:00', 1);

    const response = await report(`?start_date=${yesterday}&end_date=${tomorrow}`, audit.tokens.admin);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const row = (id: number) => response.body.rows.find((candidate: { appointment_id: number }) => candidate.appointment_id === id);
    expect(row(phone)).toMatchObject({
      recorded_by: "Practitioner's phone (On my way, Arrived); Ada audit (Done)", far_from_client: false,
      punctuality_from: 'check_in', not_verified: false, arrival_corrected_by: null, arrival_corrected_at: null,
    });
    expect(Date.parse(row(phone).on_my_way_at)).toBeLessThanOrEqual(Date.parse(row(phone).actual_in_at));
    expect(row(byCoordinator)).toMatchObject({ recorded_by: 'Ada audit', on_my_way_at: null, punctual: true, punctuality_from: 'check_in', not_verified: false });
    // A past visit without a check-in is missed: never on time, whatever its plan says.
    expect(row(missed)).toMatchObject({ recorded_by: null, status: 'not_started', not_verified: true, punctual: null, punctuality_from: null, arrival_corrected_by: 'Sid' });
    expect(Date.now() - Date.parse(row(missed).arrival_corrected_at)).toBeLessThan(60_000);
    expect(row(upcoming)).toMatchObject({ not_verified: false, punctual: true, punctuality_from: 'planned' });
    // The headline is from check-ins only (1 of 2 on time); the plan's figure apart.
    expect(response.body.summary).toMatchObject({
      not_verified: 1, checked_in: 2, checked_in_on_time: 1, punctuality: 0.5, planned_only: 1, planned_punctual: 1, planned_punctuality: 1,
    });
    expect(response.body.summary).not.toHaveProperty('punctual_visits');
  });

  it('refuses a missing or bad range with a message naming the field', async () => {
    for (const [q, message] of [
      ['', /start_date and end_date are required/],
      [`?start_date=${day}`, /end_date is required/],
      [`?end_date=${day}`, /start_date is required/],
      ['?start_date=2030-01-01&end_date=2031-06-30', /limited to 366 days/],
      ['?start_date=2030-02-01&end_date=2030-01-01', /end_date must be on or after start_date/],
      ['?start_date=2030-02-30&end_date=2030-03-01', /start_date/],
    ] as const) {
      const response = await report(q);
      expect(response.status, q).toBe(422);
      expect(response.body.message, q).toMatch(message);
    }
  });
});
