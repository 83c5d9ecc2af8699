// Leave and time off (issue 24 rule 5): an admin records a practitioner's leave (whole days or part of a day, in the
// business's time zone), staff read it, a practitioner reads only their own; a practitioner on leave all day is never
// routed (a run refuses them, or reassigning leaves them out and moves their visits), part-day leave cuts their hours,
// and the day's visits booked in leave are flagged.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, practitioners } from '../../server/src/db/schema';
import { loadPractitionerDays } from '../../server/src/modules/practitioners';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt as at, brisbaneClock as clock, workingEveryDay } from './support/routing';
import { drainJobs } from './support/jobs';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let pat: number;
let quinn: number;

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  [pat, quinn] = acme.practitionerIds;
  for (const [id, lng] of [[pat, 152.99], [quinn, 153.05]] as const) {
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: 'Home', home_lat: -27.47, home_lng: lng, working_hours: workingEveryDay('08:00', '17:00'),
    }).where(eq(practitioners.id, id));
  }
}, 120_000);
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = acme.tokens.admin) => t.request('POST', '/api/practitioner_leave', { token, body });
const list = (query: string, token = acme.tokens.admin) => t.request('GET', `/api/practitioner_leave?${query}`, { token });

async function addVisit(date: string, practitionerId: number, hhmm: string, lng: number, minutes = 45): Promise<number> {
  const [client] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: `C${date}${hhmm}${lng}`, last_name: 'Client', lat: -27.47, lng, time_zone: 'Australia/Brisbane',
  }).returning({ id: clients.id });
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: at(date, hhmm), ends_at: new Date(at(date, hhmm).getTime() + minutes * 60_000), arrive_at: at(date, hhmm), lat: -27.47, lng,
  }).returning({ id: appointments.id });
  return row.id;
}

describe('recording leave', () => {
  it('records whole days and part of a day in the business time zone, and lists them by practitioner and dates', async () => {
    const days = await create({ practitioner_id: pat, start_date: '2029-03-05', end_date: '2029-03-07', reason: ' Annual leave ' });
    expect(days.status, JSON.stringify(days.body)).toBe(201);
    expect(days.body.leave).toMatchObject({
      practitioner_id: pat, start_date: '2029-03-05', end_date: '2029-03-07', start_time: null, end_time: null, reason: 'Annual leave',
      starts_at: '2029-03-04T14:00:00.000Z', ends_at: '2029-03-07T14:00:00.000Z', source: 'manual', cliniko_block_id: null, created_by_name: 'Ada acme',
    });
    const afternoon = await create({ practitioner_id: quinn, start_date: '2029-03-06', end_date: '2029-03-06', start_time: '13:00', end_time: '17:00' });
    expect(afternoon.status).toBe(201);
    expect(afternoon.body.leave).toMatchObject({ start_date: '2029-03-06', end_date: '2029-03-06', start_time: '13:00', end_time: '17:00', reason: null });

    const both = await list('start_date=2029-03-06&end_date=2029-03-06', acme.tokens.staff);
    expect(both.status).toBe(200);
    expect(both.body.leave.map((leave: any) => leave.id)).toEqual([days.body.leave.id, afternoon.body.leave.id]);
    expect((await list(`practitioner_id=${quinn}&start_date=2029-03-01&end_date=2029-03-31`)).body.leave.map((leave: any) => leave.id)).toEqual([afternoon.body.leave.id]);
    expect((await list('start_date=2029-03-08&end_date=2029-03-31')).body.leave).toEqual([]);
  });

  it('changes and removes leave entered in Rounds', async () => {
    const { body } = await create({ practitioner_id: pat, start_date: '2029-04-02', end_date: '2029-04-02' });
    const changed = await t.request('PUT', `/api/practitioner_leave/${body.leave.id}`, {
      token: acme.tokens.admin, body: { practitioner_id: quinn, start_date: '2029-04-03', end_date: '2029-04-03', start_time: '08:00', end_time: '12:30', reason: 'Course' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.leave).toMatchObject({ id: body.leave.id, practitioner_id: quinn, start_date: '2029-04-03', start_time: '08:00', end_time: '12:30', reason: 'Course' });
    expect((await t.request('DELETE', `/api/practitioner_leave/${body.leave.id}`, { token: acme.tokens.admin })).status).toBe(204);
    expect((await list('start_date=2029-04-01&end_date=2029-04-30')).body.leave).toEqual([]);
    expect((await t.request('DELETE', `/api/practitioner_leave/${body.leave.id}`, { token: acme.tokens.admin })).status).toBe(404);
  });

  it('lets only an admin write, and shows a practitioner only their own leave', async () => {
    const body = { practitioner_id: pat, start_date: '2029-05-01', end_date: '2029-05-01' };
    expect((await create(body, acme.tokens.staff)).status).toBe(403);
    expect((await create(body, acme.tokens.practitioner)).status).toBe(403);
    const mine = await create(body);
    const theirs = await create({ ...body, practitioner_id: quinn });
    expect((await t.request('PUT', `/api/practitioner_leave/${mine.body.leave.id}`, { token: acme.tokens.staff, body })).status).toBe(403);
    expect((await t.request('DELETE', `/api/practitioner_leave/${mine.body.leave.id}`, { token: acme.tokens.practitioner })).status).toBe(403);
    const seen = await list('start_date=2029-05-01&end_date=2029-05-01', acme.tokens.practitioner);
    expect(seen.body.leave.map((leave: any) => leave.id)).toEqual([mine.body.leave.id]);
    expect((await list(`practitioner_id=${quinn}&start_date=2029-05-01&end_date=2029-05-01`, acme.tokens.practitioner)).body.leave).toEqual([]);
    expect((await list('start_date=2029-05-01&end_date=2029-05-01', acme.tokens.staff)).body.leave.map((leave: any) => leave.id))
      .toEqual([mine.body.leave.id, theirs.body.leave.id]);
  });

  it("keeps each business to its own: another business's leave is not found, nor are its practitioners", async () => {
    const { body } = await create({ practitioner_id: pat, start_date: '2029-05-10', end_date: '2029-05-10' });
    expect((await list('start_date=2029-05-10&end_date=2029-05-10', other.tokens.admin)).body.leave).toEqual([]);
    const input = { practitioner_id: other.practitionerIds[0], start_date: '2029-05-10', end_date: '2029-05-10' };
    expect((await t.request('PUT', `/api/practitioner_leave/${body.leave.id}`, { token: other.tokens.admin, body: input })).status).toBe(404);
    expect((await t.request('DELETE', `/api/practitioner_leave/${body.leave.id}`, { token: other.tokens.admin })).status).toBe(404);
    const foreign = await create({ ...input, practitioner_id: other.practitionerIds[0] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe(`practitioner_id: there is no practitioner ${other.practitionerIds[0]} in this business.`);
  });

  it('refuses leave that ends before it starts, is longer than a year or has half a time, in words', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ start_date: '2029-06-10', end_date: '2029-06-09' }, /^end_date: the last day \(2029-06-09\) must not be before the first \(2029-06-10\)\.$/],
      [{ start_date: '2029-06-10', end_date: '2029-06-10', start_time: '14:00', end_time: '13:00' }, /^end_time: the leave must end after it starts \(13:00 is not after 14:00 on 2029-06-10\)\.$/],
      [{ start_date: '2029-06-10', end_date: '2029-06-10', start_time: '14:00' }, /start_time and end_time go together/],
      [{ start_date: '2029-06-10', end_date: '2030-06-12' }, /^end_date: leave can be at most a year long/],
      [{ start_date: '2029-02-30', end_date: '2029-03-01' }, /start_date/],
    ];
    for (const [dates, message] of cases) {
      const answer = await create({ practitioner_id: pat, ...dates });
      expect(answer.status, JSON.stringify(dates)).toBe(422);
      expect(answer.body.message).toMatch(message);
    }
    expect((await list('start_date=2029-01-01&end_date=2030-06-01')).status).toBe(422);
  });

  it('refuses dates outside the years a practice books (0000, 0001, 9999) in words, creating or listing', async () => {
    for (const [start, end] of [['0000-01-01', '0000-01-02'], ['0001-01-01', '0001-01-01'], ['9999-12-31', '9999-12-31']]) {
      const created = await create({ practitioner_id: pat, start_date: start, end_date: end });
      expect(created.status, start).toBe(422);
      expect(created.body.message).toBe(`start_date must be between 2000-01-01 and 2099-12-31 (got ${start}).`);
    }
    for (const query of ['start_date=0000-01-01&end_date=0000-12-31', 'start_date=0001-01-01', 'start_date=9999-12-31', 'start_date=2099-12-01&end_date=9999-12-31']) {
      const listed = await list(query);
      expect(listed.status, query).toBe(422);
      expect(listed.body.message, query).toMatch(/^(start|end)_date must be between 2000-01-01 and 2099-12-31 \(got \d{4}-\d\d-\d\d\)\.$/);
    }
  });
});

describe('leave in the practitioners\' day and the optimisation', () => {
  const DAY = '2029-07-12'; // Thursday

  it('makes a practitioner on leave all day not routable, and cuts part-day leave from the hours (the longer side)', async () => {
    await create({ practitioner_id: pat, start_date: '2029-07-16', end_date: '2029-07-16', reason: 'Sick' });
    await create({ practitioner_id: quinn, start_date: '2029-07-16', end_date: '2029-07-16', start_time: '12:00', end_time: '14:00' });
    const [patDay, quinnDay] = await loadPractitionerDays(t.ctx.db, acme.businessAccountId, [pat, quinn], '2029-07-16');
    expect(patDay).toMatchObject({ routable: false, onLeave: { reason: 'Sick' }, problems: ['On leave on Monday 16 July 2029 (Sick).'] });
    expect(quinnDay.routable).toBe(true);
    // 08:00–12:00 (4 hours) is longer than 14:00–17:00 (3 hours): the morning is kept.
    expect(quinnDay.shift).toEqual({ start: 8 * 3600, end: 12 * 3600 });
    expect(quinnDay.notes).toContain('On leave 12:00–14:00: the working hours are cut to 08:00–12:00.');
    const [nextDay] = await loadPractitionerDays(t.ctx.db, acme.businessAccountId, [pat], '2029-07-17');
    expect(nextDay.routable).toBe(true);
  });

  it('refuses to optimise a practitioner on leave all day, keeping each visit with its practitioner', async () => {
    await create({ practitioner_id: pat, start_date: DAY, end_date: DAY, reason: 'Annual leave' });
    await addVisit(DAY, pat, '09:00', 153.0);
    await addVisit(DAY, quinn, '10:00', 153.04);
    const refused = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: DAY, practitioner_ids: [pat, quinn], mode: 'keep_practitioners' } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('practitioner_ids: Pat acme-One is on leave on Thursday 12 July 2029 (Annual leave): '
      + 'leave them out, or reassign between practitioners to move their visits to the others.');
  });

  it('flags the visits booked in leave on the day, for the schedule', async () => {
    const travel = await t.request('GET', `/api/appointments/travel?date=${DAY}`, { token: acme.tokens.staff });
    expect(travel.status).toBe(200);
    const flags = new Map(travel.body.appointments.map((visit: any) => [visit.practitioner_id, visit.on_leave]));
    expect(flags).toEqual(new Map([[pat, true], [quinn, false]]));
  });

  it('reassigning, leaves the practitioner on leave out and moves their visits to the others', async () => {
    const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: DAY, mode: 'reassign' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.optimization.practitioner_ids).toEqual([pat, quinn]);
    await drainJobs(t.ctx);
    const { body } = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
    expect(body.optimization.status).toBe('COMPLETE');
    expect(body.optimization.proposal.lanes.map((lane: any) => lane.practitioner_id)).toEqual([quinn]);
    expect(body.optimization.proposal.lanes[0].after.stops).toHaveLength(2);
    expect(body.optimization.proposal.unplaced).toEqual([]);
    expect(body.optimization.proposal.changes).toContainEqual(expect.objectContaining({
      old_practitioner_id: pat, old_practitioner_name: 'Pat acme-One', new_practitioner_id: quinn, new_practitioner_name: 'Quinn acme-Two',
    }));
    const applied = await t.request('POST', `/api/optimizations/${created.body.optimization.id}/apply`, { token: acme.tokens.admin });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const travel = await t.request('GET', `/api/appointments/travel?date=${DAY}`, { token: acme.tokens.staff });
    expect(travel.body.appointments.map((visit: any) => [visit.practitioner_id, visit.on_leave])).toEqual([[quinn, false], [quinn, false]]);
  });

  it("reassigning, gives a visit kept at its time ('Keep this time') of the practitioner on leave to another, at that time", async () => {
    const day = '2029-07-26'; // Thursday
    await create({ practitioner_id: pat, start_date: day, end_date: day });
    const kept = await addVisit(day, pat, '10:00', 153.0);
    await addVisit(day, quinn, '11:30', 153.04);
    expect((await t.request('PUT', `/api/appointments/${kept}/arrival_lock`, { token: acme.tokens.admin, body: { locked: true } })).status).toBe(200);
    const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: day, practitioner_ids: [pat, quinn], mode: 'reassign' } });
    expect(created.status).toBe(201);
    await drainJobs(t.ctx);
    const { body } = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
    expect(body.optimization.status, body.optimization.error_message).toBe('COMPLETE');
    expect(body.optimization.proposal.unplaced).toEqual([]);
    const stop = body.optimization.proposal.lanes[0].after.stops.find((item: any) => item.appointment_id === kept);
    expect(body.optimization.proposal.lanes[0].practitioner_id).toBe(quinn);
    expect(clock(stop.arrive_at)).toBe('10:00');
  });

  it('refuses reassigning when every chosen practitioner is on leave with visits that day', async () => {
    // (Reassigning above moved Pat's visits of the day to Quinn; on leave with nothing booked, the day is skipped for her.)
    await addVisit(DAY, pat, '15:00', 153.0);
    const refused = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: DAY, practitioner_ids: [pat], mode: 'reassign' } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/^practitioner_ids: Pat acme-One is on leave on Thursday 12 July 2029 \(Annual leave\): choose practitioners at work/);
  });

  it('keeps a part-day leave out of the hours a run plans in', async () => {
    const day = '2029-07-19'; // Thursday
    await create({ practitioner_id: quinn, start_date: day, end_date: day, start_time: '08:00', end_time: '12:00', reason: 'Dentist' });
    await addVisit(day, quinn, '13:00', 153.04);
    const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: day, practitioner_ids: [quinn], mode: 'keep_practitioners' } });
    expect(created.status).toBe(201);
    await drainJobs(t.ctx);
    const { body } = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
    const [lane] = body.optimization.proposal.lanes;
    expect([clock(lane.shift_start), clock(lane.shift_end)]).toEqual(['12:00', '17:00']);
  });
});

describe('the dashboard', () => {
  it('counts the visits of the next 4 weeks booked while their practitioner is on leave, by practitioner-day', async () => {
    await create({ practitioner_id: pat, start_date: '2029-08-07', end_date: '2029-08-07' });
    await create({ practitioner_id: pat, start_date: '2029-09-11', end_date: '2029-09-11' });
    await create({ practitioner_id: quinn, start_date: '2029-08-08', end_date: '2029-08-08', start_time: '09:30', end_time: '11:00' });
    await addVisit('2029-08-07', pat, '09:00', 153.0);
    await addVisit('2029-08-07', pat, '11:00', 153.01);
    await addVisit('2029-08-07', quinn, '09:00', 153.04);
    await addVisit('2029-08-08', quinn, '09:00', 153.04); // 09:00–09:45 overlaps the leave from 09:30
    await addVisit('2029-08-08', quinn, '11:00', 153.04); // after it
    await addVisit('2029-09-11', pat, '09:00', 153.0); // more than 4 weeks ahead
    const { body } = await t.request('GET', '/api/dashboard?date=2029-08-06', { token: acme.tokens.staff });
    expect(body.overview.visits_on_leave).toEqual({
      count: 3,
      days: [
        { date: '2029-08-07', practitioner_id: pat, practitioner_name: 'Pat acme-One', visits: 2 },
        { date: '2029-08-08', practitioner_id: quinn, practitioner_name: 'Quinn acme-Two', visits: 1 },
      ],
    });
    // Pat's day of leave is not an unrouted day (Quinn's, at work, is).
    expect(body.overview.unrouted_days.filter((row: any) => row.date === '2029-08-07').map((row: any) => row.practitioner_id)).toEqual([quinn]);
    expect((await t.request('GET', '/api/dashboard?date=2029-08-20', { token: acme.tokens.admin })).body.overview.visits_on_leave).toEqual({
      count: 1, days: [{ date: '2029-09-11', practitioner_id: pat, practitioner_name: 'Pat acme-One', visits: 1 }],
    });
    expect((await t.request('GET', '/api/dashboard?date=2029-08-06', { token: other.tokens.admin })).body.overview.visits_on_leave).toEqual({ count: 0, days: [] });
  });
});

