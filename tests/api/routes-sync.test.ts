// Routes and the practice management system, against the sandbox over real HTTP: an import that moves, cancels or
// adds a visit on a routed day marks that route stale (one that changes nothing does not); a visit reassigned in
// Rounds is exported with its new practitioner (and an import before the export keeps the reassignment), through the
// export's conflict check.
import { and, eq, gte, isNull, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, practitioners, resourceMaps } from '../../server/src/db/schema';
import { practitionerLeave } from '../../server/src/db/schema-leave';
import { appointmentSyncSnapshots } from '../../server/src/db/schema-sync';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { optimiseAndApply, routesOf, workingEveryDay } from './support/routing';
import { drainJobs } from './support/jobs';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;
/** The imported practitioners (local ids), each with a home in Brisbane and long hours every day. */
let staff: number[];

const RANGE = { start_date: '2029-11-19', end_date: '2029-11-23' };
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 3_000 };
const MINUTE = 60_000;
const EVERY_DAY = workingEveryDay('06:00', '20:00');

async function run(kind: 'imports' | 'exports', body: Record<string, unknown> = RANGE) {
  const created = await t.request('POST', `/api/${kind}`, { token: acme.tokens.admin, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  const done = await t.request('GET', `/api/${kind}/${created.body[kind.slice(0, -1)].id}`, { token: acme.tokens.admin });
  expect(done.body[kind.slice(0, -1)].status).toBe('COMPLETE');
  return done.body[kind.slice(0, -1)];
}

/** The practitioner's imported visits of a Brisbane day that are not cancelled, with their external ids, by start. */
async function visitsOf(practitionerId: number, date: string) {
  return t.ctx.db.select({ id: appointments.id, starts_at: appointments.starts_at, external_id: resourceMaps.external_id })
    .from(appointments)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointments.id)))
    .where(and(
      eq(appointments.business_account_id, acme.businessAccountId), eq(appointments.practitioner_id, practitionerId), isNull(appointments.cancelled_at),
      gte(appointments.starts_at, new Date(`${date}T00:00:00+10:00`)), lt(appointments.starts_at, new Date(`${date}T24:00:00+10:00`)),
    )).orderBy(appointments.starts_at, appointments.id);
}

async function externalIdOf(practitionerId: number) {
  const [map] = await t.ctx.db.select().from(resourceMaps).where(and(
    eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner'), eq(resourceMaps.resource_id, practitionerId),
  ));
  return map.external_id;
}

const sandboxAppointment = (id: string) => sandbox.dataset.appointments.find((a) => a.id === id)!;
const routesOfDay = (date: string) => routesOf(t, acme, date);
const optimiseAndApplyDay = (date: string, practitionerIds: number[]) => optimiseAndApply(t, acme, date, practitionerIds);

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
  expect(staff).toHaveLength(3);
  for (const [index, id] of staff.entries()) {
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: `${index + 1} Home St`, home_lat: -27.47 + index * 0.01, home_lng: 153.02, working_hours: EVERY_DAY,
    }).where(eq(practitioners.id, id));
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('an import after a day was optimised', () => {
  const DAY = '2029-11-22'; // Thursday: each of the three has visits
  const OTHER_DAY = '2029-11-21';

  it('changes nothing and leaves the routes as they are when the PMS did not change', async () => {
    const routes = await optimiseAndApplyDay(DAY, staff);
    expect(routes.map((route) => route.practitioner_id).sort()).toEqual([...staff].sort());
    expect(routes.every((route) => route.stale === false && route.stale_at === null)).toBe(true);
    // The first practitioner's day before is routed too.
    expect(await optimiseAndApplyDay(OTHER_DAY, [staff[0]])).toHaveLength(1);
    const reimport = await run('imports');
    expect(reimport.result).toMatchObject({ appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0 });
    expect((await routesOfDay(DAY)).map((route) => [route.stale, route.stale_at])).toEqual(staff.map(() => [false, null]));
  });

  it('marks stale the route of each practitioner whose visit the PMS moved, cancelled or added, and no other', async () => {
    const [moved, cancelled, added] = staff;
    // Moved an hour later in the PMS.
    const movedVisit = sandboxAppointment((await visitsOf(moved, DAY))[0].external_id);
    const length = Date.parse(movedVisit.ends_at) - Date.parse(movedVisit.starts_at);
    const later = new Date(Date.parse(movedVisit.starts_at) + 60 * MINUTE);
    Object.assign(movedVisit, { starts_at: later.toISOString(), ends_at: new Date(later.getTime() + length).toISOString(), updated_at: new Date().toISOString() });
    const started = Date.now();
    let result = await run('imports');
    expect(result.result.appointments_updated).toBe(1);
    let routes = new Map((await routesOfDay(DAY)).map((route) => [route.practitioner_id, route]));
    expect(routes.get(moved)).toMatchObject({ stale: true, stale_at: expect.any(String) });
    expect(Date.parse(routes.get(moved).stale_at)).toBeGreaterThanOrEqual(started - 1000);
    expect(routes.get(cancelled)).toMatchObject({ stale: false, stale_at: null });
    expect(routes.get(added)).toMatchObject({ stale: false, stale_at: null });
    const staleSince = routes.get(moved).stale_at;

    // Cancelled in the PMS.
    Object.assign(sandboxAppointment((await visitsOf(cancelled, DAY))[0].external_id), { cancelled_at: new Date().toISOString(), updated_at: new Date().toISOString() });
    // Added in the PMS: a copy of one of the third practitioner's visits, an hour after the last.
    const last = sandboxAppointment((await visitsOf(added, DAY)).at(-1)!.external_id);
    const start = new Date(Date.parse(last.ends_at) + 60 * MINUTE);
    sandbox.dataset.appointments.push({
      ...last, id: '9100000000000000001', starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 30 * MINUTE).toISOString(),
      created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
    });
    result = await run('imports');
    expect(result.result).toMatchObject({ appointments_created: 1, appointments_cancelled: 1 });
    routes = new Map((await routesOfDay(DAY)).map((route) => [route.practitioner_id, route]));
    expect(routes.get(cancelled)).toMatchObject({ stale: true, stale_at: expect.any(String) });
    expect(routes.get(added)).toMatchObject({ stale: true, stale_at: expect.any(String) });
    // Still stale since the first change.
    expect(routes.get(moved).stale_at).toBe(staleSince);
    // Another day's route of the same practitioner is not touched.
    const [otherDay] = (await routesOfDay(OTHER_DAY)).filter((route) => route.practitioner_id === moved);
    expect(otherDay).toMatchObject({ stale: false, stale_at: null });
  });
});

describe('exporting a reassigned visit', () => {
  const DAY = '2029-11-23'; // Friday

  it('keeps a reassignment through an import, exports it with the new practitioner, and the sandbox then holds it', async () => {
    const [from, to] = staff;
    const [visit] = await visitsOf(from, DAY);
    const before = { ...sandboxAppointment(visit.external_id) };
    expect(before.practitioner_id).toBe(await externalIdOf(from));
    // Reassigned in Rounds (what applying a reassigning proposal or a move writes).
    await t.ctx.db.update(appointments).set({ practitioner_id: to, updated_at: new Date() }).where(eq(appointments.id, visit.id));

    // An import before the export keeps it: the PMS did not reassign the visit since it was imported.
    await run('imports');
    const [kept] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, visit.id));
    expect(kept.practitioner_id).toBe(to);

    const exported = await run('exports', { start_date: DAY, end_date: DAY });
    expect(exported.result).toMatchObject({ exported: 1, conflicts: [] });
    const after = sandboxAppointment(visit.external_id);
    expect(after.practitioner_id).toBe(await externalIdOf(to));
    expect(after.starts_at).toBe(before.starts_at);
    const [snapshot] = await t.ctx.db.select().from(appointmentSyncSnapshots).where(eq(appointmentSyncSnapshots.appointment_id, visit.id));
    expect(snapshot.practitioner_id).toBe(to);

    // Nothing left to export, and the next import agrees with Rounds.
    expect((await run('exports', { start_date: DAY, end_date: DAY })).result).toMatchObject({ exported: 0, conflicts: [] });
    expect((await run('imports')).result).toMatchObject({ appointments_updated: 0 });
  });

  it('reports a reassigned visit changed in the PMS since the import as a conflict and does not overwrite it', async () => {
    const [from, , to] = staff;
    const [visit] = await visitsOf(from, DAY);
    await t.ctx.db.update(appointments).set({ practitioner_id: to, updated_at: new Date() }).where(eq(appointments.id, visit.id));
    const pms = sandboxAppointment(visit.external_id);
    Object.assign(pms, { notes: 'Changed at the front desk', updated_at: new Date().toISOString() });
    const exported = await run('exports', { start_date: DAY, end_date: DAY });
    expect(exported.result.exported).toBe(0);
    expect(exported.result.conflicts).toEqual([{
      appointment_id: visit.id, external_id: visit.external_id, reason: expect.stringMatching(/changed in the practice management system after it was imported/),
    }]);
    expect(sandboxAppointment(visit.external_id).practitioner_id).toBe(await externalIdOf(from));
    // An import takes the PMS's change (the note) and keeps the reassignment, which the next export sends.
    await run('imports');
    expect((await run('exports', { start_date: DAY, end_date: DAY })).result).toMatchObject({ exported: 1, conflicts: [] });
    expect(sandboxAppointment(visit.external_id)).toMatchObject({ practitioner_id: await externalIdOf(to), notes: 'Changed at the front desk' });
  });

  it('exports a visit moved by hand to another practitioner and time, kept through an import before the export', async () => {
    // To a practitioner not on leave that day (the sandbox's unavailable blocks come in as leave) who delivers the
    // visit's type (their qualifications, imported from the sandbox): a visit the two professions share.
    const onLeave = await t.ctx.db.select({ id: practitionerLeave.practitioner_id }).from(practitionerLeave).where(and(
      eq(practitionerLeave.business_account_id, acme.businessAccountId),
      lt(practitionerLeave.starts_at, new Date(`${DAY}T24:00:00+10:00`)), gte(practitionerLeave.ends_at, new Date(`${DAY}T00:00:00+10:00`)),
    ));
    const qualified = new Map((await t.request('GET', '/api/practitioners/all', { token: acme.tokens.staff })).body.practitioners
      .map((row: { id: number; qualified_appointment_type_ids: number[] | null }) => [row.id, row.qualified_appointment_type_ids ?? []]));
    const typeOf = async (id: number) => (await t.ctx.db.select({ type: appointments.appointment_type_id }).from(appointments).where(eq(appointments.id, id)))[0].type;
    let choice: { visit: Awaited<ReturnType<typeof visitsOf>>[number]; to: number } | undefined;
    for (const from of staff) {
      for (const candidate of await visitsOf(from, DAY)) {
        const type = await typeOf(candidate.id);
        const to = staff.find((id) => id !== from && !onLeave.some((leave) => leave.id === id) && type !== null && (qualified.get(id) as number[]).includes(type));
        if (to !== undefined) {
          choice = { visit: candidate, to };
          break;
        }
      }
      if (choice) break;
    }
    expect(choice, 'a visit another practitioner at work delivers').toBeDefined();
    const { visit, to } = choice!;
    const before = { ...sandboxAppointment(visit.external_id) };
    const length = Date.parse(before.ends_at) - Date.parse(before.starts_at);
    // The first of these times that keeps the client's other visits clear (a refused one says which rule it breaks).
    let later = new Date(0);
    for (const hours of [2, 3, 4, -2, 5, 6]) {
      later = new Date(Date.parse(before.starts_at) + hours * 60 * MINUTE);
      const moved = await t.request('PATCH', `/api/appointments/${visit.id}/move`, {
        token: acme.tokens.staff, body: { practitioner_id: to, starts_at: later.toISOString() },
      });
      if (moved.status === 200) break;
      expect(moved.body.code, JSON.stringify(moved.body)).toBe('RULES_BROKEN');
      later = new Date(0);
    }
    expect(later.getTime(), 'one of the times is accepted').toBeGreaterThan(0);

    await run('imports');
    const [kept] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, visit.id));
    expect(kept).toMatchObject({ practitioner_id: to, starts_at: later, arrive_at: later });

    const exported = await run('exports', { start_date: DAY, end_date: DAY });
    expect(exported.result).toMatchObject({ exported: 1, conflicts: [] });
    const after = sandboxAppointment(visit.external_id);
    expect(after.practitioner_id).toBe(await externalIdOf(to));
    expect(Date.parse(after.starts_at)).toBe(later.getTime());
    expect(Date.parse(after.ends_at)).toBe(later.getTime() + length);
    expect((await run('exports', { start_date: DAY, end_date: DAY })).result).toMatchObject({ exported: 0, conflicts: [] });
    expect((await run('imports')).result).toMatchObject({ appointments_updated: 0 });
  });
});
