// Qualifications (issue 35): each practitioner's appointment types read from Cliniko by every import (in its
// transaction, kept in sync), narrowed in Rounds by an administrator (Cliniko's list wins), the effective set the
// planners use, and every place a visit can be offered to a practitioner refusing one who does not deliver its type
// or whose qualifications are unknown: moves by hand, Insert into a route, the nearby search, a reassign run and the
// day checker's hard rule "Not qualified for this visit".
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, practitioners } from '../../server/src/db/schema';
import { practitionerLeave } from '../../server/src/db/schema-leave';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { brisbaneAt as at, workingEveryDay } from './support/routing';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;

const RANGE = { start_date: '2026-11-23', end_date: '2026-11-24' };
const FAST = { maxAttempts: 2, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 2_000 };

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, startDate: '2026-11-23', weeks: 1, patients: 20, practitioners: 5, inactivePractitioners: 0 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url, optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

async function runImport(): Promise<{ status: string }> {
  const created = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  return (await t.request('GET', `/api/imports/${created.body.import.id}`, { token: acme.tokens.admin })).body.import;
}

type Settings = { id: number; first_name: string; last_name: string; profession: string | null; pms_appointment_type_ids: number[] | null;
  skill_appointment_type_ids: number[] | null; qualified_appointment_type_ids: number[] | null; warnings: string[] };

const settingsList = async (): Promise<Settings[]> => (await t.request('GET', '/api/practitioners', { token: acme.tokens.admin })).body.practitioners;
const typeNames = async () => new Map<number, string>((await t.request('GET', '/api/appointment_types/all', { token: acme.tokens.admin })).body.appointment_types
  .map((type: { id: number; name: string }) => [type.id, type.name]));

/** The local practitioner of a sandbox practitioner, by name (their last names are the sandbox's). */
async function localOf(index: number): Promise<Settings> {
  const source = sandbox.dataset.practitioners[index];
  const found = (await settingsList()).find((row) => row.first_name === source.first_name && row.last_name === source.last_name);
  expect(found, `${source.first_name} ${source.last_name}`).toBeDefined();
  return found!;
}

/** The names of the types the sandbox lists for its practitioner `index`, sorted. */
const sandboxTypeNames = (index: number) => sandbox.dataset.practitioners[index].appointment_type_ids
  .map((id) => sandbox.dataset.appointmentTypes.find((type) => type.id === id)!.name).sort();

describe('qualifications from Cliniko', () => {
  it('are read for every practitioner when the account is connected, by profession, and are their effective qualifications', async () => {
    const connected = await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } });
    expect(connected.status).toBe(201);
    await drainJobs(t.ctx, { tuning: FAST });
    expect(sandbox.requestLog.filter((entry) => /\/practitioners\/\d+\/appointment_types/.test(entry.url))).toHaveLength(5);
    const names = await typeNames();
    const expected: Record<string, string[]> = {
      'Registered Nurse': ['Medication check', 'Nursing visit', 'Wound care'],
      'Support Worker': ['Domestic assistance', 'Medication check', 'Personal care'],
      Physiotherapist: ['Physiotherapy'],
      'Enrolled Nurse': ['Medication check', 'Nursing visit', 'Personal care', 'Wound care'],
    };
    for (const [index, source] of sandbox.dataset.practitioners.entries()) {
      const local = await localOf(index);
      const delivered = local.pms_appointment_type_ids!.map((id) => names.get(id)).sort();
      expect(delivered, source.designation).toEqual(expected[source.designation]);
      expect(delivered).toEqual(sandboxTypeNames(index));
      expect(local.qualified_appointment_type_ids).toEqual(local.pms_appointment_type_ids);
      expect(local.skill_appointment_type_ids).toBeNull();
    }
    // Staff read the effective list with the practitioners (pickers, the Optimise dialog).
    const all = await t.request('GET', '/api/practitioners/all', { token: acme.tokens.staff });
    const nurse = await localOf(0);
    expect(all.body.practitioners.find((row: { id: number }) => row.id === nurse.id).qualified_appointment_type_ids).toEqual(nurse.pms_appointment_type_ids);
  });

  it('are kept in sync by every import: a type removed in Cliniko is removed here, one added is added', async () => {
    const nurse = sandbox.dataset.practitioners[0];
    const physio = sandbox.dataset.practitioners[2];
    const wound = sandbox.dataset.appointmentTypes.find((type) => type.name === 'Wound care')!;
    const personal = sandbox.dataset.appointmentTypes.find((type) => type.name === 'Personal care')!;
    nurse.appointment_type_ids = nurse.appointment_type_ids.filter((id) => id !== wound.id);
    physio.appointment_type_ids = [...physio.appointment_type_ids, personal.id];
    expect((await runImport()).status).toBe('COMPLETE');
    const names = await typeNames();
    expect((await localOf(0)).pms_appointment_type_ids!.map((id) => names.get(id)).sort()).toEqual(['Medication check', 'Nursing visit']);
    expect((await localOf(2)).pms_appointment_type_ids!.map((id) => names.get(id)).sort()).toEqual(['Personal care', 'Physiotherapy']);
  });

  it('are written in the import\'s transaction: an import whose read of them fails changes no practitioner', async () => {
    const source = sandbox.dataset.practitioners[1];
    const before = await localOf(1);
    const renamed = `${source.first_name}x`;
    source.first_name = renamed;
    source.appointment_type_ids = source.appointment_type_ids.slice(0, 1);
    // Every GET /practitioners/{id}/appointment_types answers 404 (the lists still answer).
    const find = sandbox.dataset.practitioners.find;
    sandbox.dataset.practitioners.find = () => undefined;
    try {
      expect((await runImport()).status).not.toBe('COMPLETE');
    } finally {
      sandbox.dataset.practitioners.find = find;
    }
    const [unchanged] = await t.ctx.db.select().from(practitioners).where(eq(practitioners.id, before.id));
    expect(unchanged.first_name).toBe(before.first_name);
    expect(unchanged.pms_appointment_type_ids).toEqual(before.pms_appointment_type_ids);

    expect((await runImport()).status).toBe('COMPLETE');
    const [applied] = await t.ctx.db.select().from(practitioners).where(eq(practitioners.id, before.id));
    expect(applied.first_name).toBe(renamed);
    expect(applied.pms_appointment_type_ids).toHaveLength(1);
  });
});

describe('narrowed in Rounds', () => {
  it('an administrator narrows Cliniko\'s list; Rounds cannot add a type Cliniko does not list; the next import keeps the narrowing', async () => {
    const names = await typeNames();
    const idOf = (name: string) => [...names].find(([, typeName]) => typeName === name)![0];
    const nurse = await localOf(0); // Cliniko: medication check, nursing visit
    const patch = (body: unknown, token = acme.tokens.admin) => t.request('PATCH', `/api/practitioners/${nurse.id}`, { token, body });

    const narrowed = await patch({ skill_appointment_type_ids: [idOf('Medication check')] });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(narrowed.body.practitioner).toMatchObject({
      pms_appointment_type_ids: nurse.pms_appointment_type_ids,
      skill_appointment_type_ids: [idOf('Medication check')],
      qualified_appointment_type_ids: [idOf('Medication check')],
    });

    const added = await patch({ skill_appointment_type_ids: [idOf('Medication check'), idOf('Physiotherapy')] });
    expect(added.status).toBe(422);
    expect(added.body.message).toBe(`skill_appointment_type_ids: ${idOf('Physiotherapy')} is not among the appointment types Cliniko lists for `
      + `${nurse.first_name} ${nurse.last_name}; Rounds can only narrow that list: add the type to the practitioner in Cliniko, then import.`);
    expect((await patch({ skill_appointment_type_ids: [idOf('Nursing visit')] }, acme.tokens.staff)).status).toBe(403);

    expect((await runImport()).status).toBe('COMPLETE');
    expect(await localOf(0)).toMatchObject({ skill_appointment_type_ids: [idOf('Medication check')], qualified_appointment_type_ids: [idOf('Medication check')] });
    // Cleared: everything Cliniko lists again.
    const cleared = await patch({ skill_appointment_type_ids: null });
    expect(cleared.body.practitioner.qualified_appointment_type_ids).toEqual(nurse.pms_appointment_type_ids);
  });
});

describe('a visit is offered only to a practitioner who delivers its type', () => {
  // Far in the future, on the fixture's own practitioners: Pat and Quinn deliver both types (from Cliniko); Nora only
  // nursing visits; Una's qualifications are unknown (never read, none chosen). Una and Nora live beside the clients,
  // Pat far away.
  const DAY = '2029-04-10'; // a Tuesday
  const LAST_WEEK = '2029-04-03';
  let pat: number;
  let nora: number;
  let una: number;
  let nursing: number;
  let physio: number;
  const visits: Record<string, number> = {};

  async function addPractitioner(first: string, lng: number, pms: number[] | null) {
    const [row] = await t.ctx.db.insert(practitioners).values({
      business_account_id: acme.businessAccountId, first_name: first, last_name: 'Test', start_place_kind: 'home', home_address: `${first}'s home`,
      home_lat: -27.47, home_lng: lng, working_hours: workingEveryDay('08:00', '17:00'), pms_appointment_type_ids: pms,
    }).returning({ id: practitioners.id });
    return row.id;
  }
  async function addVisit(practitionerId: number, typeId: number, name: string, lng: number, hhmm: string) {
    const [client] = await t.ctx.db.insert(clients).values({
      business_account_id: acme.businessAccountId, first_name: name, last_name: 'Client', lat: -27.47, lng, time_zone: 'Australia/Brisbane',
    }).returning({ id: clients.id });
    const visit = async (date: string, who: number) => (await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: who, appointment_type_id: typeId,
      starts_at: at(date, hhmm), ends_at: new Date(at(date, hhmm).getTime() + 30 * 60_000), arrive_at: at(date, hhmm), lat: -27.47, lng,
    }).returning({ id: appointments.id }))[0].id;
    // Last week the client was seen by Una (their usual practitioner: a reassign run prefers them).
    await visit(LAST_WEEK, una);
    return visit(DAY, practitionerId);
  }

  beforeAll(async () => {
    [pat] = acme.practitionerIds;
    [nursing, physio] = acme.appointmentTypeIds;
    await t.ctx.db.update(practitioners).set({
      start_place_kind: 'home', home_address: 'Far away', home_lat: -27.47, home_lng: 152.6, working_hours: workingEveryDay('08:00', '17:00'),
    }).where(eq(practitioners.id, pat));
    nora = await addPractitioner('Nora', 153.04, [nursing]);
    una = await addPractitioner('Una', 153.05, null);
    visits.physio = await addVisit(pat, physio, 'Phyllis', 153.05, '09:00');
    visits.nursing = await addVisit(pat, nursing, 'Nina', 153.051, '11:00');
    visits.unas = await addVisit(una, physio, 'Umberto', 153.052, '14:00');
  });

  it('the settings page and the practitioner lists say whose qualifications are unknown', async () => {
    const unknown = (await settingsList()).find((row) => row.id === una)!;
    expect(unknown.qualified_appointment_type_ids).toBeNull();
    expect(unknown.warnings).toContain('No known qualifications: Cliniko lists no appointment types for this practitioner and none are chosen here, so no visit that is not already theirs is given to them.');
  });

  it('moves by hand refuse one who does not deliver the type or whose qualifications are unknown, worded for who asks', async () => {
    const move = (practitionerId: number, token: string) => t.request('PATCH', `/api/appointments/${visits.physio}/move`, { token, body: { practitioner_id: practitionerId } });
    const toNora = await move(nora, acme.tokens.admin);
    expect(toNora.status).toBe(422);
    expect(toNora.body.message).toBe('practitioner_id: Nora Test does not deliver Physiotherapy; choose a practitioner who does '
      + '(set them in Cliniko (then import) or in Settings → Practitioners → Appointment types delivered).');
    const toUna = await move(una, acme.tokens.staff);
    expect(toUna.status).toBe(422);
    expect(toUna.body.message).toBe("practitioner_id: Una Test's qualifications are unknown (no appointment types from Cliniko or Rounds), so no visit is moved "
      + 'to them; an administrator sets them in Cliniko or in Settings → Practitioners.');
    const [unchanged] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, visits.physio));
    expect(unchanged.practitioner_id).toBe(pat);
  });

  it('Insert into a route places it only with a practitioner who delivers it, never with an unknown one', async () => {
    const insertion = (ids: number[]) => t.request('POST', `/api/appointments/${visits.physio}/insertion`, { token: acme.tokens.staff, body: { practitioner_ids: ids } });
    const none = await insertion([nora, una]);
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.insertion).toBeNull();
    expect(none.body.message).toMatch(/only with a practitioner who delivers this type of visit/);
    const found = await insertion([nora, una, pat]);
    expect(found.body.insertion.practitioner_id).toBe(pat);
    // A nursing visit may go to Nora, who lives beside it, but never to Una, who lives even nearer.
    const nursingFound = await t.request('POST', `/api/appointments/${visits.nursing}/insertion`, { token: acme.tokens.staff, body: { practitioner_ids: [una, nora] } });
    expect(nursingFound.body.insertion.practitioner_id).toBe(nora);
  });

  it('the nearby search suggests no one who does not deliver the type, nor anyone whose qualifications are unknown', async () => {
    const search = async (extra: string) => (await t.request('GET', `/api/search/nearby?lat=-27.47&lng=153.05&date=${DAY}&radius_km=5${extra}`, { token: acme.tokens.staff }))
      .body.practitioners.map((row: { practitioner_id: number }) => row.practitioner_id);
    // Una lives nearest; Pat has the day's visits there.
    expect((await search(`&appointment_type_id=${nursing}`)).sort()).toEqual([pat, nora].sort());
    expect(await search(`&appointment_type_id=${physio}`)).toEqual([pat]);
    expect((await search('')).sort()).toEqual([pat, nora].sort());
  });

  it('a reassign run gives no visit to a practitioner who does not deliver it or whose qualifications are unknown; their own visit stays', async () => {
    const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: DAY, practitioner_ids: [pat, nora, una], mode: 'reassign' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await drainJobs(t.ctx);
    const run = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin })).body.optimization;
    expect(run.status).toBe('COMPLETE');
    const laneOf = new Map<number, number>();
    for (const lane of run.proposal.lanes) for (const stop of lane.after.stops) laneOf.set(stop.appointment_id, lane.practitioner_id);
    // Una lives nearest and saw both clients last week, but her qualifications are unknown; Nora does not deliver physiotherapy.
    expect([pat, nora]).toContain(laneOf.get(visits.nursing));
    expect(laneOf.get(visits.physio)).toBe(pat);
    expect(laneOf.get(visits.unas)).toBe(una); // theirs already
  });

  it('a kept visit of a practitioner on leave all day goes to a qualified practitioner, never to one whose qualifications are unknown', async () => {
    const LEAVE_DAY = '2029-04-11';
    await t.ctx.db.insert(practitionerLeave).values({
      business_account_id: acme.businessAccountId, practitioner_id: pat, starts_at: at(LEAVE_DAY, '00:00'), ends_at: at(LEAVE_DAY, '23:59'), reason: 'Annual leave',
    });
    const [client] = await t.ctx.db.insert(clients).values({
      business_account_id: acme.businessAccountId, first_name: 'Kit', last_name: 'Client', lat: -27.47, lng: 153.05, time_zone: 'Australia/Brisbane',
    }).returning({ id: clients.id });
    const [kept] = await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: pat, appointment_type_id: nursing, arrival_locked: true,
      starts_at: at(LEAVE_DAY, '10:00'), ends_at: at(LEAVE_DAY, '10:30'), arrive_at: at(LEAVE_DAY, '10:00'), lat: -27.47, lng: 153.05,
    }).returning({ id: appointments.id });
    // Nora and Una have nothing booked that day: a day of one visit is worth opening here (the call-in threshold).
    const settings = (body: object) => t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body });
    expect((await settings({ call_in_min_visits: 1 })).status).toBe(200);
    try {
      const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date: LEAVE_DAY, practitioner_ids: [pat, una, nora], mode: 'reassign' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      await drainJobs(t.ctx);
      const run = (await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin })).body.optimization;
      expect(run.status, JSON.stringify(run.error)).toBe('COMPLETE');
      const lane = run.proposal.lanes.find((candidate: any) => candidate.after.stops.some((stop: any) => stop.appointment_id === kept.id));
      expect(lane?.practitioner_id).toBe(nora);
    } finally {
      expect((await settings({ call_in_min_visits: 3 })).status).toBe(200);
    }
  });

  it('the day checker raises "Not qualified for this visit" when known qualifications exclude the type, not when they are unknown', async () => {
    await t.ctx.db.update(appointments).set({ practitioner_id: nora }).where(eq(appointments.id, visits.physio));
    try {
      const read = await t.request('GET', `/api/schedule/issues?date=${DAY}`, { token: acme.tokens.staff });
      expect(read.status).toBe(200);
      const skills = read.body.issues.filter((issue: { rule: string }) => issue.rule === 'skills');
      expect(skills).toEqual([{ rule: 'skills', hard: true, appointment_ids: [visits.physio], message: 'Phyllis Client 09:00–09:30 is with Nora Test, who does not deliver Physiotherapy.' }]);
      expect(read.body.counts.find((count: { rule: string }) => count.rule === 'skills')).toEqual({ rule: 'skills', title: 'Not qualified for this visit', hard: true, count: 1 });
    } finally {
      await t.ctx.db.update(appointments).set({ practitioner_id: pat }).where(eq(appointments.id, visits.physio));
    }
  });
});
