// The client's agreed time (issue 35, ADR 0023), against the Cliniko sandbox over real HTTP: set from the booking at
// the first import; an export writes the planned arrival into the PMS's one start field and leaves the agreed time; an
// import that reads back what Rounds exported changes nothing, one that finds a start moved in the PMS makes it the
// agreed time (the change log says so); a move by hand agrees a new time. The tolerance is measured from it: five
// optimise → export → import cycles never carry a visit further than its tolerance from its agreed time. Undo after an
// export restores the times and exports them; applying an undone proposal says it was undone. The move price setting.
import { and, eq, gte, isNull, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, practitioners, resourceMaps } from '../../server/src/db/schema';
import { loadDay, problemOf } from '../../server/src/modules/optimizations';
import { isoAt, startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { optimiseAndApplyRun, workingEveryDay } from './support/routing';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;
let staff: number[];

const RANGE = { start_date: '2029-11-19', end_date: '2029-11-23' };
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 3_000 };
const MINUTE = 60_000;
const TOLERANCE_MINUTES = 30;

async function run(kind: 'imports' | 'exports', body: Record<string, unknown> = RANGE) {
  const created = await t.request('POST', `/api/${kind}`, { token: acme.tokens.admin, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  const done = await t.request('GET', `/api/${kind}/${created.body[kind.slice(0, -1)].id}`, { token: acme.tokens.admin });
  expect(done.body[kind.slice(0, -1)].status).toBe('COMPLETE');
  return done.body[kind.slice(0, -1)];
}

/** The business's imported visits of a Brisbane day that are not cancelled, with their external ids. */
async function visitsOfDay(date: string) {
  return t.ctx.db.select({
    id: appointments.id, starts_at: appointments.starts_at, arrive_at: appointments.arrive_at, agreed_starts_at: appointments.agreed_starts_at,
    practitioner_id: appointments.practitioner_id, external_id: resourceMaps.external_id,
  }).from(appointments)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointments.id)))
    .where(and(
      eq(appointments.business_account_id, acme.businessAccountId), isNull(appointments.cancelled_at),
      gte(appointments.starts_at, new Date(`${date}T00:00:00+10:00`)), lt(appointments.starts_at, new Date(`${date}T24:00:00+10:00`)),
    )).orderBy(appointments.starts_at, appointments.id);
}

const sandboxAppointment = (id: string) => sandbox.dataset.appointments.find((a) => a.id === id)!;
const appointment = async (id: number) => (await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.staff })).body.appointment;
const versionsOf = async (id: number) => (await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.staff })).body.versions as any[];

/** Optimises a day for every practitioner and applies it; answers the applied run. */
const optimiseAndApply = async (date: string) => (await optimiseAndApplyRun(t, acme, date, staff)).optimization;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, startDate: '2029-11-19', weeks: 1, patients: 40, practitioners: 3, inactivePractitioners: 0 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url, optimizerMaxSearchMs: 200 });
  acme = await createBusinessFixture(t, 'acme');
  expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST });
  await run('imports');
  const imported = await t.ctx.db.select({ id: resourceMaps.resource_id }).from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner')))
    .orderBy(resourceMaps.resource_id);
  staff = imported.map((row) => row.id);
  for (const [index, id] of staff.entries()) {
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: `${index + 1} Home St`, home_lat: -27.47 + index * 0.01, home_lng: 153.02, working_hours: workingEveryDay('06:00', '20:00'),
    }).where(eq(practitioners.id, id));
  }
  const settings = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { tolerance_minutes: TOLERANCE_MINUTES, client_gap_minutes: 0 } });
  expect(settings.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe("the client's agreed time", () => {
  const DAY = '2029-11-19';

  it('is the booking in the PMS when a visit is first imported, and the API shows it', async () => {
    const visits = await visitsOfDay(DAY);
    expect(visits.length).toBeGreaterThan(3);
    for (const visit of visits) {
      expect(visit.agreed_starts_at.toISOString()).toBe(new Date(sandboxAppointment(visit.external_id).starts_at).toISOString());
    }
    expect((await appointment(visits[0].id)).agreed_starts_at).toBe(visits[0].agreed_starts_at.toISOString());
  });

  it('an export writes the planned arrival as the start and leaves the agreed time; the import reading it back changes nothing', async () => {
    const [visit] = await visitsOfDay(DAY);
    const agreed = visit.agreed_starts_at.toISOString();
    const arrival = new Date(visit.starts_at.getTime() + 15 * MINUTE);
    const set = await t.request('PUT', `/api/appointments/${visit.id}/update_arrival_time`, { token: acme.tokens.staff, body: { arrive_at: arrival.toISOString() } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const exported = await run('exports', { start_date: DAY, end_date: DAY });
    expect(exported.result.exported).toBe(1);
    expect(Date.parse(sandboxAppointment(visit.external_id).starts_at)).toBe(arrival.getTime());
    const after = await appointment(visit.id);
    expect([after.starts_at, after.agreed_starts_at]).toEqual([arrival.toISOString(), agreed]);
    const entry = (await versionsOf(visit.id)).at(-1);
    expect(entry.object_changes.starts_at).toEqual([visit.starts_at.toISOString(), arrival.toISOString()]);
    expect(entry.object_changes.agreed_starts_at).toBeUndefined();
    expect(entry.reason).toMatch(/the client's agreed time is unchanged \(\d\d:\d\d\)/);

    const imported = await run('imports', { start_date: DAY, end_date: DAY });
    expect(imported.result.appointments_updated).toBe(0);
    expect((await appointment(visit.id)).agreed_starts_at).toBe(agreed);
  });

  it('a start moved in the PMS on purpose becomes the agreed time, and the change log says when and why', async () => {
    const [, visit] = await visitsOfDay(DAY);
    const pms = sandboxAppointment(visit.external_id);
    const moved = isoAt(Date.parse(pms.starts_at) + 60 * MINUTE);
    Object.assign(pms, { starts_at: moved, ends_at: isoAt(Date.parse(pms.ends_at) + 60 * MINUTE), updated_at: isoAt(Date.now()) });
    const imported = await run('imports', { start_date: DAY, end_date: DAY });
    expect(imported.result.appointments_updated).toBe(1);
    const after = await appointment(visit.id);
    expect([after.starts_at, after.agreed_starts_at]).toEqual([new Date(moved).toISOString(), new Date(moved).toISOString()]);
    const entry = (await versionsOf(visit.id)).at(-1);
    expect(entry.object_changes.agreed_starts_at).toEqual([visit.agreed_starts_at.toISOString(), new Date(moved).toISOString()]);
    expect(entry.reason).toMatch(/^Moved in Cliniko since the last sync: the client's agreed time is now \d\d:\d\d\.$/);
  });

  it('a move by hand to a new time agrees that time with the client', async () => {
    // A practitioner's last visit of the day, of a client with no other visit that day, 45 minutes later: further than
    // the tolerance from the time agreed before, so the move is allowed only because it agrees the new time.
    const visits = await visitsOfDay('2029-11-20');
    const clients = new Map<number, number | null>();
    for (const row of await t.ctx.db.select({ id: appointments.id, client_id: appointments.client_id }).from(appointments)) clients.set(row.id, row.client_id);
    const visit = visits.filter((candidate) => !visits.some((other) => other.practitioner_id === candidate.practitioner_id && other.starts_at > candidate.starts_at)
      && visits.filter((other) => clients.get(other.id) === clients.get(candidate.id)).length === 1)[0];
    expect(visit).toBeDefined();
    const later = new Date(visit.starts_at.getTime() + 45 * MINUTE);
    const moved = await t.request('PATCH', `/api/appointments/${visit.id}/move`, { token: acme.tokens.admin, body: { starts_at: later.toISOString() } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await appointment(visit.id)).agreed_starts_at).toBe(later.toISOString());
    expect((await versionsOf(visit.id)).at(-1).object_changes.agreed_starts_at).toEqual([visit.agreed_starts_at.toISOString(), later.toISOString()]);
  });
});

describe('optimise → export → import, again and again', () => {
  const DAY = '2029-11-21';

  it('never carries a visit further than its tolerance from its agreed time in five cycles, nor changes the agreed time', async () => {
    const agreed = new Map((await visitsOfDay(DAY)).map((visit) => [visit.id, visit.agreed_starts_at.getTime()]));
    expect(agreed.size).toBeGreaterThan(5);
    // Working hours that end at 09:00 with overtime allowed: every run wants each day to end earlier, so each pulls the
    // visits as early as the tolerance lets it. Measured from the start the last export wrote, they would walk.
    const hours = (end: string) => Promise.all(staff.map((id) => t.ctx.db.update(practitioners).set({ working_hours: workingEveryDay('06:00', end) }).where(eq(practitioners.id, id))));
    await hours('09:00');
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { overtime_minutes: 240 } })).status).toBe(200);
    let moves = 0;
    for (let cycle = 1; cycle <= 5; cycle++) {
      const optimised = await optimiseAndApply(DAY);
      moves += optimised.proposal.changes.length;
      await run('exports', { start_date: DAY, end_date: DAY });
      await run('imports', { start_date: DAY, end_date: DAY });
      for (const visit of await visitsOfDay(DAY)) {
        expect(visit.agreed_starts_at.getTime(), `cycle ${cycle}: visit ${visit.id}'s agreed time`).toBe(agreed.get(visit.id));
        const planned = (visit.arrive_at ?? visit.starts_at).getTime();
        const away = Math.abs(planned - visit.agreed_starts_at.getTime()) / MINUTE;
        expect(away, `cycle ${cycle}: visit ${visit.id} is ${away} min from its agreed time`).toBeLessThanOrEqual(TOLERANCE_MINUTES);
      }
    }
    // The runs did move visits (the PMS start walked with them), so the cycles were a test of the anchor.
    expect(moves).toBeGreaterThan(0);
    await hours('20:00');
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { overtime_minutes: 0 } })).status).toBe(200);
  }, 240_000);
});

describe('Undo after an export', () => {
  const DAY = '2029-11-22';

  it('restores the times, exports them, says so, and the undone proposal says it was undone', async () => {
    const before = new Map((await visitsOfDay(DAY)).map((visit) => [visit.id, visit]));
    const applied = await optimiseAndApply(DAY);
    const moved = applied.proposal.changes.filter((change: any) => change.old_arrive_at !== change.new_arrive_at);
    expect(moved.length).toBeGreaterThan(0);
    await run('exports', { start_date: DAY, end_date: DAY });
    const [change] = moved;
    const externalId = before.get(change.appointment_id)!.external_id;
    expect(Date.parse(sandboxAppointment(externalId).starts_at)).toBe(Date.parse(change.new_arrive_at));

    const undone = await t.request('POST', `/api/optimizations/${applied.id}/undo`, { token: acme.tokens.admin });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.export).toMatchObject({ export_id: expect.any(Number), message: expect.stringMatching(/had been exported; export #\d+ writes the restored times/) });
    await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
    // Every visit is back at its time before Apply, in Rounds and in the PMS, and its agreed time never moved.
    for (const [id, visit] of before) {
      const now = await appointment(id);
      const wanted = (visit.arrive_at ?? visit.starts_at).toISOString();
      expect(now.arrive_at ?? now.starts_at, `visit ${id}`).toBe(wanted);
      expect(now.agreed_starts_at).toBe(visit.agreed_starts_at.toISOString());
      expect(new Date(sandboxAppointment(visit.external_id).starts_at).toISOString(), `visit ${id} in the PMS`).toBe(wanted);
    }
    const again = await t.request('POST', `/api/optimizations/${applied.id}/apply`, { token: acme.tokens.admin });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This proposal was applied and then undone (by Ada acme): run the optimisation again for a new proposal.');
  }, 120_000);
});

describe('the price of moving a visit', () => {
  it('is a setting (default 0.25 a minute) with a per-type override, refused (4xx with a message) out of range', async () => {
    const read = await t.request('GET', '/api/optimization_settings', { token: acme.tokens.admin });
    expect(read.body.optimization_settings?.move_price ?? read.body.move_price).toBe(0.25);
    for (const move_price of [-1, 101, 'a lot']) {
      const refused = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { move_price } });
      expect(refused.status, JSON.stringify(move_price)).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(refused.body.message).toMatch(/move_price/);
    }
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.staff, body: { move_price: 1 } })).status).toBe(403);
    const saved = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { move_price: 0.5 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const [type] = (await t.request('GET', '/api/appointment_types/all', { token: acme.tokens.admin })).body.appointment_types;
    expect(type.move_price).toBeNull();
    const refused = await t.request('PUT', `/api/appointment_types/${type.id}`, { token: acme.tokens.admin, body: { move_price: -2 } });
    expect([refused.status, refused.body.message]).toEqual([expect.any(Number), expect.stringMatching(/move_price/)]);
    expect(refused.status).toBeLessThan(500);
    const typed = await t.request('PUT', `/api/appointment_types/${type.id}`, { token: acme.tokens.admin, body: { move_price: 2 } });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect(typed.body.appointment_type.move_price).toBe(2);

    // The run's problem prices each minute from the agreed time: the business's price, the type's where it has one.
    const DAY = '2029-11-20';
    const { problem, visits } = problemOf(await loadDay(t.ctx.db, acme.businessAccountId, { date: DAY, practitionerIds: staff, mode: 'keep_practitioners' }));
    expect(problem.weights?.moved).toBe(0.5);
    expect(visits.length).toBeGreaterThan(0);
    visits.forEach((visit, index) => {
      const entry = problem.visits[index];
      if (entry.pinnedStart !== undefined) return;
      expect(entry.agreedStart).toBe((visit.agreedStartsAt.getTime() - Date.parse(`${DAY}T00:00:00+10:00`)) / 1000);
      expect(entry.movedWeight).toBe(visit.appointmentTypeId === type.id ? 2 : undefined);
    });
  });
});
