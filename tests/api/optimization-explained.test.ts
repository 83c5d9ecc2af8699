// A proposal that explains itself (issue 35): each change's minutes moved from the agreed time, its reasons and the
// practitioners' professions, the biggest moves first; figures that count what stays unplaced where it stays; the
// unplaced reason "leave"; a preferred practitioner not kept says why, an excluded one is never given the visit; and
// the same day, settings and seed give the same proposal (the seed stored with the run and shown, a new one otherwise).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, practitioners } from '../../server/src/db/schema';
import { practitionerLeave } from '../../server/src/db/schema-leave';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt as at, homesWestAndEast, visitsOnALine } from './support/routing';
import { drainJobs } from './support/jobs';

let t: TestApp;
let acme: BusinessFixture;
let line: ReturnType<typeof visitsOnALine>;
let pat: number;
let quinn: number;

beforeAll(async () => {
  // Two searches side by side, as on a server with a core to spare: their meetings must not make runs differ.
  t = await startTestApp({ optimizerMaxSearchMs: 300, optimizerThreads: 2 });
  acme = await createBusinessFixture(t, 'acme');
  [pat, quinn] = acme.practitionerIds;
  line = visitsOnALine(t, acme);
  await homesWestAndEast(t, acme, '08:00', '17:00');
  await t.ctx.db.update(practitioners).set({ profession: 'Registered Nurse' }).where(eq(practitioners.id, pat));
  await t.ctx.db.update(practitioners).set({ profession: 'Support Worker' }).where(eq(practitioners.id, quinn));
  // Visits may move anywhere in the day at no price (the tolerance and the price of a move are not what these tests are about).
  const rules = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { tolerance_minutes: 720, client_gap_minutes: 0, move_price: 0 } });
  expect(rules.status).toBe(200);
}, 120_000);
afterAll(() => t.close());

const addClient = (name: string, lng: number) => line.addClient(lng, name);
const addVisit = (date: string, practitionerId: number, clientId: number, hhmm: string) => line.addVisit(date, practitionerId, clientId, hhmm);
/** A day whose visits zig-zag along an east–west line, hourly from 09:00: a bad order. */
const zigzagDay = (date: string, practitionerId: number, lngs = [153.07, 152.97, 153.05, 152.99, 153.03, 153.01]) => line.zigzagDay(date, practitionerId, lngs);

async function optimise(body: Record<string, unknown>) {
  const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const read = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
  expect(read.status).toBe(200);
  expect(read.body.optimization.status, read.body.optimization.error_message).toBe('COMPLETE');
  return read.body.optimization;
}

const plannedDay = (proposal: any) => proposal.lanes.map((lane: any) => [lane.practitioner_id, lane.after.stops.map((stop: any) => [stop.appointment_id, stop.arrive_at])]);

describe('each change of a proposal, explained', () => {
  const DAY = '2029-11-22'; // Thursday
  let run: any;

  beforeAll(async () => {
    await zigzagDay(DAY, pat);
    run = await optimise({ date: DAY, mode: 'keep_practitioners' });
  });

  it('says the minutes moved from the agreed time, the professions and the reasons, the biggest moves first', () => {
    const { changes } = run.proposal;
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) {
      expect(change.agreed_start_at).toEqual(expect.any(String));
      expect(change.minutes_moved).toBe(Math.round((Date.parse(change.new_arrive_at) - Date.parse(change.agreed_start_at)) / 60_000));
      expect(change.old_practitioner_profession).toBe('Registered Nurse');
      expect(change.new_practitioner_profession).toBe('Registered Nurse');
      expect(change.reasons.length).toBeGreaterThan(0);
      for (const reason of change.reasons) expect(reason.message).toEqual(expect.any(String));
    }
    const moved = changes.map((change: any) => Math.abs(change.minutes_moved));
    expect(moved).toEqual([...moved].sort((a: number, b: number) => b - a));
    // The lane's travel falls a lot: its changes say so, with the lane's travel before → after.
    const lane = run.proposal.lanes[0];
    const saved = Math.round(lane.before.metrics.travel_seconds / 60) - Math.round(lane.after.metrics.travel_seconds / 60);
    expect(saved).toBeGreaterThan(5);
    expect(changes.some((change: any) => change.reasons.some((reason: any) => reason.kind === 'travel' && reason.message.startsWith(`Saves ${saved} min of travel`)))).toBe(true);
  });
});

describe('the same day, settings and seed give the same proposal', () => {
  const DAY = '2029-11-23'; // Friday

  beforeAll(async () => {
    await zigzagDay(DAY, pat, [153.07, 152.97, 153.05, 152.99, 153.03, 153.01, 152.96, 153.08]);
    await zigzagDay(DAY, quinn, [153.02, 153.1, 152.98, 153.06, 153.0, 153.09]);
  });

  it('plans the same with the same seed, keeps the seed with the run and counts the plans of the day', async () => {
    const first = await optimise({ date: DAY, mode: 'reassign', seed: 4821 });
    const second = await optimise({ date: DAY, mode: 'reassign', seed: 4821 });
    expect([first.seed, second.seed]).toEqual([4821, 4821]);
    expect([first.plan_number, second.plan_number]).toEqual([1, 2]);
    expect(first.proposal.search).toMatchObject({ seed: 4821, stopped_by: 'iterations', max_iterations: expect.any(Number) });
    expect(second.proposal.search.iterations).toBe(first.proposal.search.iterations);
    expect(plannedDay(second.proposal)).toEqual(plannedDay(first.proposal));
    expect(second.proposal.kpis).toEqual(first.proposal.kpis);
    expect(second.proposal.changes).toEqual(first.proposal.changes);
  });

  it('gives a run without a seed a new one, stored and shown, and refuses a seed that is not one', async () => {
    const another = await optimise({ date: DAY, mode: 'reassign' });
    expect(another.seed).toBeGreaterThanOrEqual(1000);
    expect(another.seed).toBeLessThan(10_000);
    expect(another.proposal.search.seed).toBe(another.seed);
    expect(another.plan_number).toBe(3);
    // Read again: the same seed (stored, not drawn on each read).
    const read = await t.request('GET', `/api/optimizations/${another.id}`, { token: acme.tokens.admin });
    expect(read.body.optimization.seed).toBe(another.seed);
    for (const seed of [0, 1.5, 'x', 100_000]) {
      const refused = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: DAY, seed } });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.message).toMatch(/seed/);
    }
  });
});

describe('what cannot be placed, counted where it stays', () => {
  const DAY = '2029-11-26'; // Monday
  let run: any;
  let inLeave: number[];

  beforeAll(async () => {
    await zigzagDay(DAY, pat, [153.07, 152.97, 153.05]);
    // Pat is on leave in the afternoon; two of her visits are booked in it, far to the east, at times kept ("Keep this time").
    inLeave = [await addVisit(DAY, pat, await addClient('Lena', 153.1), '14:00'), await addVisit(DAY, pat, await addClient('Leo', 153.09), '15:00')];
    for (const id of inLeave) {
      expect((await t.request('PUT', `/api/appointments/${id}/arrival_lock`, { token: acme.tokens.staff, body: { locked: true } })).status).toBe(200);
    }
    await t.ctx.db.insert(practitionerLeave).values({ business_account_id: acme.businessAccountId, practitioner_id: pat, starts_at: at(DAY, '13:00'), ends_at: at(DAY, '17:00'), reason: 'Dentist' });
    run = await optimise({ date: DAY, mode: 'keep_practitioners', practitioner_ids: [pat] });
  });

  it('says leave is why a visit in the practitioner\'s leave is not placed', () => {
    const unplaced = run.proposal.unplaced.filter((visit: any) => inLeave.includes(visit.appointment_id));
    expect(unplaced.map((visit: any) => visit.appointment_id).sort()).toEqual([...inLeave].sort());
    for (const visit of unplaced) {
      expect(visit.reason).toBe('on-leave');
      expect(visit.message).toMatch(/^Pat acme-One is on leave 13:00–17:00, when it is booked/);
      expect(visit.message).not.toMatch(/working hours/);
    }
  });

  it('counts their travel and overtime on the lane they stay on, before and after, and says so', () => {
    const [lane] = run.proposal.lanes;
    expect(lane.after.counted).toMatchObject({ unplaced: 2 });
    // Lena and Leo are far to the east and after the rest of the day: counting them adds the drives to and from them.
    expect(lane.after.counted.travel_seconds).toBeGreaterThan(lane.after.metrics.travel_seconds + 10 * 60);
    const { before, after } = run.proposal.kpis;
    expect(after.travel_seconds).toBe(Math.round(lane.after.counted.travel_seconds));
    expect(after.overtime_seconds).toBe(Math.round(lane.after.counted.overtime_seconds));
    expect(before.travel_seconds).toBe(Math.round(lane.before.metrics.travel_seconds));
    // Like with like: the before figure has them too, so what the plan saves is what Apply would save.
    expect(after.travel_seconds).toBeLessThanOrEqual(before.travel_seconds);
    expect(run.proposal.figures_note).toMatch(/^The 2 visits not placed stay with their practitioners at their times, as Apply leaves them: the figures after count their travel and overtime/);
  });
});

describe('preferred and excluded practitioners', () => {
  const DAY = '2029-11-27'; // Tuesday
  let run: any;
  let prefersPat: number;
  let excludesQuinn: number;

  beforeAll(async () => {
    await zigzagDay(DAY, pat, [152.95, 152.97]);
    await zigzagDay(DAY, quinn, [153.08, 153.1]);
    // Nora is available on Tuesdays from 15:00 to 18:00 only.
    const nora = await addClient('Nora', 153.0);
    await t.ctx.db.update(clients).set({ availability: [{ dow: 2, hours: ['15:00-18:00'] }] }).where(eq(clients.id, nora));
    const xavier = await addClient('Xavier', 153.09);
    for (const [client, body] of [[nora, { preferred_practitioner_ids: [pat], excluded_practitioner_ids: [] }], [xavier, { preferred_practitioner_ids: [], excluded_practitioner_ids: [quinn] }]] as const) {
      const saved = await t.request('PUT', `/api/clients/${client}/update_practitioners`, { token: acme.tokens.admin, body });
      expect(saved.status).toBe(200);
    }
    // Nora prefers Pat, who is on leave when Nora's visit is booked; Xavier never Quinn, though he lives by her.
    prefersPat = await addVisit(DAY, pat, nora, '15:00');
    excludesQuinn = await addVisit(DAY, pat, xavier, '11:00');
    await t.ctx.db.insert(practitionerLeave).values({ business_account_id: acme.businessAccountId, practitioner_id: pat, starts_at: at(DAY, '13:00'), ends_at: at(DAY, '17:00'), reason: null });
    run = await optimise({ date: DAY, mode: 'reassign' });
  });

  it('says why a visit leaves the practitioner its client prefers', () => {
    const change = run.proposal.changes.find((candidate: any) => candidate.appointment_id === prefersPat);
    expect(change).toMatchObject({ old_practitioner_id: pat, new_practitioner_id: quinn, old_practitioner_profession: 'Registered Nurse', new_practitioner_profession: 'Support Worker' });
    expect(change.reasons[0]).toEqual({ kind: 'leave', message: 'Pat acme-One is on leave 13:00–17:00.' });
    expect(change.reasons).toContainEqual({ kind: 'preferred-not-kept', message: 'Not with Pat acme-One, whom Nora Client prefers: Pat acme-One is on leave then.' });
  });

  it('never gives a visit to a practitioner its client excluded', () => {
    const laneOf = run.proposal.lanes.find((lane: any) => lane.after.stops.some((stop: any) => stop.appointment_id === excludesQuinn));
    expect(laneOf?.practitioner_id).toBe(pat);
    expect(run.proposal.changes.filter((change: any) => change.new_practitioner_id === quinn).map((change: any) => change.appointment_id)).not.toContain(excludesQuinn);
  });
});
