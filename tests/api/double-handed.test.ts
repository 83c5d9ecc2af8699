// Double-handed (two-carer) visits through the API (ADR 0020, rule 4): an appointment type may need two
// practitioners; a visit of it without a second booking of its client at the same time with another practitioner is
// a hard problem of its day, named in words, and keeps its time in a run; a pair stays together through both run
// modes; moving or re-timing one half by hand takes the other half along (each with its own practitioner), checked
// as one change; every appointment read names its partner.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, versions } from '../../server/src/db/schema';
import type { OptimizationMode } from '../../server/src/modules/optimizations';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { brisbaneAt as at, brisbaneClock as clock, homesWestAndEast } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let pat: number;
let quinn: number;
let twoCarer: number;
let domestic: number;
const names = new Map<number, string>();

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  [pat, quinn] = acme.practitionerIds;
  [twoCarer, domestic] = acme.appointmentTypeIds;
  await homesWestAndEast(t, acme, '07:00', '19:00');
  const listed = await t.request('GET', '/api/practitioners/all', { token: acme.tokens.admin });
  for (const practitioner of listed.body.practitioners) names.set(practitioner.id, practitioner.full_name);
  const flagged = await t.request('PUT', `/api/appointment_types/${twoCarer}`, { token: acme.tokens.admin, body: { needs_two_practitioners: true } });
  expect(flagged.status).toBe(200);
}, 120_000);
afterAll(() => t.close());

let clientCount = 0;
async function addClient(lng: number, name = `Client${++clientCount}`): Promise<number> {
  const [row] = await t.ctx.db.insert(clients).values({
    business_account_id: acme.businessAccountId, first_name: name, last_name: 'Care', lat: -27.47, lng, time_zone: 'Australia/Brisbane',
  }).returning({ id: clients.id });
  return row.id;
}

async function addVisit(date: string, practitionerId: number, clientId: number, hhmm: string, typeId = domestic, minutes = 30): Promise<number> {
  const [client] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
  const startsAt = at(date, hhmm);
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: typeId,
    starts_at: startsAt, ends_at: new Date(startsAt.getTime() + minutes * 60_000), arrive_at: startsAt, lat: client.lat, lng: client.lng,
  }).returning({ id: appointments.id });
  return row.id;
}

/** Hourly visits from 08:00 that zig-zag east–west, of a type that may move 3 hours: a run has reason to move them. */
async function zigzag(date: string, practitionerId: number): Promise<void> {
  for (const [index, lng] of [153.07, 152.97, 153.05, 152.99, 153.03, 153.01].entries()) {
    await addVisit(date, practitionerId, await addClient(lng), `${String(8 + index).padStart(2, '0')}:00`);
  }
}

async function optimise(date: string, mode: OptimizationMode) {
  const created = await t.request('POST', '/api/optimizations', { token: acme.tokens.admin, body: { date, mode } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const read = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
  expect(read.body.optimization.status, JSON.stringify(read.body.optimization.error)).toBe('COMPLETE');
  await t.request('POST', `/api/optimizations/${created.body.optimization.id}/discard`, { token: acme.tokens.admin });
  const stops = read.body.optimization.proposal.lanes.flatMap((lane: any) => lane.after.stops.map((stop: any) => ({ ...stop, practitioner_id: lane.practitioner_id })));
  return { proposal: read.body.optimization.proposal, stops: new Map<number, any>(stops.map((stop: any) => [stop.appointment_id, stop])) };
}

const issuesOf = async (date: string) => (await t.request('GET', `/api/schedule/issues?date=${date}`, { token: acme.tokens.staff })).body.issues as any[];
const rowsOf = async (ids: number[]) => new Map((await t.ctx.db.select().from(appointments).where(inArray(appointments.id, ids))).map((row) => [row.id, row]));

describe('an appointment type that needs two practitioners', () => {
  it('is saved, listed and validated, by admins only', async () => {
    const all = await t.request('GET', '/api/appointment_types/all', { token: acme.tokens.staff });
    expect(all.body.appointment_types.find((type: any) => type.id === twoCarer)).toMatchObject({ needs_two_practitioners: true });
    expect(all.body.appointment_types.find((type: any) => type.id === domestic)).toMatchObject({ needs_two_practitioners: false });
    const bad = await t.request('PUT', `/api/appointment_types/${domestic}`, { token: acme.tokens.admin, body: { needs_two_practitioners: 'yes' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/needs_two_practitioners/);
    expect((await t.request('PUT', `/api/appointment_types/${domestic}`, { token: acme.tokens.staff, body: { needs_two_practitioners: true } })).status).toBe(403);
    expect((await t.request('PUT', `/api/appointment_types/${twoCarer}`, { token: other.tokens.admin, body: { needs_two_practitioners: false } })).status).toBe(404);
    const [logged] = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'AppointmentType'), eq(versions.item_id, twoCarer)));
    expect(logged.object_changes).toMatchObject({ needs_two_practitioners: [false, true] });
  });
});

describe('the day checker and the appointments read', () => {
  const DAY = '2029-04-02';
  let lone: number;
  let withPat: number;
  let withQuinn: number;

  beforeAll(async () => {
    lone = await addVisit(DAY, pat, await addClient(153.02, 'Ryan'), '09:00', twoCarer);
    const hoist = await addClient(153.04, 'Hoist');
    withPat = await addVisit(DAY, pat, hoist, '11:00', twoCarer);
    withQuinn = await addVisit(DAY, quinn, hoist, '11:00', domestic);
  });

  it('names a two-practitioner visit booked with one practitioner only, as a hard problem, and not a pair', async () => {
    const issues = (await issuesOf(DAY)).filter((issue) => issue.rule === 'double-handed');
    expect(issues).toEqual([{
      rule: 'double-handed', hard: true, appointment_ids: [lone],
      message: `Ryan Care's Nursing visit at 09:00 needs two practitioners; only ${names.get(pat)} is booked.`,
    }]);
  });

  it('gives each half of a pair its partner, and a lone visit none, in the list and by id', async () => {
    const list = await t.request('GET', `/api/appointments?start_date=${DAY}&end_date=${DAY}`, { token: acme.tokens.staff });
    const partners = new Map(list.body.appointments.map((item: any) => [item.id, item.partner]));
    expect(partners.get(lone)).toBeNull();
    expect(partners.get(withPat)).toEqual({ appointment_id: withQuinn, practitioner_id: quinn, practitioner_name: names.get(quinn) });
    expect(partners.get(withQuinn)).toEqual({ appointment_id: withPat, practitioner_id: pat, practitioner_name: names.get(pat) });
    const one = await t.request('GET', `/api/appointments/${withQuinn}`, { token: acme.tokens.staff });
    expect(one.body.appointment.partner).toEqual({ appointment_id: withPat, practitioner_id: pat, practitioner_name: names.get(pat) });
  });
});

describe('a run', () => {
  it.each(['keep_practitioners', 'reassign'] as const)('keeps a pair together and a lone two-practitioner visit at its time (%s)', async (mode) => {
    const DAY = mode === 'reassign' ? '2029-04-04' : '2029-04-03';
    const hoist = await addClient(153.04);
    const withPat = await addVisit(DAY, pat, hoist, '10:30', twoCarer, 60);
    const withQuinn = await addVisit(DAY, quinn, hoist, '10:30', twoCarer, 60);
    const lone = await addVisit(DAY, quinn, await addClient(153.0), '13:30', twoCarer);
    await zigzag(DAY, pat);
    const { proposal, stops } = await optimise(DAY, mode);
    expect([withPat, withQuinn, lone].map((id) => clock(stops.get(id).arrive_at))).toEqual(['10:30', '10:30', '13:30']);
    expect(new Set([stops.get(withPat).practitioner_id, stops.get(withQuinn).practitioner_id]).size).toBe(2);
    expect(stops.get(lone).practitioner_id).toBe(quinn);
    // The proposal's lanes name each half's partner, as the appointments read does.
    expect(stops.get(withPat).partner).toEqual({ appointment_id: withQuinn, practitioner_id: quinn, practitioner_name: names.get(quinn) });
    expect(stops.get(lone).partner).toBeNull();
    // The run did move other visits: the pair stayed because of the rule, not for want of a change.
    expect(proposal.changes.length).toBeGreaterThan(0);
    const key = (issue: any) => `${issue.rule}:${issue.appointment_ids.join(',')}`;
    const before = new Set(proposal.checks.before.map(key));
    expect(proposal.checks.after.filter((issue: any) => issue.hard && !before.has(key(issue)))).toEqual([]);
    expect(proposal.checks.after.filter((issue: any) => issue.rule === 'double-handed').map((issue: any) => issue.appointment_ids)).toEqual([[lone]]);
  });
});

describe('changes by hand to one half of a pair', () => {
  it('move both halves to the new time, each with its own practitioner, in the change log', async () => {
    const DAY = '2029-04-05';
    const hoist = await addClient(153.04);
    const withPat = await addVisit(DAY, pat, hoist, '10:00', twoCarer, 60);
    const withQuinn = await addVisit(DAY, quinn, hoist, '10:00', twoCarer, 45);
    const moved = await t.request('PATCH', `/api/appointments/${withPat}/move`, { token: acme.tokens.staff, body: { starts_at: at(DAY, '14:00').toISOString() } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const rows = await rowsOf([withPat, withQuinn]);
    expect([withPat, withQuinn].map((id) => [rows.get(id)!.practitioner_id, clock(rows.get(id)!.starts_at.toISOString()), clock(rows.get(id)!.ends_at.toISOString()), clock(rows.get(id)!.arrive_at!.toISOString())]))
      .toEqual([[pat, '14:00', '15:00', '14:00'], [quinn, '14:00', '14:45', '14:00']]);
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Appointment'), eq(versions.item_id, withQuinn)));
    expect(log.at(-1)).toMatchObject({ item_type: 'Appointment', reason: expect.stringMatching(/^Moved by /) });
    expect((await issuesOf(DAY)).filter((issue) => issue.rule === 'double-handed')).toEqual([]);
  });

  it('refuse, in words, giving one half to the other half’s practitioner', async () => {
    const DAY = '2029-04-06';
    const hoist = await addClient(153.04);
    const withPat = await addVisit(DAY, pat, hoist, '10:00', twoCarer);
    await addVisit(DAY, quinn, hoist, '10:00', twoCarer);
    const refused = await t.request('PATCH', `/api/appointments/${withPat}/move`, { token: acme.tokens.staff, body: { practitioner_id: quinn } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('RULES_BROKEN');
    expect(refused.body.message).toContain('needs two practitioners');
    expect((await rowsOf([withPat])).get(withPat)!.practitioner_id).toBe(pat);
  });

  it('refuse, in words, moving one half while the other has started or is about to, and move neither', async () => {
    const hoist = await addClient(153.04);
    const startsAt = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 10 * 60_000);
    // The other half arrives at once (within the 30 minutes that stay as they are); this one 25 minutes later.
    const [mine, theirs] = await t.ctx.db.insert(appointments).values([
      { practitioner_id: pat, arrive_at: new Date(startsAt.getTime() + 25 * 60_000) }, { practitioner_id: quinn, arrive_at: startsAt },
    ].map((half) => ({
      business_account_id: acme.businessAccountId, client_id: hoist, appointment_type_id: twoCarer, ...half,
      starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 60 * 60_000), lat: -27.47, lng: 153.04,
    }))).returning({ id: appointments.id });
    const refused = await t.request('PATCH', `/api/appointments/${mine.id}/move`, {
      token: acme.tokens.staff, body: { starts_at: new Date(startsAt.getTime() + 3 * 3600_000).toISOString() },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`This is a two-carer visit with ${names.get(quinn)}, whose visit has started (or starts within 30 minutes): both keep their time.`);
    const rows = await rowsOf([mine.id, theirs.id]);
    expect([mine.id, theirs.id].map((id) => rows.get(id)!.starts_at.getTime())).toEqual([startsAt.getTime(), startsAt.getTime()]);
  });

  it('set both arrivals when one half’s arrival is set', async () => {
    const DAY = '2029-04-09';
    const hoist = await addClient(153.04);
    const withPat = await addVisit(DAY, pat, hoist, '10:00', twoCarer);
    const withQuinn = await addVisit(DAY, quinn, hoist, '10:00', twoCarer);
    const set = await t.request('PUT', `/api/appointments/${withQuinn}/update_arrival_time`, { token: acme.tokens.staff, body: { arrive_at: at(DAY, '10:20').toISOString() } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const rows = await rowsOf([withPat, withQuinn]);
    expect([withPat, withQuinn].map((id) => clock(rows.get(id)!.arrive_at!.toISOString()))).toEqual(['10:20', '10:20']);
  });
});
