// A visit as it happens (issue 26, first slice): the practitioner's phone records On my way → Arrived → Done, or Could
// not attend with a reason; a coordinator reopens. Order, exactly once per idempotency key, own visits only, steps judged
// by their own time when they arrive late, tenants, roles, input refused in words, and an arrival far from the client flagged.
import { and, eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../server/src/db/schema';
import { visitSteps } from '../../server/src/db/schema-visits';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt } from './support/routing';

const ZONE = 'Australia/Brisbane';
// The visit's point (the fixture's client in New Farm); 0.001° of latitude is about 111 m.
const POINT = { lat: -27.467, lng: 153.047 };

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let colleague: number;
let today: string;
let keys = 0;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  [, colleague] = acme.practitionerIds;
  today = Temporal.Now.plainDateISO(ZONE).toString();
}, 120_000);
afterAll(() => t.close());

/** A visit of the day at 23:00 Brisbane (so any time of the test's day is after the day began). */
async function addVisit(options: { date?: string; practitionerId?: number; business?: BusinessFixture; point?: typeof POINT | null } = {}): Promise<number> {
  const business = options.business ?? acme;
  const starts = brisbaneAt(options.date ?? today, '23:00');
  const point = options.point === undefined ? POINT : options.point;
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: business.businessAccountId, client_id: business.clientIds[0], practitioner_id: options.practitionerId ?? business.practitionerIds[0],
    appointment_type_id: business.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + 45 * 60_000), arrive_at: starts,
    lat: point?.lat ?? null, lng: point?.lng ?? null,
  }).returning({ id: appointments.id });
  return row.id;
}

const newKey = () => `test-step-${process.pid}-${(keys += 1)}`;

function step(id: number, body: Record<string, unknown>, token = acme.tokens.practitioner) {
  return t.request('POST', `/api/appointments/${id}/steps`, { token, body: { idempotency_key: newKey(), ...body } });
}

const stored = (id: number) => t.ctx.db.select().from(visitSteps).where(eq(visitSteps.appointment_id, id));

describe('the order of a visit', () => {
  it('goes On my way → Arrived → Done, and the appointment and the list show the state and the actual times', async () => {
    const id = await addVisit();
    const onTheWay = await step(id, { step: 'on_my_way', lat: -27.5, lng: 153.0, accuracy_m: 25 });
    expect(onTheWay.status, JSON.stringify(onTheWay.body)).toBe(201);
    expect(onTheWay.body.step).toMatchObject({ step: 'on_my_way', accuracy_m: 25, far_from_client: false, recorded_by_name: expect.stringContaining('Pat') });
    expect(onTheWay.body.appointment.visit_state).toBe('on_my_way');

    const tooSoon = await step(id, { step: 'done' });
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body.message).toMatch(/after Arrived/);

    const arrived = await step(id, { step: 'arrived', lat: POINT.lat + 0.0005, lng: POINT.lng, accuracy_m: 12 });
    expect(arrived.status).toBe(201);
    expect(arrived.body.step.distance_m).toBeGreaterThan(40);
    expect(arrived.body.step.far_from_client).toBe(false);

    const backwards = await step(id, { step: 'on_my_way' });
    expect(backwards.status).toBe(409);
    expect(backwards.body.message).toMatch(/already arrived/);

    const done = await step(id, { step: 'done', note: '  Dressing changed.  ' });
    expect(done.status).toBe(201);
    expect(done.body.step.note).toBe('Dressing changed.');

    const afterDone = await step(id, { step: 'arrived' });
    expect(afterDone.status).toBe(409);
    expect(afterDone.body.message).toMatch(/already done.*coordinator can reopen/);

    const detail = await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.staff });
    expect(detail.body.appointment.visit_state).toBe('done');
    expect(detail.body.appointment.visit).toMatchObject({
      on_my_way_at: onTheWay.body.step.at, arrived_at: arrived.body.step.at, done_at: done.body.step.at, could_not_attend_at: null,
      arrived_far_from_client: false, note: 'Dressing changed.', reason: null,
    });
    const list = await t.request('GET', `/api/appointments?start_date=${today}&end_date=${today}`, { token: acme.tokens.staff });
    const item = list.body.appointments.find((appointment: { id: number }) => appointment.id === id);
    expect(item).toMatchObject({ visit_state: 'done', visit: { done_at: done.body.step.at, note: 'Dressing changed.' } });

    const log = await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.staff });
    const visitChanges = log.body.versions.flatMap((version: { changes: { field: string; to: string }[] }) => version.changes.filter((change) => change.field === 'visit_state'));
    expect(visitChanges.map((change: { to: string }) => change.to)).toEqual(['On my way', 'Arrived', 'Done']);
  });

  it('lets Arrived come without On my way, keeps the phone time sent, and refuses a time before the step before it', async () => {
    const id = await addVisit();
    // Ten minutes ago, but never before the day began (just after midnight in Brisbane).
    const earlier = Math.max(Date.now() - 10 * 60_000, brisbaneAt(today, '00:00').getTime() + 60_000);
    const arrived = await step(id, { step: 'arrived', at: new Date(earlier).toISOString() });
    expect(arrived.status).toBe(201);
    expect(arrived.body.step.at).toBe(new Date(earlier).toISOString());
    const before = await step(id, { step: 'done', at: new Date(earlier - 30_000).toISOString() });
    expect(before.status).toBe(422);
    expect(before.body.message).toMatch(/Done cannot be before Arrived/);
    expect((await step(id, { step: 'done' })).status).toBe(201);
  });

  it('records a step from a phone whose clock runs a few minutes fast at the time it arrived', async () => {
    const id = await addVisit();
    const sent = Date.now();
    const arrived = await step(id, { step: 'arrived', at: new Date(sent + 5 * 60_000).toISOString() });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(201);
    expect(Date.parse(arrived.body.step.at)).toBeGreaterThanOrEqual(sent);
    expect(Date.parse(arrived.body.step.at)).toBeLessThanOrEqual(Date.now());
  });

  it('records Could not attend with its reason, and only a coordinator reopens the visit', async () => {
    const id = await addVisit();
    const missed = await step(id, { step: 'could_not_attend', reason: 'client_not_home' });
    expect(missed.status).toBe(201);
    expect(missed.body.appointment).toMatchObject({ visit_state: 'could_not_attend', visit: { reason: 'client_not_home', could_not_attend_at: missed.body.step.at } });

    const byPractitioner = await step(id, { step: 'reopened' });
    expect(byPractitioner.status).toBe(403);
    expect(byPractitioner.body.message).toMatch(/Only a coordinator/);
    const reopened = await step(id, { step: 'reopened' }, acme.tokens.staff);
    expect(reopened.status).toBe(201);
    expect(reopened.body.appointment).toMatchObject({ visit_state: 'not_started', visit: null });
    expect((await step(id, { step: 'reopened' }, acme.tokens.admin)).status).toBe(409);

    // After reopening, the visit's times start again.
    const again = await step(id, { step: 'on_my_way' });
    expect(again.status).toBe(201);
    expect(again.body.appointment.visit).toMatchObject({ on_my_way_at: again.body.step.at, could_not_attend_at: null, reason: null });
  });

  it('refuses a step of a cancelled visit', async () => {
    const id = await addVisit();
    await t.ctx.db.update(appointments).set({ cancelled_at: new Date() }).where(eq(appointments.id, id));
    const refused = await step(id, { step: 'on_my_way' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/cancelled/);
  });
});

describe('exactly once', () => {
  it('answers the same idempotency key with the first result and stores the step once', async () => {
    const id = await addVisit();
    const body = { step: 'arrived', idempotency_key: newKey(), lat: POINT.lat, lng: POINT.lng };
    const first = await t.request('POST', `/api/appointments/${id}/steps`, { token: acme.tokens.practitioner, body });
    const second = await t.request('POST', `/api/appointments/${id}/steps`, { token: acme.tokens.practitioner, body });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.step).toEqual(first.body.step);
    expect(await stored(id)).toHaveLength(1);

    const sameKeyOtherStep = await t.request('POST', `/api/appointments/${id}/steps`, { token: acme.tokens.practitioner, body: { ...body, step: 'done' } });
    expect(sameKeyOtherStep.status).toBe(409);
    expect(sameKeyOtherStep.body.message).toMatch(/already used for another step/);
  });

  it('stores one step when the same key is sent twice at once', async () => {
    const id = await addVisit();
    const body = { step: 'on_my_way', idempotency_key: newKey() };
    const answers = await Promise.all([0, 1, 2].map(() => t.request('POST', `/api/appointments/${id}/steps`, { token: acme.tokens.practitioner, body })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.step.id)).size).toBe(1);
    expect(await stored(id)).toHaveLength(1);
  });
});

describe('who may step which visit', () => {
  it('lets a practitioner step only their own visits (another practitioner’s answers 404)', async () => {
    const theirs = await addVisit({ practitionerId: colleague });
    const refused = await step(theirs, { step: 'on_my_way' });
    expect(refused.status).toBe(404);
    expect(await stored(theirs)).toHaveLength(0);
    // The office may record it for them (a phone call from the road).
    expect((await step(theirs, { step: 'on_my_way' }, acme.tokens.staff)).status).toBe(201);
  });

  it('refuses a step before the visit’s day', async () => {
    const inThreeDays = Temporal.PlainDate.from(today).add({ days: 3 }).toString();
    const early = await step(await addVisit({ date: inThreeDays }), { step: 'on_my_way' });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/can be recorded from that day/);
  });

  it('answers 404 for another business’s visit, to every role', async () => {
    const theirs = await addVisit({ business: other });
    for (const token of [acme.tokens.admin, acme.tokens.staff, acme.tokens.practitioner]) {
      const refused = await step(theirs, { step: 'on_my_way' }, token);
      expect(refused.status).toBe(404);
    }
    expect(await stored(theirs)).toHaveLength(0);
    expect((await step(theirs, { step: 'on_my_way' }, other.tokens.admin)).status).toBe(201);
  });

  it('asks for a login', async () => {
    const id = await addVisit();
    const anonymous = await t.request('POST', `/api/appointments/${id}/steps`, { body: { step: 'on_my_way', idempotency_key: newKey() } });
    expect(anonymous.status).toBe(401);
  });
});

describe('steps that reach the server late (issue 34)', () => {
  const daysAgo = (days: number) => Temporal.PlainDate.from(today).subtract({ days }).toString();
  const changeLog = async (id: number) => (await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.staff })).body.versions;

  it('records a step taken on the visit’s day that reaches the server days later (a phone without signal), at its own time', async () => {
    const id = await addVisit({ date: daysAgo(2) });
    const arrived = await step(id, { step: 'arrived', at: brisbaneAt(daysAgo(2), '23:04').toISOString() });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(201);
    expect(arrived.body.step.at).toBe(brisbaneAt(daysAgo(2), '23:04').toISOString());
    // A late visit finishing after midnight: Done the next morning is still the visit's.
    const done = await step(id, { step: 'done', at: brisbaneAt(daysAgo(1), '00:10').toISOString() });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.appointment.visit_state).toBe('done');
  });

  it('refuses from the phone a step taken on a later day than its visit, or sent more than 7 days after it, and shows the refusal on the change log', async () => {
    const lateDay = await addVisit({ date: daysAgo(3) });
    const tappedToday = await step(lateDay, { step: 'arrived' });
    expect(tappedToday.status).toBe(403);
    expect(tappedToday.body).toMatchObject({ code: 'VISIT_DAY_CLOSED', message: expect.stringMatching(/a step taken after the day that follows it cannot be recorded from the phone/) });
    const weekOld = await addVisit({ date: daysAgo(8) });
    const tooLate = await step(weekOld, { step: 'arrived', at: brisbaneAt(daysAgo(8), '23:02').toISOString() });
    expect(tooLate.status).toBe(403);
    expect(tooLate.body.message).toMatch(/more than 7 days ago/);
    // The office records it.
    expect((await step(weekOld, { step: 'arrived', at: brisbaneAt(daysAgo(8), '23:02').toISOString() }, acme.tokens.staff)).status).toBe(201);
    const log = await changeLog(weekOld);
    expect(log[0]).toMatchObject({ whodunnit: 'Pat', changes: [{ kind: 'sentence', label: expect.stringMatching(/^Arrived taken at 23:02 on .+ was sent from the phone and not recorded: This step was taken more than 7 days ago/) }] });
  });

  it('refuses a step taken before the office reopened the visit (an offline phone sending it afterwards), and says so to both', async () => {
    const id = await addVisit({ date: daysAgo(1) });
    expect((await step(id, { step: 'arrived', at: brisbaneAt(daysAgo(1), '23:02').toISOString() })).status).toBe(201);
    expect((await step(id, { step: 'reopened' }, acme.tokens.staff)).status).toBe(201);
    const done = await step(id, { step: 'done', at: brisbaneAt(daysAgo(1), '23:40').toISOString() });
    expect(done.status).toBe(409);
    expect(done.body).toMatchObject({ code: 'VISIT_REOPENED', message: expect.stringMatching(/^Sid reopened this visit at \d\d:\d\d, after this Done \(23:40\): it was not recorded/) });
    const visit = (await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.staff })).body.appointment;
    expect(visit.visit_state).toBe('not_started');
    const refusals = (await changeLog(id)).filter((version: any) => version.object_changes.step_not_recorded);
    expect(refusals).toHaveLength(1);
    expect(refusals[0].changes[0].label).toContain(done.body.message);
    // A step taken after the reopening is recorded.
    expect((await step(id, { step: 'on_my_way' })).status).toBe(201);
  });

  it('says a visit given to another practitioner meanwhile was theirs, and writes the refused step on its change log', async () => {
    const tomorrow = Temporal.PlainDate.from(today).add({ days: 1 }).toString();
    const id = await addVisit({ date: tomorrow });
    const moved = await t.request('PATCH', `/api/appointments/${id}/move`, { token: acme.tokens.staff, body: { practitioner_id: colleague } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const refused = await step(id, { step: 'on_my_way' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'VISIT_REASSIGNED', message: expect.stringMatching(/^This visit was given to another practitioner by Sid at .+: your step was not recorded\. Ask the office\.$/) });
    expect((await changeLog(id)).at(-1)).toMatchObject({ whodunnit: 'Pat', changes: [{ label: expect.stringContaining('not recorded: This visit was given to another practitioner') }] });
    // A visit that was never theirs stays unknown to them.
    expect((await step(await addVisit({ date: tomorrow, practitionerId: colleague }), { step: 'on_my_way' })).status).toBe(404);
  });

  it('writes a note that ends its own sentence without a semicolon after it', async () => {
    const id = await addVisit({ date: daysAgo(1) });
    await step(id, { step: 'arrived', at: brisbaneAt(daysAgo(1), '23:02').toISOString() });
    await step(id, { step: 'done', at: brisbaneAt(daysAgo(1), '23:40').toISOString(), note: 'Meds given, all well.' });
    expect((await changeLog(id)).at(-1).reason).toBe('Done at 23:40; note: Meds given, all well. no location sent');
  });
});

describe('bad input', () => {
  it.each([
    [{ step: 'could_not_attend' }, /reason: say why/],
    [{ step: 'could_not_attend', reason: 'other' }, /reason_text: say in words/],
    [{ step: 'arrived', reason: 'refused' }, /only Could not attend takes a reason/],
    [{ step: 'arrived', note: 'hello' }, /only Done takes a note/],
    [{ step: 'arrived', lat: -27.4 }, /lat and lng go together/],
    [{ step: 'arrived', at: new Date(Date.now() + 3600_000).toISOString() }, /in the future/],
    [{ step: 'arrived', at: brisbaneAt(Temporal.PlainDate.from(Temporal.Now.plainDateISO(ZONE)).subtract({ days: 1 }).toString(), '23:00').toISOString() }, /before the visit's day/],
    [{ step: 'arrived', at: 'soon' }, /at/],
    [{ step: 'teleported' }, /step/],
    [{ step: 'arrived', lat: 200, lng: 0 }, /lat/],
  ])('refuses %j with 422 and a message', async (body, message) => {
    const id = await addVisit();
    const refused = await step(id, body);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.message).toMatch(message);
    expect(await stored(id)).toHaveLength(0);
  });

  it('refuses a step without an idempotency key', async () => {
    const id = await addVisit();
    const refused = await t.request('POST', `/api/appointments/${id}/steps`, { token: acme.tokens.practitioner, body: { step: 'arrived' } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/idempotency_key/);
  });
});

describe('an arrival far from the client', () => {
  it('is recorded and flagged past the business’s distance (default 300 m), not refused', async () => {
    const far = await addVisit();
    const arrived = await step(far, { step: 'arrived', lat: POINT.lat + 0.01, lng: POINT.lng, accuracy_m: 8 }); // about 1.1 km
    expect(arrived.status).toBe(201);
    expect(arrived.body.step.far_from_client).toBe(true);
    expect(arrived.body.step.distance_m).toBeGreaterThan(1000);
    expect(arrived.body.appointment.visit).toMatchObject({ arrived_far_from_client: true, arrived_distance_m: arrived.body.step.distance_m });

    const near = await addVisit();
    const close = await step(near, { step: 'arrived', lat: POINT.lat + 0.002, lng: POINT.lng }); // about 220 m
    expect(close.body.step.far_from_client).toBe(false);

    const noPoint = await addVisit({ point: null });
    const unknown = await step(noPoint, { step: 'arrived', lat: POINT.lat, lng: POINT.lng });
    expect(unknown.body.step).toMatchObject({ distance_m: null, far_from_client: false });
    const [row] = await t.ctx.db.select().from(visitSteps).where(and(eq(visitSteps.appointment_id, noPoint), eq(visitSteps.step, 'arrived')));
    expect(row).toMatchObject({ lat: POINT.lat, lng: POINT.lng });
  });

  it('follows the distance an admin sets in the account settings', async () => {
    const setting = await t.request('PATCH', '/api/business_account', { token: other.tokens.admin, body: { arrival_far_metres: 2000 } });
    expect(setting.status).toBe(200);
    expect(setting.body.business_account.arrival_far_metres).toBe(2000);
    const id = await addVisit({ business: other });
    const arrived = await step(id, { step: 'arrived', lat: POINT.lat + 0.01, lng: POINT.lng }, other.tokens.admin);
    expect(arrived.body.step).toMatchObject({ far_from_client: false, distance_m: expect.any(Number) });
    expect(arrived.body.step.distance_m).toBeGreaterThan(1000);
    expect((await t.request('PATCH', '/api/business_account', { token: other.tokens.admin, body: { arrival_far_metres: 10 } })).status).toBe(422);
  });
});
