// Re-planning the rest of today when a practitioner falls sick: the coordinator marks them unavailable from now (leave
// to the end of the day) and optimises today with Reassign. The practitioner's remaining visits go to the others (or
// are named as left out), their visits done this morning keep their times, practitioner and steps, the day checker
// finds no hard problem once applied, and the clients whose arrival moved are told the new time once.
//
// The business is put in a whole-hour zone where it is about 11:00 now, so the morning has passed and the afternoon is
// ahead whenever this runs.
import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, businessAccounts, clients, outboxEmails, practitioners } from '../../server/src/db/schema';
import { etaMessages } from '../../server/src/db/schema-reminders';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { enqueueJob } from '../../server/src/jobs/queue';
import { workingEveryDay } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let pat: number;
let quinn: number;

const offsetHours = ((11 - new Date().getUTCHours() + 36) % 24) - 12;
// Etc/GMT zones count the other way: Etc/GMT-3 is UTC+3.
const ZONE = `Etc/GMT${offsetHours <= 0 ? '+' : '-'}${Math.abs(offsetHours)}`;
const TODAY = Temporal.Now.plainDateISO(ZONE).toString();
/** Now, to the minute, plus `minutes`. */
const fromNow = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000);
const clockIn = (instant: Date) => Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(ZONE).toPlainTime().toString({ smallestUnit: 'minute' });

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  [pat, quinn] = acme.practitionerIds;
  await t.ctx.db.update(businessAccounts).set({ time_zone: ZONE }).where(eq(businessAccounts.id, acme.businessAccountId));
  for (const [id, lng] of [[pat, 152.93], [quinn, 153.11]] as const) {
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: 'Home', home_lat: -27.47, home_lng: lng, working_hours: workingEveryDay('00:00', '23:59'), time_zone: ZONE,
    }).where(eq(practitioners.id, id));
  }
}, 120_000);
afterAll(() => t.close());

let clientCount = 0;
async function addVisit(practitionerId: number, startsAt: Date, lng: number): Promise<number> {
  const [client] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: `C${++clientCount}`, last_name: 'Client', lat: -27.47, lng, time_zone: ZONE,
    email: `client${clientCount}@replan.test`,
  }).returning();
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 30 * 60_000), arrive_at: startsAt, lat: -27.47, lng,
  }).returning({ id: appointments.id });
  return row.id;
}

let stepCount = 0;
async function stepAt(id: number, step: 'on_my_way' | 'arrived' | 'done', at: Date) {
  const answer = await t.request('POST', `/api/appointments/${id}/steps`, {
    token: acme.tokens.practitioner, body: { idempotency_key: `replan-${process.pid}-${++stepCount}`, step, at: at.toISOString() },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

const hardIssues = async () => {
  const day = await t.request('GET', `/api/schedule/issues?date=${TODAY}`, { token: acme.tokens.admin });
  expect(day.status, JSON.stringify(day.body)).toBe(200);
  return day.body.issues.filter((issue: any) => issue.hard);
};
const visit = async (id: number) => (await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.admin })).body.appointment;

describe('a practitioner falls sick in the middle of the day', () => {
  it("records leave from now, and Reassign gives the rest of their day to the others; the morning's visits stay as they were", async () => {
    // Pat (the practitioner user) did two visits this morning; three are left this afternoon. Quinn has one.
    const morning = [await addVisit(pat, fromNow(-180), 152.95), await addVisit(pat, fromNow(-90), 152.97)];
    for (const [index, id] of morning.entries()) {
      const start = fromNow(index === 0 ? -180 : -90);
      await stepAt(id, 'on_my_way', new Date(start.getTime() - 15 * 60_000));
      await stepAt(id, 'arrived', start);
      await stepAt(id, 'done', new Date(start.getTime() + 30 * 60_000));
    }
    const afternoon = [await addVisit(pat, fromNow(90), 153.0), await addVisit(pat, fromNow(180), 153.02), await addVisit(pat, fromNow(270), 153.04)];
    await addVisit(quinn, fromNow(120), 153.08);
    const morningBefore = await Promise.all(morning.map(visit));

    // Pat calls in sick: the coordinator (STAFF) marks them unavailable from now, which is leave to the end of the day.
    const leave = await t.request('POST', '/api/practitioner_leave/today', { token: acme.tokens.staff, body: { practitioner_id: pat, reason: 'Sick' } });
    expect(leave.status, JSON.stringify(leave.body)).toBe(201);
    expect(leave.body.leave).toMatchObject({ practitioner_id: pat, start_date: TODAY, end_date: TODAY, start_time: clockIn(fromNow(0)), end_time: '23:59', reason: 'Sick' });
    // The checker names Pat's afternoon visits as booked in leave.
    const before = await hardIssues();
    for (const id of afternoon) expect(before.some((issue: any) => issue.appointment_ids.includes(id)), `visit ${id} flagged`).toBe(true);

    const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.staff, body: { date: TODAY, practitioner_ids: [pat, quinn], mode: 'reassign' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await drainJobs(t.ctx);
    const run = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.staff })).body.optimization;
    expect(run.status, run.error_message).toBe('COMPLETE');
    const placed = new Map<number, { practitioner: number; arriveAt: string; kept: string | null }>(run.proposal.lanes.flatMap((lane: any) => lane.after.stops
      .map((stop: any) => [stop.appointment_id, { practitioner: lane.practitioner_id, arriveAt: stop.arrive_at, kept: stop.kept }])));
    // Every afternoon visit goes to Quinn, after now; the morning's stay Pat's, kept as started.
    for (const id of afternoon) {
      expect(placed.get(id)?.practitioner, `visit ${id}`).toBe(quinn);
      expect(Date.parse(placed.get(id)!.arriveAt)).toBeGreaterThan(Date.now());
    }
    for (const id of morning) expect(placed.get(id)).toMatchObject({ practitioner: pat, kept: 'started' });
    expect(run.proposal.unplaced).toEqual([]);

    // The clients to tell: those whose arrival moves by at least the setting (15 min) or who get another practitioner.
    const told = run.proposal.changes.filter((change: any) => change.old_practitioner_id !== change.new_practitioner_id
      || Math.abs(Date.parse(change.new_arrive_at) - Date.parse(change.old_arrive_at)) >= 15 * 60_000);
    expect(told.length).toBeGreaterThan(0);
    const applied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: acme.tokens.staff, body: { notify_clients: true } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.clients_told).toBe(told.length);
    await drainJobs(t.ctx);
    const messages = await t.ctx.db.select().from(etaMessages).where(eq(etaMessages.business_account_id, acme.businessAccountId));
    expect(messages.filter((message) => message.kind === 'replan').map((message) => [message.appointment_id, message.kind, message.status]).sort())
      .toEqual(told.map((change: any) => [change.appointment_id, 'replan', 'SENT']).sort());
    for (const change of told) {
      const [{ address }] = await t.ctx.db.select({ address: clients.email }).from(appointments)
        .innerJoin(clients, eq(clients.id, appointments.client_id)).where(eq(appointments.id, change.appointment_id));
      const emails = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, address!));
      expect(emails, address ?? '').toHaveLength(1);
      expect(emails[0].subject).toMatch(/^A new (time|practitioner) for your visit from acme Care$/);
      expect(emails[0].text_body).toContain(`Quinn should arrive at about`);
    }
    // Once: the same messages queued again (a retried job) send nothing more.
    for (const change of told) {
      await enqueueJob(t.ctx.db, {
        businessAccountId: acme.businessAccountId, kind: 'ETA_MESSAGE', startDate: TODAY, endDate: TODAY,
        params: { appointment_id: change.appointment_id, visit_step_id: null, kind: 'replan' },
      });
    }
    await drainJobs(t.ctx);
    const toClients = (await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.business_account_id, acme.businessAccountId)))
      .filter((email) => email.to_address.endsWith('@replan.test'));
    expect(toClients).toHaveLength(told.length);
    for (const id of afternoon) expect((await visit(id)).practitioner.id).toBe(quinn);
    // The morning's visits: the same practitioner, arrival and steps.
    const morningAfter = await Promise.all(morning.map(visit));
    for (const [index, after] of morningAfter.entries()) {
      expect(after).toMatchObject({
        practitioner: { id: pat }, arrive_at: morningBefore[index].arrive_at, visit_state: 'done', visit: morningBefore[index].visit,
      });
    }
    expect(await hardIssues()).toEqual([]);
  });
});

describe('the messages of a re-plan', () => {
  it('tells a client once however many of their visits move, and tells them of a new practitioner however little the time moves; the practitioners whose day changed get an e-mail', async () => {
    const sick = await createBusinessFixture(t, 'sick');
    const [ann, ben] = sick.practitionerIds;
    await t.ctx.db.update(businessAccounts).set({ time_zone: ZONE }).where(eq(businessAccounts.id, sick.businessAccountId));
    for (const [id, lng] of [[ann, 152.93], [ben, 153.11]] as const) {
      await t.ctx.db.update(practitioners).set({
        start_place_kind: 'home', home_address: 'Home', home_lat: -27.47, home_lng: lng, working_hours: workingEveryDay('00:00', '23:59'), time_zone: ZONE,
        email: id === ben ? 'quinn@sick.test' : null,
      }).where(eq(practitioners.id, id));
    }
    // One client with two of Pat's afternoon visits, another with one.
    const [twice, once] = await t.ctx.db.insert(clients).values(['Twice', 'Once'].map((first_name) => ({
      business_account_id: sick.businessAccountId, first_name, last_name: 'Client', lat: -27.47, lng: 153.0, time_zone: ZONE, email: `${first_name.toLowerCase()}@sick.test`,
    }))).returning();
    const visits = await t.ctx.db.insert(appointments).values([[twice, 90], [twice, 240], [once, 150]].map(([client, minutes]) => ({
      business_account_id: sick.businessAccountId, client_id: (client as typeof twice).id, practitioner_id: ann, appointment_type_id: sick.appointmentTypeIds[0],
      starts_at: fromNow(minutes as number), ends_at: fromNow((minutes as number) + 30), arrive_at: fromNow(minutes as number), lat: -27.47, lng: 153.0,
    }))).returning({ id: appointments.id });

    expect((await t.request('POST', '/api/practitioner_leave/today', { token: sick.tokens.staff, body: { practitioner_id: ann } })).status).toBe(201);
    const created = await t.request('POST', '/api/optimizations', { token: sick.tokens.staff, body: { date: TODAY, practitioner_ids: [ann, ben], mode: 'reassign' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await drainJobs(t.ctx);
    const run = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: sick.tokens.staff })).body.optimization;
    expect(run.status, run.error_message).toBe('COMPLETE');
    expect(run.proposal.changes.map((change: any) => change.new_practitioner_id)).toEqual([ben, ben, ben]);

    const applied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: sick.tokens.staff, body: { notify_clients: true } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.clients_told).toBe(2);
    await drainJobs(t.ctx);
    const outbox = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.business_account_id, sick.businessAccountId));
    const to = (address: string) => outbox.filter((email) => email.to_address === address);
    // One message each, about the client's first visit, saying the practitioner is new.
    for (const address of ['twice@sick.test', 'once@sick.test']) {
      expect(to(address), address).toHaveLength(1);
      expect(to(address)[0].subject).toBe('A new practitioner for your visit from sick Care');
      expect(to(address)[0].text_body).toMatch(/has a new practitioner: Quinn should arrive at about /);
    }
    const firstOfTwice = run.proposal.changes.filter((change: any) => change.appointment_id !== visits[2].id)
      .sort((a: any, b: any) => Date.parse(a.new_arrive_at) - Date.parse(b.new_arrive_at))[0];
    const toldTwice = await t.ctx.db.select().from(etaMessages).where(eq(etaMessages.business_account_id, sick.businessAccountId));
    expect(toldTwice.map((message) => message.appointment_id).sort()).toEqual([firstOfTwice.appointment_id, visits[2].id].sort());
    // Pat (their login) lost three visits, Quinn (the practitioner's own address) gained them.
    const [pat] = to('practitioner@sick.test');
    expect(pat.subject).toMatch(/^Your day changed: /);
    expect(pat.text_body).toContain('Sid re-planned your day');
    const takenOff = pat.text_body.split('\n').find((line) => line.startsWith('Taken off your day: '));
    expect(takenOff?.match(/(Twice|Once) Client at \d{1,2}:\d\d [ap]m/g)?.sort()).toEqual([expect.stringMatching(/^Once/), expect.stringMatching(/^Twice/), expect.stringMatching(/^Twice/)]);
    expect(pat.text_body).not.toContain('Added:');
    const [quinn] = to('quinn@sick.test');
    expect(quinn.text_body).toMatch(/Added: (Twice|Once) Client at /);
    expect(quinn.text_body).not.toContain('Taken off');
    expect(outbox).toHaveLength(4);
  });
});

describe('Unavailable from now', () => {
  it("is today's leave from a given time to 23:59, refused in words for 23:59 and another business's practitioner", async () => {
    const later = await t.request('POST', '/api/practitioner_leave/today', { token: acme.tokens.staff, body: { practitioner_id: quinn, from_time: '22:30' } });
    expect(later.status, JSON.stringify(later.body)).toBe(201);
    expect(later.body.leave).toMatchObject({ start_date: TODAY, start_time: '22:30', end_time: '23:59', reason: null, created_by_name: expect.stringContaining('Sid') });
    const endOfDay = await t.request('POST', '/api/practitioner_leave/today', { token: acme.tokens.staff, body: { practitioner_id: quinn, from_time: '23:59' } });
    expect(endOfDay.status).toBe(422);
    expect(endOfDay.body.message).toContain('from_time');
    const other = await createBusinessFixture(t, 'other');
    const theirs = await t.request('POST', '/api/practitioner_leave/today', { token: acme.tokens.staff, body: { practitioner_id: other.practitionerIds[0] } });
    expect(theirs.status).toBe(422);
    expect(theirs.body.message).toContain('practitioner_id');
    expect((await t.request('POST', '/api/practitioner_leave/today', { token: acme.tokens.practitioner, body: { practitioner_id: pat } })).status).toBe(403);
  });
});

describe('re-planning never moves a visit under way (issue 34)', () => {
  /**
   * A business of its own for each case: Pat (the practitioner's login) at a visit, leave for Pat from `leaveFrom`
   * (minutes from now) to 23:59, and a Reassign run of Pat and Quinn applied. Pat's hours are `hours`.
   */
  async function replanAround(label: string, { hours, leaveFrom, visitFrom, steps }: {
    hours: [string, string]; leaveFrom: number; visitFrom: number; steps: ('on_my_way' | 'arrived' | 'done')[];
  }) {
    const business = await createBusinessFixture(t, label);
    const [own, other] = business.practitionerIds;
    await t.ctx.db.update(businessAccounts).set({ time_zone: ZONE }).where(eq(businessAccounts.id, business.businessAccountId));
    for (const [id, lng, shift] of [[own, 152.93, hours], [other, 153.11, ['00:00', '23:59']]] as const) {
      await t.ctx.db.update(practitioners).set({
        start_place_kind: 'home', home_address: 'Home', home_lat: -27.47, home_lng: lng, working_hours: workingEveryDay(shift[0], shift[1]), time_zone: ZONE,
      }).where(eq(practitioners.id, id));
    }
    const book = async (practitionerId: number, minutes: number, lng: number) => {
      const [client] = await t.ctx.db.insert(clients).values({
        business_account_id: business.businessAccountId, first_name: `C${++clientCount}`, last_name: 'Client', lat: -27.47, lng, time_zone: ZONE,
      }).returning();
      const startsAt = fromNow(minutes);
      const [row] = await t.ctx.db.insert(appointments).values({
        business_account_id: business.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: business.appointmentTypeIds[0],
        starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 45 * 60_000), arrive_at: startsAt, lat: -27.47, lng,
      }).returning({ id: appointments.id });
      return row.id;
    };
    const underWay = await book(own, visitFrom, 152.95);
    for (const [index, step] of steps.entries()) {
      const answer = await t.request('POST', `/api/appointments/${underWay}/steps`, {
        token: business.tokens.practitioner, body: { idempotency_key: `under-way-${label}-${index}`, step, at: fromNow(visitFrom + index * 5).toISOString() },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    }
    const later = await book(own, 120, 153.0);
    await book(other, 150, 153.08);
    const read = async (id: number) => (await t.request('GET', `/api/appointments/${id}`, { token: business.tokens.admin })).body.appointment;
    const before = await read(underWay);

    const leave = await t.request('POST', '/api/practitioner_leave', {
      token: business.tokens.admin,
      body: { practitioner_id: own, start_date: TODAY, end_date: TODAY, start_time: clockIn(fromNow(leaveFrom)), end_time: '23:59', reason: 'Sick' },
    });
    expect(leave.status, JSON.stringify(leave.body)).toBe(201);
    const created = await t.request('POST', '/api/optimizations', { token: business.tokens.staff, body: { date: TODAY, practitioner_ids: [own, other], mode: 'reassign' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await drainJobs(t.ctx);
    const run = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: business.tokens.staff })).body.optimization;
    expect(run.status, run.error_message).toBe('COMPLETE');
    const applied = await t.request('POST', `/api/optimizations/${run.id}/apply`, { token: business.tokens.staff, body: {} });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    return { run, own, other, before, after: await read(underWay), later: await read(later) };
  }

  it.each([
    // Pat started before their hours, and is unavailable from now: their whole day is leave, so they are left out of the run.
    { case: 'leave covering the whole shift', hours: ['12:00', '23:59'] as [string, string], leaveFrom: 0, visitFrom: -20, steps: ['on_my_way', 'arrived'] as const },
    { case: 'leave from before the visit', hours: ['00:00', '23:59'] as [string, string], leaveFrom: -60, visitFrom: -20, steps: ['on_my_way', 'arrived'] as const },
    { case: 'leave from during the visit', hours: ['00:00', '23:59'] as [string, string], leaveFrom: 0, visitFrom: -20, steps: ['arrived'] as const },
    { case: 'leave from after the visit', hours: ['00:00', '23:59'] as [string, string], leaveFrom: 0, visitFrom: -90, steps: ['on_my_way', 'arrived', 'done'] as const },
  ])('$case: the visit keeps its practitioner, its time and its steps; the rest of the day goes to the others', async ({ case: name, ...setup }) => {
    const { run, own, other, before, after, later } = await replanAround(name.replaceAll(' ', '-'), { ...setup, steps: [...setup.steps] });
    expect(run.proposal.changes.map((change: any) => change.appointment_id)).not.toContain(before.id);
    expect(after).toMatchObject({ practitioner: { id: own }, arrive_at: before.arrive_at, visit_state: before.visit_state, visit: before.visit });
    expect(later.practitioner.id).toBe(other);
  });

  it('Insert into a route refuses a visit under way in words, whoever the chosen practitioners are', async () => {
    const id = await addVisit(pat, fromNow(200), 152.96);
    await stepAt(id, 'on_my_way', fromNow(0));
    const answer = await t.request('POST', `/api/appointments/${id}/insertion`, { token: acme.tokens.staff, body: { practitioner_ids: [quinn] } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body.message).toContain('has started');
  });
});
