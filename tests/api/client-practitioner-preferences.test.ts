// A client's preferred and excluded practitioners (issue 24 rule 6): setting and reading them (validation, roles,
// tenancy, the change log), an optimisation that never gives a visit to an excluded practitioner and favours a
// preferred one, and moves, insertions and the nearby search by hand that never reach an excluded one.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, optimizationSettings, versions } from '../../server/src/db/schema';
import { loadDay, problemOf } from '../../server/src/modules/optimizations';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { brisbaneAt as at, homesWestAndEast } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let pat: number;
let quinn: number;

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 200 });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  [pat, quinn] = acme.practitionerIds;
  // Pat lives in the west of Brisbane, Quinn in the east.
  await homesWestAndEast(t, acme, '08:00', '17:00');
  // These days give one client's visit to a practitioner with nothing else booked: a day of one visit is worth opening here.
  expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { call_in_min_visits: 1 } })).status).toBe(200);
}, 120_000);
afterAll(() => t.close());

const setPractitioners = (clientId: number, body: unknown, token = acme.tokens.staff) =>
  t.request('PUT', `/api/clients/${clientId}/update_practitioners`, { token, body });
const getClient = (clientId: number, token = acme.tokens.staff) => t.request('GET', `/api/clients/${clientId}`, { token });

async function addClient(firstName: string, lastName: string, lng: number): Promise<number> {
  const [row] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: firstName, last_name: lastName, lat: -27.47, lng, time_zone: 'Australia/Brisbane',
  }).returning({ id: clients.id });
  return row.id;
}

async function addVisit(date: string, practitionerId: number, clientId: number, hhmm: string): Promise<number> {
  const [client] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: at(date, hhmm), ends_at: new Date(at(date, hhmm).getTime() + 30 * 60_000), arrive_at: at(date, hhmm), lat: client.lat, lng: client.lng,
  }).returning({ id: appointments.id });
  return row.id;
}

/** Runs an optimisation of the day as the admin and answers the finished run. */
async function optimise(date: string, practitionerIds: number[], mode: 'reassign' | 'keep_practitioners' = 'reassign') {
  const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date, practitioner_ids: practitionerIds, mode } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const read = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
  return read.body.optimization;
}
const laneOf = (run: any, appointmentId: number) =>
  run.proposal.lanes.find((lane: any) => lane.after.stops.some((stop: any) => stop.appointment_id === appointmentId))?.practitioner_id;

describe('setting a client\'s preferred and excluded practitioners', () => {
  it('a new client has none; the lists are set, read back with the client and written to the change log', async () => {
    const [cora] = acme.clientIds;
    expect((await getClient(cora)).body.client).toMatchObject({ preferred_practitioner_ids: [], excluded_practitioner_ids: [] });

    const saved = await setPractitioners(cora, { preferred_practitioner_ids: [quinn], excluded_practitioner_ids: [pat] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.client).toMatchObject({ id: cora, preferred_practitioner_ids: [quinn], excluded_practitioner_ids: [pat] });
    expect((await getClient(cora, acme.tokens.admin)).body.client).toMatchObject({ preferred_practitioner_ids: [quinn], excluded_practitioner_ids: [pat] });
    const [version] = (await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, cora)))).slice(-1);
    expect(version).toMatchObject({ whodunnit: 'Sid', object_changes: { preferred_practitioner_ids: [[], [quinn]], excluded_practitioner_ids: [[], [pat]] } });

    // Swapping them is one change; emptying both clears them.
    expect((await setPractitioners(cora, { preferred_practitioner_ids: [pat], excluded_practitioner_ids: [quinn] }, acme.tokens.admin)).body.client)
      .toMatchObject({ preferred_practitioner_ids: [pat], excluded_practitioner_ids: [quinn] });
    expect((await setPractitioners(cora, { preferred_practitioner_ids: [], excluded_practitioner_ids: [] })).body.client)
      .toMatchObject({ preferred_practitioner_ids: [], excluded_practitioner_ids: [] });
  });

  it('refuses, in words, another business\'s practitioner, one in both lists and more than 50', async () => {
    const [cora] = acme.clientIds;
    const foreign = await setPractitioners(cora, { preferred_practitioner_ids: [], excluded_practitioner_ids: [other.practitionerIds[0]] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe(`excluded_practitioner_ids: no practitioner with id ${other.practitionerIds[0]} in this business.`);

    const both = await setPractitioners(cora, { preferred_practitioner_ids: [pat, quinn], excluded_practitioner_ids: [quinn] });
    expect(both.status).toBe(422);
    expect(both.body.message).toBe('excluded_practitioner_ids: Quinn acme-Two cannot be both preferred and excluded for Cora acme-Client; choose one.');

    const many = await setPractitioners(cora, { preferred_practitioner_ids: Array.from({ length: 51 }, (_, i) => i + 1), excluded_practitioner_ids: [] });
    expect(many.status).toBe(422);
    expect(many.body.message).toMatch(/preferred_practitioner_ids.*50/);

    // Nothing was saved.
    expect((await getClient(cora)).body.client).toMatchObject({ preferred_practitioner_ids: [], excluded_practitioner_ids: [] });
  });

  it('a practitioner account cannot set them; another business\'s client is not found', async () => {
    const [cora] = acme.clientIds;
    const body = { preferred_practitioner_ids: [], excluded_practitioner_ids: [quinn] };
    expect((await setPractitioners(cora, body, acme.tokens.practitioner)).status).toBe(403);
    expect((await setPractitioners(other.clientIds[0], body)).status).toBe(404);
    expect((await setPractitioners(other.clientIds[0], body, acme.tokens.admin)).status).toBe(404);
    expect((await getClient(cora)).body.client.excluded_practitioner_ids).toEqual([]);
  });
});

describe('an excluded practitioner is never given the client\'s visit', () => {
  const DAY = '2029-11-23'; // Friday
  let dorothy: number;
  let nell: number;
  let dorothysVisit: number;

  beforeAll(async () => {
    // Dorothy and her neighbour Nell live next door to Pat, but Dorothy's visit is booked with Quinn.
    dorothy = await addClient('Dorothy', 'Ryan', 152.94);
    nell = await addClient('Nell', 'Next-Door', 152.941);
    dorothysVisit = await addVisit(DAY, quinn, dorothy, '10:00');
  });

  it('an optimisation that may reassign visits gives Dorothy\'s to Pat next door, unless she has excluded Pat', async () => {
    const free = await optimise(DAY, [pat, quinn]);
    expect(free.status).toBe('COMPLETE');
    expect(laneOf(free, dorothysVisit)).toBe(pat);

    expect((await setPractitioners(dorothy, { preferred_practitioner_ids: [], excluded_practitioner_ids: [pat] })).status).toBe(200);
    const excluded = await optimise(DAY, [pat, quinn]);
    expect(excluded.status).toBe('COMPLETE');
    expect(laneOf(excluded, dorothysVisit)).toBe(quinn);
  });

  it('a visit booked with the excluded practitioner, and no one else chosen, is left unplaced, saying why', async () => {
    const MONDAY = '2029-11-26';
    const booked = await addVisit(MONDAY, pat, dorothy, '10:00');
    const run = await optimise(MONDAY, [pat]);
    expect(run.proposal.unplaced).toEqual([expect.objectContaining({
      appointment_id: booked, reason: 'no-practitioner-with-skill',
      message: 'Dorothy Ryan has asked not to be visited by Pat acme-One, and none of the other chosen practitioners delivers Nursing visit.',
    })]);
    // Keeping each visit's practitioner keeps it with Pat: the optimisation only orders and times the day.
    const kept = await optimise(MONDAY, [pat], 'keep_practitioners');
    expect(kept.status).toBe('COMPLETE');
    expect(laneOf(kept, booked)).toBe(pat);
  });

  it('moving her visit to Pat by hand is refused, naming both; to Quinn at another time it moves', async () => {
    const moved = await t.request('PATCH', `/api/appointments/${dorothysVisit}/move`, { token: acme.tokens.staff, body: { practitioner_id: pat } });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ code: 'PRACTITIONER_EXCLUDED', message: 'Dorothy Ryan has asked not to be visited by Pat acme-One.' });
    const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, dorothysVisit));
    expect(row.practitioner_id).toBe(quinn);
    const intoRoute = await t.request('PATCH', `/api/appointments/${dorothysVisit}/move`, {
      token: acme.tokens.staff, body: { practitioner_id: pat, starts_at: `${DAY}T13:00:00+10:00`, into_route: true },
    });
    expect(intoRoute.status).toBe(409);
    const retimed = await t.request('PATCH', `/api/appointments/${dorothysVisit}/move`, { token: acme.tokens.staff, body: { starts_at: `${DAY}T10:30:00+10:00` } });
    expect(retimed.status, JSON.stringify(retimed.body)).toBe(200);
  });

  it('"Insert into a route" never suggests Pat', async () => {
    const insertion = (practitionerIds: number[]) =>
      t.request('POST', `/api/appointments/${dorothysVisit}/insertion`, { token: acme.tokens.staff, body: { practitioner_ids: practitionerIds } });
    const both = await insertion([pat, quinn]);
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.insertion).toMatchObject({ practitioner_id: quinn });
    const onlyPat = await insertion([pat]);
    expect(onlyPat.body).toEqual({ insertion: null, message: 'Dorothy Ryan has asked not to be visited by Pat acme-One.' });
  });

  it('the nearby search from Dorothy never suggests Pat', async () => {
    const search = (clientId: number) => t.request('GET', `/api/search/nearby?client_id=${clientId}&date=${DAY}&radius_km=30`, { token: acme.tokens.staff });
    const fromNell = await search(nell);
    expect(fromNell.status, JSON.stringify(fromNell.body)).toBe(200);
    expect(fromNell.body.practitioners.map((practitioner: any) => practitioner.practitioner_id)).toContain(pat);
    const fromDorothy = await search(dorothy);
    expect(fromDorothy.status).toBe(200);
    expect(fromDorothy.body.practitioners.map((practitioner: any) => practitioner.practitioner_id)).not.toContain(pat);
    expect(fromDorothy.body.practitioners.map((practitioner: any) => practitioner.practitioner_id)).toContain(quinn);
  });
});

describe('a preferred practitioner is favoured', () => {
  const DAY = '2029-11-30'; // Friday
  let edna: number;
  let ednasVisit: number;

  beforeAll(async () => {
    // Keeping clients with their practitioner outweighs the travel here (a handover costs two hours of driving).
    await t.ctx.db.insert(optimizationSettings).values({ business_account_id: acme.businessAccountId, preset: 'continuity', weight_continuity: 2 })
      .onConflictDoUpdate({ target: optimizationSettings.business_account_id, set: { preset: 'continuity', weight_continuity: 2 } });
    // Edna lives halfway between Pat and Quinn; her visit is booked with Quinn and she has no usual practitioner yet.
    edna = await addClient('Edna', 'Moss', 153.02);
    ednasVisit = await addVisit(DAY, quinn, edna, '10:00');
  });
  afterAll(() => t.ctx.db.delete(optimizationSettings).where(eq(optimizationSettings.business_account_id, acme.businessAccountId)));

  it('without a preference the visit stays with the booked practitioner; preferring Pat gives it to Pat', async () => {
    expect(laneOf(await optimise(DAY, [pat, quinn]), ednasVisit)).toBe(quinn);
    expect((await setPractitioners(edna, { preferred_practitioner_ids: [pat], excluded_practitioner_ids: [] })).status).toBe(200);
    expect(laneOf(await optimise(DAY, [pat, quinn]), ednasVisit)).toBe(pat);
  });

  it('the usual practitioner, when preferred, is kept; when not preferred, the preferred one in the run is favoured', async () => {
    const previousOf = async () => {
      const { problem } = problemOf(await loadDay(t.ctx.db, acme.businessAccountId, { date: DAY, practitionerIds: [pat, quinn], mode: 'reassign' }));
      return problem.visits.find((visit) => visit.id === String(ednasVisit))!.previousPractitionerId;
    };
    // Last week Quinn saw her: Quinn is her usual practitioner.
    await addVisit('2029-11-23', quinn, edna, '15:00');
    expect(await previousOf()).toBe(String(pat));
    await setPractitioners(edna, { preferred_practitioner_ids: [pat, quinn], excluded_practitioner_ids: [] });
    expect(await previousOf()).toBe(String(quinn));
    await setPractitioners(edna, { preferred_practitioner_ids: [], excluded_practitioner_ids: [] });
    expect(await previousOf()).toBe(String(quinn));
    // An excluded usual practitioner is not favoured.
    await setPractitioners(edna, { preferred_practitioner_ids: [], excluded_practitioner_ids: [quinn] });
    expect(await previousOf()).toBeUndefined();
  });
});
