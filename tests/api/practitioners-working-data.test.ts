// Practitioners' working data for routing (issue 12): the admin's settings list, PATCH /practitioners/{id} for places,
// home, hours, break, skills, limits and time zone, bulk hours, the change log, roles, tenancy, validation, an import
// that must not overwrite any of it, and the optimiser's view of a practitioner's day.
import { and, asc, eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, businessLocations, practitioners, resourceMaps, versions } from '../../server/src/db/schema';
import { describeVersions } from '../../server/src/modules/audit';
import { loadPractitionerDays } from '../../server/src/modules/practitioners';
import { syncReferenceData } from '../../server/src/modules/sync';
import { createPmsAdapter } from '../../server/src/pms';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t?.close());

const WEEKDAYS_8_TO_4_30 = [...Array(5).fill({ start: '08:00', end: '16:30' }), { start: '09:00', end: '12:00' }, null];
const HOME = { address: '12 Merthyr Road, New Farm QLD 4005', lat: -27.467, lng: 153.047 };

const patch = (id: number, body: unknown, token = acme.tokens.admin) => t.request('PATCH', `/api/practitioners/${id}`, { token, body });
async function settings(token = acme.tokens.admin, query = '') {
  const response = await t.request('GET', `/api/practitioners${query}`, { token });
  expect(response.status).toBe(200);
  return response.body.practitioners as any[];
}
const settingsOf = async (id: number) => (await settings()).find((p) => p.id === id);
const versionsOf = (id: number) => t.ctx.db.select().from(versions)
  .where(and(eq(versions.item_type, 'Practitioner'), eq(versions.item_id, id))).orderBy(asc(versions.id));

describe('the settings list', () => {
  it('shows an admin every practitioner, active and inactive, filterable, with what stops routing them', async () => {
    const all = await settings();
    expect(all.map((p) => p.id).sort()).toEqual([...acme.practitionerIds].sort());
    expect((await settings(acme.tokens.admin, '?active=true')).map((p) => p.id).sort()).toEqual(acme.practitionerIds.slice(0, 2).sort());
    expect((await settings(acme.tokens.admin, '?active=false')).map((p) => p.id)).toEqual([acme.practitionerIds[2]]);
    const fresh = all.find((p) => p.id === acme.practitionerIds[0]);
    expect(fresh).toMatchObject({
      start_place: null, end_place: null, home: null, working_hours: [null, null, null, null, null, null, null], break: null,
      skill_appointment_type_ids: null, max_visits: null, max_travel_minutes: null, time_zone: 'Australia/Brisbane', routable: false,
    });
    expect(fresh.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^No start place/), expect.stringMatching(/^No working hours/)]));
  });

  it('is read by coordinators (admins and staff, who move visits between practitioners), never by a practitioner', async () => {
    expect((await t.request('GET', '/api/practitioners', { token: acme.tokens.staff })).status).toBe(200);
    expect((await t.request('GET', '/api/practitioners', { token: acme.tokens.practitioner })).status).toBe(403);
  });
});

describe('PATCH /practitioners/{id}', () => {
  it('saves places, home, hours, break, skills, limits and time zone; resolves the places; records who changed what', async () => {
    const id = acme.practitionerIds[0];
    const response = await patch(id, {
      home: HOME,
      start_place: { kind: 'home' },
      end_place: { kind: 'business_location', id: acme.businessLocationIds[0] },
      working_hours: WEEKDAYS_8_TO_4_30,
      break: { earliest: '11:00', latest: '13:00', minutes: 30 },
      skill_appointment_type_ids: [acme.appointmentTypeIds[1], acme.appointmentTypeIds[0]],
      max_visits: 8,
      max_travel_minutes: 120,
      time_zone: 'australia/sydney',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const saved = response.body.practitioner;
    expect(saved).toMatchObject({
      id,
      home: HOME,
      start_place: { kind: 'home', id: null, name: 'Home', address: HOME.address, lat: HOME.lat, lng: HOME.lng },
      end_place: { kind: 'business_location', id: acme.businessLocationIds[0], name: 'acme office', lat: -27.4698, lng: 153.0251 },
      working_hours: WEEKDAYS_8_TO_4_30,
      break: { earliest: '11:00', latest: '13:00', minutes: 30 },
      skill_appointment_type_ids: [...acme.appointmentTypeIds].sort((a, b) => a - b),
      max_visits: 8,
      max_travel_minutes: 120,
      time_zone: 'Australia/Sydney',
      routable: true,
      warnings: [],
    });
    expect(await settingsOf(id)).toEqual(saved);

    const [version] = await versionsOf(id);
    expect(version).toMatchObject({ business_account_id: acme.businessAccountId, event: 'update', whodunnit: 'Ada acme' });
    expect(version.object_changes).toMatchObject({
      start_place: [null, { kind: 'home', id: null, name: 'Home' }],
      end_place: [null, { kind: 'business_location', id: acme.businessLocationIds[0], name: 'acme office' }],
      working_hours: [[null, null, null, null, null, null, null], WEEKDAYS_8_TO_4_30],
      time_zone: ['Australia/Brisbane', 'Australia/Sydney'],
      max_visits: [null, 8],
    });
    const [described] = await describeVersions(t.ctx.db, acme.businessAccountId, [version]);
    const byLabel = Object.fromEntries(described.map((change) => [change.label, change]));
    expect(byLabel['Working hours'].to).toBe('Mon 08:00–16:30, Tue 08:00–16:30, Wed 08:00–16:30, Thu 08:00–16:30, Fri 08:00–16:30, Sat 09:00–12:00, Sun off');
    expect(byLabel['End place'].to).toBe('acme office');
    expect(byLabel['Break'].to).toBe('30 min, starting between 11:00 and 13:00');
    expect(byLabel['Appointment types delivered'].from).toBe('Every type Cliniko lists');
    expect(byLabel['Appointment types delivered'].to).toBe('Nursing visit, Physiotherapy');
  });

  it('records old → new on a later change, nothing when nothing changes, and lets null clear a field', async () => {
    const id = acme.practitionerIds[0];
    const before = (await versionsOf(id)).length;
    expect((await patch(id, { max_visits: 8, time_zone: 'Australia/Sydney' })).status).toBe(200);
    expect(await versionsOf(id)).toHaveLength(before);
    const cleared = await patch(id, { end_place: null, break: null, skill_appointment_type_ids: null, max_visits: 6 });
    expect(cleared.status).toBe(200);
    expect(cleared.body.practitioner).toMatchObject({ end_place: null, break: null, skill_appointment_type_ids: null, max_visits: 6, routable: true });
    const latest = (await versionsOf(id)).at(-1)!;
    expect(latest.object_changes).toEqual({
      end_place: [{ kind: 'business_location', id: acme.businessLocationIds[0], name: 'acme office' }, null],
      break: [{ earliest: '11:00', latest: '13:00', minutes: 30 }, null],
      skill_appointment_type_ids: [[...acme.appointmentTypeIds].sort((a, b) => a - b), null],
      max_visits: [8, 6],
    });
  });

  it('saves a break outside the working hours with a warning naming the days', async () => {
    const id = acme.practitionerIds[0];
    const response = await patch(id, { break: { earliest: '11:30', latest: '12:00', minutes: 60 } });
    expect(response.status).toBe(200);
    expect(response.body.practitioner.break).toEqual({ earliest: '11:30', latest: '12:00', minutes: 60 });
    expect(response.body.practitioner.warnings).toEqual(['The break cannot be taken inside the working hours on Saturday; it is left out on those days.']);
    expect(response.body.practitioner.routable).toBe(true);
  });

  it('refuses bad input with 422 naming the field, and changes nothing', async () => {
    const id = acme.practitionerIds[1];
    const before = await settingsOf(id);
    const versionCount = (await versionsOf(id)).length;
    const cases: [unknown, RegExp][] = [
      [{ start_place: { kind: 'business_location' } }, /start_place\.id is required/],
      [{ end_place: { kind: 'custom_location', id: null } }, /end_place\.id is required/],
      [{ start_place: { kind: 'home', id: acme.businessLocationIds[0] } }, /start_place\.id must be left out/],
      [{ start_place: { kind: 'office' } }, /start_place/],
      [{ start_place: { kind: 'business_location', id: other.businessLocationIds[0] } }, /start_place\.id: there is no business location/],
      [{ end_place: { kind: 'custom_location', id: other.customLocationIds[0] } }, /end_place\.id: there is no custom location/],
      [{ start_place: { kind: 'home' } }, /start_place: Quinn acme-Two has no home address/],
      [{ working_hours: WEEKDAYS_8_TO_4_30.slice(0, 6) }, /working_hours/],
      [{ working_hours: [{ start: '16:30', end: '08:00' }, null, null, null, null, null, null] }, /working_hours\[0\]: on Monday the end \(08:00\) must be after the start \(16:30\)/],
      [{ working_hours: [null, null, { start: '8:00', end: '16:00' }, null, null, null, null] }, /working_hours\[2\]\.start/],
      [{ working_hours: [null, null, null, { start: '08:00' }, null, null, null] }, /working_hours\[3\]\.end is required/],
      [{ break: { earliest: '13:00', latest: '12:00', minutes: 30 } }, /break\.latest \(12:00\) must not be before break\.earliest/],
      [{ break: { earliest: '12:00', minutes: 30 } }, /break\.latest is required/],
      [{ break: { earliest: '12:00', latest: '13:00', minutes: 0 } }, /break\.minutes/],
      [{ skill_appointment_type_ids: [acme.appointmentTypeIds[0], other.appointmentTypeIds[0]] }, /skill_appointment_type_ids: \d+ is not an appointment type of this business/],
      [{ skill_appointment_type_ids: [1, 1] }, /skill_appointment_type_ids/],
      [{ time_zone: 'Mars/Olympus_Mons' }, /time_zone: "Mars\/Olympus_Mons" is not an IANA time zone/],
      [{ time_zone: '+10:00' }, /time_zone/],
      [{ max_visits: 0 }, /max_visits/],
      [{ max_travel_minutes: 1441 }, /max_travel_minutes/],
      [{ home: { address: 'Somewhere', lat: 91, lng: 153 } }, /home\.lat/],
      [{ home: { address: '   ', lat: -27.4, lng: 153 } }, /home\.address must not be blank/],
      [{ home: { address: 'Somewhere' } }, /home\.lat is required/],
      [{ home: HOME, start_place: { kind: 'home' }, working_hours: 'weekdays' }, /working_hours/],
      [{ color: '#112233', nickname: 'Q' }, /nickname is not an allowed field/],
      [{}, /request|body/],
    ];
    for (const [body, message] of cases) {
      const response = await patch(id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await settingsOf(id)).toEqual(before);
    expect(await versionsOf(id)).toHaveLength(versionCount);
  });

  it('will not remove the home a place uses, but moves both in one request', async () => {
    const id = acme.practitionerIds[0];
    const refused = await patch(id, { home: null });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/^home: Pat acme-One's day starts at home/);
    const moved = await patch(id, { home: null, start_place: { kind: 'custom_location', id: acme.customLocationIds[0] } });
    expect(moved.status).toBe(200);
    expect(moved.body.practitioner).toMatchObject({
      home: null, start_place: { kind: 'custom_location', id: acme.customLocationIds[0], name: 'acme depot', lat: -27.4445, lng: 153.0375 },
    });
    expect((await patch(id, { home: HOME, start_place: { kind: 'home' } })).status).toBe(200);
  });

  it('keeps how precisely the home was placed, and forgets it with the home', async () => {
    const id = acme.practitionerIds[1];
    const found = await patch(id, { home: { ...HOME, precision: 'suburb', source: 'gazetteer' } });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.practitioner.home).toEqual({ ...HOME, precision: 'suburb', source: 'gazetteer' });
    // Without them, the point is a pin placed by hand.
    const pinned = await patch(id, { home: { ...HOME, address: '14 Merthyr Road, New Farm QLD 4005' } });
    expect(pinned.body.practitioner.home).toEqual({ ...HOME, address: '14 Merthyr Road, New Farm QLD 4005', precision: 'address', source: 'manual' });
    expect((await patch(id, { home: { ...HOME, precision: 'none', source: 'manual' } })).body.message).toMatch(/^Invalid request: home\.precision must be one of address, street, suburb/);

    // A home placed on the demo's synthetic streets (as the demo's generated practitioners are) can be removed.
    await t.ctx.db.update(practitioners).set({ home_geo_precision: 'street', home_geo_source: 'sandbox' }).where(eq(practitioners.id, id));
    const removed = await patch(id, { home: null });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.practitioner.home).toBeNull();
    const [row] = await t.ctx.db.select().from(practitioners).where(eq(practitioners.id, id));
    expect([row.home_lat, row.home_geo_precision, row.home_geo_source]).toEqual([null, 'none', null]);
  });

  // The other roles' 403 is asserted, for every operation, by permissions.test.ts.
  it('answers 404 for another business’s practitioner, changing nothing', async () => {
    const foreign = await patch(other.practitionerIds[0], { max_visits: 3, working_hours: WEEKDAYS_8_TO_4_30 });
    expect(foreign.status).toBe(404);
    const theirs = (await settings(other.tokens.admin)).find((p) => p.id === other.practitionerIds[0]);
    expect(theirs).toMatchObject({ max_visits: null, working_hours: [null, null, null, null, null, null, null] });
    expect(await versionsOf(other.practitionerIds[0])).toHaveLength(0);
  });

  it('shows a business location the PMS removed as a place that no longer exists', async () => {
    const id = acme.practitionerIds[1];
    const [gone] = await t.ctx.db.insert(businessLocations).values({ business_account_id: acme.businessAccountId, name: 'Closing soon', lat: -27.5, lng: 153 }).returning();
    expect((await patch(id, { start_place: { kind: 'business_location', id: gone.id }, working_hours: WEEKDAYS_8_TO_4_30 })).body.practitioner.routable).toBe(true);
    await t.ctx.db.delete(businessLocations).where(eq(businessLocations.id, gone.id));
    const shown = await settingsOf(id);
    expect(shown.start_place).toEqual({ kind: 'business_location', id: null, name: 'A removed business location', address: null, lat: null, lng: null, geo_precision: 'none' });
    expect(shown.routable).toBe(false);
    expect(shown.warnings).toContain('The start place (business location) no longer exists: choose another.');
  });
});

describe('PUT /practitioners/working_hours', () => {
  const put = (body: unknown, token = acme.tokens.admin) => t.request('PUT', '/api/practitioners/working_hours', { token, body });
  const hoursOf = async (ids: number[]) => Promise.all(ids.map(async (id) => (await settingsOf(id)).working_hours));
  const EARLY = [...Array(4).fill({ start: '07:00', end: '15:00' }), null, null, null];

  it('gives several practitioners the same hours, with a version for each one that changed', async () => {
    const ids = [acme.practitionerIds[0], acme.practitionerIds[2]];
    const versionCounts = await Promise.all(ids.map(async (id) => (await versionsOf(id)).length));
    const response = await put({ practitioner_ids: ids, working_hours: EARLY });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.practitioners.map((p: { id: number }) => p.id).sort()).toEqual([...ids].sort());
    expect(await hoursOf(ids)).toEqual([EARLY, EARLY]);
    for (const [index, id] of ids.entries()) {
      const rows = await versionsOf(id);
      expect(rows).toHaveLength(versionCounts[index] + 1);
      expect(rows.at(-1)).toMatchObject({ whodunnit: 'Ada acme', object_changes: { working_hours: [expect.anything(), EARLY] } });
    }
    // Saving the same hours again changes nothing and records nothing.
    expect((await put({ practitioner_ids: ids, working_hours: EARLY })).status).toBe(200);
    expect((await versionsOf(ids[0])).length).toBe(versionCounts[0] + 1);
  });

  it('with days, changes only those weekdays, keeps each one’s own hours on the others, and names routed visits now outside', async () => {
    const [pat, rae] = [acme.practitionerIds[1], acme.practitionerIds[2]];
    const patsWeek = [...Array(5).fill({ start: '07:00', end: '17:00' }), { start: '09:00', end: '12:00' }, null];
    const raesWeek = [null, { start: '10:00', end: '14:00' }, null, null, null, null, null];
    expect((await patch(pat, { working_hours: patsWeek, time_zone: 'Australia/Brisbane' })).status).toBe(200);
    expect((await patch(rae, { working_hours: raesWeek, time_zone: 'Australia/Brisbane' })).status).toBe(200);
    // Pat's routed visits next week: Monday 07:30–08:15 (before the new 08:00) and Saturday 10:00–10:45 (inside her own
    // Saturday, which stays); a cancelled one on Monday at 07:00 does not count.
    const today = Temporal.Now.plainDateISO('Australia/Brisbane');
    const monday = today.add({ days: 8 - today.dayOfWeek });
    const at = (day: Temporal.PlainDate, time: string) => new Date(day.toZonedDateTime({ timeZone: 'Australia/Brisbane', plainTime: time }).epochMilliseconds);
    const visit = (day: Temporal.PlainDate, time: string, extra: Partial<typeof appointments.$inferInsert> = {}) => ({
      business_account_id: acme.businessAccountId, practitioner_id: pat, route_id: acme.routeIds[0],
      starts_at: at(day, time), ends_at: new Date(at(day, time).getTime() + 45 * 60_000), ...extra,
    });
    await t.ctx.db.insert(appointments).values([
      visit(monday, '07:30'), visit(monday.add({ days: 5 }), '10:00'), visit(monday, '07:00', { cancelled_at: new Date() }),
    ]);

    const mondays = { start: '08:00', end: '16:00' };
    const response = await put({ practitioner_ids: [pat, rae], working_hours: [mondays, null, null, null, null, null, null], days: [0] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(await hoursOf([pat, rae])).toEqual([[mondays, ...patsWeek.slice(1)], [mondays, ...raesWeek.slice(1)]]);
    expect(response.body.visits_outside_hours).toEqual([{ practitioner_id: pat, full_name: expect.any(String), visits: 1 }]);
    expect((await versionsOf(rae)).at(-1)).toMatchObject({ object_changes: { working_hours: [raesWeek, [mondays, ...raesWeek.slice(1)]] } });
    expect((await put({ practitioner_ids: [pat], working_hours: EARLY, days: [7] })).status).toBe(422);
  });

  it('is all or nothing: another business’s practitioner among the ids → 404 and nobody changes', async () => {
    const ids = [acme.practitionerIds[0], acme.practitionerIds[1]];
    const before = await hoursOf(ids);
    const response = await put({ practitioner_ids: [...ids, other.practitionerIds[0]], working_hours: WEEKDAYS_8_TO_4_30 });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(`Practitioner ${other.practitionerIds[0]} not found.`);
    expect(await hoursOf(ids)).toEqual(before);
    expect((await settings(other.tokens.admin)).find((p) => p.id === other.practitionerIds[0]).working_hours).toEqual([null, null, null, null, null, null, null]);
  });

  it('refuses bad hours (422 naming the day) and other roles (403), changing nothing', async () => {
    const ids = [acme.practitionerIds[0], acme.practitionerIds[1]];
    const before = await hoursOf(ids);
    const backwards = [null, { start: '17:00', end: '09:00' }, null, null, null, null, null];
    const cases: [unknown, RegExp][] = [
      [{ practitioner_ids: ids, working_hours: backwards }, /working_hours\[1\]: on Tuesday/],
      [{ practitioner_ids: [], working_hours: EARLY }, /practitioner_ids/],
      [{ practitioner_ids: [ids[0], ids[0]], working_hours: EARLY }, /practitioner_ids/],
      [{ practitioner_ids: ids }, /working_hours is required/],
      [{ practitioner_ids: ids, working_hours: [...EARLY, null] }, /working_hours/],
    ];
    for (const [body, message] of cases) {
      const response = await put(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.message).toMatch(message);
    }
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await put({ practitioner_ids: ids, working_hours: EARLY }, token)).status).toBe(403);
    }
    expect(await hoursOf(ids)).toEqual(before);
  });
});

describe('the optimiser’s view of a day (loadPractitionerDays)', () => {
  it('resolves shift, places, break, skills and limits of the business’s practitioners only', async () => {
    const id = acme.practitionerIds[1];
    expect((await patch(id, {
      home: HOME, start_place: { kind: 'home' }, end_place: { kind: 'custom_location', id: acme.customLocationIds[0] },
      working_hours: WEEKDAYS_8_TO_4_30, break: { earliest: '12:00', latest: '12:30', minutes: 30 }, time_zone: 'Australia/Brisbane',
      skill_appointment_type_ids: [acme.appointmentTypeIds[0]], max_visits: 7, max_travel_minutes: 90,
    })).status).toBe(200);
    // Tuesday 24 November 2026.
    const days = await loadPractitionerDays(t.ctx.db, acme.businessAccountId, [id, other.practitionerIds[0]], '2026-11-24');
    expect(days).toEqual([{
      practitionerId: id, name: 'Quinn acme-Two', active: true, timeZone: 'Australia/Brisbane', date: '2026-11-24',
      dayStart: new Date('2026-11-23T14:00:00Z'),
      shift: { start: 8 * 3600, end: 16.5 * 3600 }, hours: { start: 8 * 3600, end: 16.5 * 3600 },
      startPlace: { kind: 'home', id: null, name: 'Home', lat: HOME.lat, lng: HOME.lng, geo_precision: 'address' },
      endPlace: { kind: 'custom_location', id: acme.customLocationIds[0], name: 'acme depot', lat: -27.4445, lng: 153.0375, geo_precision: 'address' },
      break: { earliestStart: 12 * 3600, latestStart: 12.5 * 3600, duration: 1800 },
      skills: [acme.appointmentTypeIds[0]], maxVisits: 7, maxTravelSeconds: 5400,
      problems: [], routable: true, notes: [], onLeave: null,
    }]);
    const [sunday] = await loadPractitionerDays(t.ctx.db, acme.businessAccountId, [id], '2026-11-29');
    expect(sunday).toMatchObject({ shift: null, routable: false, problems: ['Does not work on Sundays.'] });
  });
});

describe('an import from the practice management system', () => {
  let sandbox: SandboxHandle;
  const sandboxPlacement = (businessAccountId: number) => ({
    policy: { sandbox: true, online: false },
    batch: t.ctx.geocoding.batch(businessAccountId, { sandbox: true }),
  });
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 11, startDate: '2026-11-23', weeks: 1, patients: 5, practitioners: 3, inactivePractitioners: 0 });
  });
  afterAll(() => sandbox?.close());

  it('updates what the PMS owns and never what Rounds keeps (places, hours, break, skills, limits, time zone, colour)', async () => {
    const business = await createBusinessFixture(t, 'imported');
    const adapter = createPmsAdapter({ system: 'cliniko', apiKey: sandbox.apiKey, contactEmail: 'tests@rounds.test', baseUrl: sandbox.url });
    await syncReferenceData(t.ctx.db, adapter, business.businessAccountId, 'Australia/Brisbane', { placement: sandboxPlacement(business.businessAccountId) });
    const [mapped] = await t.ctx.db.select({ id: resourceMaps.resource_id, external_id: resourceMaps.external_id }).from(resourceMaps)
      .where(and(eq(resourceMaps.business_account_id, business.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner')))
      .orderBy(asc(resourceMaps.external_id)).limit(1);
    // Narrowed to one of the types Cliniko lists for them (Rounds cannot add another).
    const listed = (await settings(business.tokens.admin)).find((p) => p.id === mapped.id)!.pms_appointment_type_ids as number[];
    const type = { id: listed[0] };
    const edited = await patch(mapped.id, {
      color: '#123456', home: HOME, start_place: { kind: 'home' }, end_place: { kind: 'custom_location', id: business.customLocationIds[0] },
      working_hours: WEEKDAYS_8_TO_4_30, break: { earliest: '12:00', latest: '13:00', minutes: 30 }, skill_appointment_type_ids: [type.id],
      max_visits: 9, max_travel_minutes: 200, time_zone: 'Australia/Perth',
    }, business.tokens.admin);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const kept = edited.body.practitioner;

    // The PMS renames the practitioner; the next import must write the name, and only the name.
    const record = sandbox.dataset.practitioners.find((p) => p.id === mapped.external_id)!;
    record.last_name = 'Renamed-In-PMS';
    record.updated_at = '2026-11-22T00:00:00Z';
    await syncReferenceData(t.ctx.db, adapter, business.businessAccountId, 'Australia/Brisbane', { placement: sandboxPlacement(business.businessAccountId) });
    const [row] = await t.ctx.db.select().from(practitioners).where(eq(practitioners.id, mapped.id));
    expect(row.last_name).toBe('Renamed-In-PMS');
    const after = (await settings(business.tokens.admin)).find((p) => p.id === mapped.id);
    expect(after).toEqual({ ...kept, last_name: 'Renamed-In-PMS', full_name: `${kept.first_name} Renamed-In-PMS` });
    // A practitioner new to Rounds starts in the business's time zone.
    const others = (await settings(business.tokens.admin)).filter((p) => p.id !== mapped.id && !business.practitionerIds.includes(p.id));
    expect(others.length).toBeGreaterThan(0);
    for (const p of others) expect(p.time_zone).toBe('Australia/Brisbane');
  });
});
