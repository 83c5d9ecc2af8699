// Geocoding through the product: imports place a real provider's clients and business locations with the configured
// online geocoder (a real local HTTP server stands in for Google, another for Nominatim), cached so re-imports do not
// ask again, falling back to the bundled gazetteer; the sandbox's synthetic streets only for the sandbox; a pin
// corrected by hand survives re-imports; PUT /clients/{id}/location and POST /geocode with their roles and tenancy.
import { and, eq, gt, inArray } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, businessLocations, clients, resourceMaps, versions } from '../../server/src/db/schema';
import { distanceKm, lookupAustralianPlace } from '../../server/src/geo/au-gazetteer';
import { geocodeBrisbaneAddress } from '../../server/src/geo/brisbane-gazetteer';
import { MANUAL_PIN_REPLACED } from '../../server/src/modules/sync';
import { createSandboxDataset, SANDBOX_DEMO_API_KEY, startSandbox, type SandboxDataset, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { googleAnswer, startGeocoderStub, type GeocoderStub, type StubRequest } from './support/geocoder-stub';
import { drainJobs } from './support/jobs';

const REAL_KEY = 'MS0xMjM0NTY3ODkwLVJlYWxQcm92aWRlcktleQ-au1';
const GOOGLE_KEY = 'test-google-key';
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 2_000 };
const today = Temporal.Now.plainDateISO('Australia/Brisbane');
const RANGE = { start_date: today.toString(), end_date: today.add({ days: 6 }).toString() };

let sandbox: SandboxHandle;
let dataset: SandboxDataset;
let google: GeocoderStub;
let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

/** Google stand-in: a rooftop for every address, except one it cannot find and one that makes it fail. */
let failing = true;
const googlePoint = (address: string) => {
  let hash = 0;
  for (const character of address) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return { lat: -27.3 - (hash % 2000) / 10_000, lng: 152.9 + ((hash >>> 11) % 2000) / 10_000 };
};
function answerGoogle(request: StubRequest) {
  const address = request.query.get('address') ?? '';
  if (request.query.get('key') !== GOOGLE_KEY) return { json: { status: 'REQUEST_DENIED', results: [] } };
  if (address.includes('Unfindable')) return { json: { status: 'ZERO_RESULTS', results: [] } };
  if (address.includes('Failing') && failing) return { status: 500, text: 'server error' };
  const point = googlePoint(address);
  return { json: googleAnswer(point.lat, point.lng, ['street_address'], 'ROOFTOP', `${address} (Google)`) };
}
const googleAddressOf = (p: { address_1: string | null; city: string | null; state: string | null; post_code: string | null; country: string | null }) =>
  [p.address_1, [p.city, p.state, p.post_code].filter(Boolean).join(' '), p.country].filter(Boolean).join(', ');

async function connect(business: BusinessFixture, apiKey: string) {
  const response = await t.request('POST', '/api/provider_account', { token: business.tokens.admin, body: { api_key: apiKey } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST });
}

async function runImport(business: BusinessFixture) {
  const created = await t.request('POST', '/api/imports', { token: business.tokens.admin, body: RANGE });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  const done = await t.request('GET', `/api/imports/${created.body.import.id}`, { token: business.tokens.admin });
  expect(done.body.import.status, JSON.stringify(done.body.import)).toBe('COMPLETE');
  return done.body.import.result;
}

async function clientOf(business: BusinessFixture, patientId: string) {
  const [map] = await t.ctx.db.select().from(resourceMaps).where(and(
    eq(resourceMaps.business_account_id, business.businessAccountId), eq(resourceMaps.resource_type, 'Client'), eq(resourceMaps.external_id, patientId)));
  const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, map.resource_id));
  return row;
}

/** Marks a sandbox patient changed now, so the next import's incremental pull sees it. */
function touchPatient(patientId: string, change: (patient: SandboxDataset['patients'][number]) => void) {
  const patient = dataset.patients.find((p) => p.id === patientId)!;
  change(patient);
  patient.updated_at = new Date(Date.now() + 1000).toISOString();
}

beforeAll(async () => {
  // This week and next (from Monday): a client with visits still to come on any day of the week.
  dataset = createSandboxDataset({ seed: 41, startDate: today.toString(), weeks: 2, patients: 14, practitioners: 2, inactivePractitioners: 0, businesses: 2 });
  // Real Cliniko sends no coordinates: neither does this sandbox.
  for (const record of [...dataset.patients, ...dataset.businesses]) {
    record.latitude = null;
    record.longitude = null;
  }
  // The two addresses no geocoder finds belong to patients with a visit in the imported range, whatever day it is.
  const from = Date.parse(today.toZonedDateTime('Australia/Brisbane').toInstant().toString());
  const until = Date.parse(today.add({ days: 7 }).toZonedDateTime('Australia/Brisbane').toInstant().toString());
  const visitedInRange = (patientId: string) => dataset.appointments.some((a) =>
    a.patient_id === patientId && !a.cancelled_at && !a.deleted_at && !a.archived_at && Date.parse(a.starts_at) >= from && Date.parse(a.starts_at) < until);
  const withAddress = dataset.patients.filter((p) => p.address_1 && !p.archived_at && visitedInRange(p.id));
  withAddress[0].address_1 = '1 Unfindable Lane';
  withAddress[1].address_1 = '2 Failing Street';
  sandbox = await startSandbox({ dataset, apiKeys: [REAL_KEY, SANDBOX_DEMO_API_KEY] });
  google = await startGeocoderStub(answerGoogle);
  t = await startTestApp({ clinikoBaseUrl: sandbox.url, googleMapsApiKey: GOOGLE_KEY, googleGeocodingUrl: `${google.origin}/maps/api/geocode/json` });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
  await google?.close();
});

describe('imports for a real provider', () => {
  it('geocode clients and business locations the PMS sends without coordinates, online first, the gazetteer as fallback', async () => {
    await connect(acme, REAL_KEY);
    await runImport(acme);
    const imported = dataset.patients.filter((p) => !p.archived_at);
    let online = 0;
    for (const patient of imported) {
      const client = await clientOf(acme, patient.id);
      if (!client) continue; // archived patients without visits are not fetched
      if (!patient.address_1 && !patient.city) {
        expect(client).toMatchObject({ lat: null, lng: null, geo_precision: 'none', geo_source: null });
      } else if (patient.address_1?.includes('Unfindable') || patient.address_1?.includes('Failing')) {
        // Google found nothing or failed: the gazetteer's suburb centre.
        const suburb = lookupAustralianPlace(patient)!;
        expect(client).toMatchObject({ lat: suburb.lat, lng: suburb.lng, geo_precision: 'suburb', geo_source: 'gazetteer' });
      } else {
        expect(client).toMatchObject({ ...googlePoint(googleAddressOf(patient)), geo_precision: 'address', geo_source: 'google' });
        online += 1;
      }
    }
    expect(online).toBeGreaterThan(5);
    // The sandbox's synthetic streets never placed a real provider's client.
    const synthetic = await t.ctx.db.select().from(clients)
      .where(and(eq(clients.business_account_id, acme.businessAccountId), eq(clients.geo_source, 'sandbox')));
    expect(synthetic).toEqual([]);
    const locations = await t.ctx.db.select().from(businessLocations).where(eq(businessLocations.business_account_id, acme.businessAccountId));
    for (const business of dataset.businesses) {
      expect(locations.find((l) => l.name === business.business_name)).toMatchObject({
        ...googlePoint(googleAddressOf(business)), geo_precision: 'address', geo_source: 'google',
      });
    }
    // Each address was asked once (the setup's and the import's reference pulls share the answer), with the key,
    // restricted to Australia.
    const asked = google.requests.map((request) => request.query.get('address'));
    expect(new Set(asked).size).toBe(asked.length);
    expect(google.requests.every((request) => request.query.get('key') === GOOGLE_KEY && request.query.get('components') === 'country:AU')).toBe(true);
  });

  it('shows precision and source on clients and business locations, and visits take their client’s point', async () => {
    const patient = dataset.patients.find((p) => p.address_1 && !p.address_1.includes('Unfindable') && !p.address_1.includes('Failing')
      && dataset.appointments.some((a) => a.patient_id === p.id && a.starts_at >= RANGE.start_date))!;
    const client = await clientOf(acme, patient.id);
    const response = await t.request('GET', `/api/clients/${client.id}`, { token: acme.tokens.staff });
    expect(response.body.client).toMatchObject({ lat: client.lat, lng: client.lng, geo_precision: 'address', geo_source: 'google' });
    const listed = await t.request('GET', '/api/business_locations/all', { token: acme.tokens.practitioner });
    expect(listed.body.business_locations.some((l: { geo_source: string }) => l.geo_source === 'google')).toBe(true);
    const visits = await t.ctx.db.select().from(appointments).where(eq(appointments.client_id, client.id));
    expect(visits.length).toBeGreaterThan(0);
    for (const visit of visits) expect({ lat: visit.lat, lng: visit.lng }).toEqual({ lat: client.lat, lng: client.lng });
  });

  it('says on each visit how precise its point is: its client’s precision, or none without a point', async () => {
    const listed = await t.request('GET', `/api/appointments?start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`, { token: acme.tokens.staff });
    expect(listed.status).toBe(200);
    const items = listed.body.appointments as { id: number; client_id: number | null; lat: number | null; geo_precision: string }[];
    const byClient = new Map((await t.ctx.db.select().from(clients).where(eq(clients.business_account_id, acme.businessAccountId))).map((c) => [c.id, c]));
    const seen = new Set<string>();
    for (const item of items) {
      const client = byClient.get(item.client_id!)!;
      expect(item.geo_precision, `visit ${item.id}`).toBe(item.lat === null ? 'none' : client.geo_precision);
      seen.add(item.geo_precision);
    }
    // The Google stub's rooftops and the gazetteer's suburb centres (Unfindable / Failing).
    expect([...seen].sort()).toEqual(['address', 'suburb']);
    const suburbVisit = items.find((item) => item.geo_precision === 'suburb')!;
    const single = await t.request('GET', `/api/appointments/${suburbVisit.id}`, { token: acme.tokens.staff });
    expect(single.body.appointment).toMatchObject({ geo_precision: 'suburb', geo_source: 'gazetteer' });
    // A visit without a point (as one whose client has no address) is not on the map, whatever its client's point.
    const unplaced = items.find((item) => item.geo_precision === 'address')!;
    await t.ctx.db.update(appointments).set({ lat: null, lng: null }).where(eq(appointments.id, unplaced.id));
    expect((await t.request('GET', `/api/appointments/${unplaced.id}`, { token: acme.tokens.staff })).body.appointment)
      .toMatchObject({ lat: null, lng: null, geo_precision: 'none', geo_source: null });
    const again = await t.request('GET', `/api/appointments?start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`, { token: acme.tokens.staff });
    expect(again.body.appointments.find((item: { id: number }) => item.id === unplaced.id)).toMatchObject({ geo_precision: 'none' });
    const client = byClient.get(unplaced.client_id!)!;
    await t.ctx.db.update(appointments).set({ lat: client.lat, lng: client.lng }).where(eq(appointments.id, unplaced.id));
  });

  it('re-importing asks the online geocoder only about addresses it could not answer before, then places them', async () => {
    const before = google.requests.length;
    const again = await runImport(acme);
    const asked = google.requests.slice(before).map((request) => request.query.get('address'));
    // 'Unfindable' is remembered as not found; 'Failing' failed, so it is asked again (and fails again).
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Failing');
    expect(again.clients_placed).toBe(0);

    failing = false;
    const placed = await runImport(acme);
    expect(placed.clients_placed).toBe(1);
    const patient = dataset.patients.find((p) => p.address_1 === '2 Failing Street')!;
    const client = await clientOf(acme, patient.id);
    expect(client).toMatchObject({ ...googlePoint(googleAddressOf(patient)), geo_precision: 'address', geo_source: 'google' });
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, client.id)));
    expect(log.at(-1)).toMatchObject({ event: 'update', whodunnit: expect.stringMatching(/^Import #\d+ by Ada acme$/) });
    expect(log.at(-1)!.object_changes).toMatchObject({ geo_source: ['gazetteer', 'google'], geo_precision: ['suburb', 'address'] });

    const settled = google.requests.length;
    await runImport(acme);
    expect(google.requests.length).toBe(settled);
  });
});

describe('a pin corrected by hand', () => {
  let patientId: string;
  let clientId: number;
  const pin = { lat: -27.46123, lng: 153.04987 };

  beforeAll(() => {
    const now = new Date(Date.now() + 3600_000).toISOString();
    patientId = dataset.patients.find((p) => p.address_1 && !p.address_1.includes('Unfindable') && !p.address_1.includes('Failing')
      && dataset.appointments.some((a) => a.patient_id === p.id && a.ends_at > now && !a.cancelled_at && !a.archived_at && !a.deleted_at))!.id;
  });

  it('is saved with source manual and precision address, in the change log, and moves the client’s coming visits', async () => {
    clientId = (await clientOf(acme, patientId)).id;
    const before = await clientOf(acme, patientId);
    const response = await t.request('PUT', `/api/clients/${clientId}/location`, { token: acme.tokens.staff, body: pin });
    expect(response.status).toBe(200);
    expect(response.body.client).toMatchObject({ ...pin, geo_precision: 'address', geo_source: 'manual' });
    const [log] = await t.ctx.db.select().from(versions)
      .where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, clientId), eq(versions.whodunnit, 'Sid')));
    // The precision was 'address' already (Google's rooftop): only what changed is logged.
    expect(log.object_changes).toEqual({ lat: [before.lat, pin.lat], lng: [before.lng, pin.lng], geo_source: ['google', 'manual'] });
    const coming = await t.ctx.db.select().from(appointments)
      .where(and(eq(appointments.client_id, clientId), gt(appointments.ends_at, new Date())));
    expect(coming.length).toBeGreaterThan(0);
    for (const visit of coming.filter((v) => !v.cancelled_at)) expect({ lat: visit.lat, lng: visit.lng }).toEqual(pin);
    const shown = await t.request('GET', `/api/appointments/${coming.find((v) => !v.cancelled_at)!.id}`, { token: acme.tokens.staff });
    expect(shown.body.appointment).toMatchObject({ ...pin, geo_precision: 'address', geo_source: 'manual' });
    const visitLog = await t.ctx.db.select().from(versions)
      .where(and(eq(versions.item_type, 'Appointment'), inArray(versions.item_id, coming.map((v) => v.id)), eq(versions.whodunnit, 'Sid')));
    expect(visitLog.length).toBeGreaterThan(0);
  });

  it('survives re-imports that change the client but not its address, even with the PMS’s own coordinates', async () => {
    touchPatient(patientId, (patient) => {
      patient.email = 'moved.on@example.com';
      patient.latitude = -27.5;
      patient.longitude = 153.1;
    });
    const result = await runImport(acme);
    expect(result.clients_updated).toBeGreaterThanOrEqual(1);
    const client = await clientOf(acme, patientId);
    expect(client).toMatchObject({ ...pin, email: 'moved.on@example.com', geo_precision: 'address', geo_source: 'manual', geo_manual: true });
    const coming = await t.ctx.db.select().from(appointments)
      .where(and(eq(appointments.client_id, clientId), gt(appointments.ends_at, new Date())));
    for (const visit of coming.filter((v) => !v.cancelled_at)) expect({ lat: visit.lat, lng: visit.lng }).toEqual(pin);
  });

  it('gives way when the client moves house in the PMS: the new address is placed, and the change log says why', async () => {
    touchPatient(patientId, (patient) => {
      patient.address_1 = '7 Heal Street';
      patient.latitude = null;
      patient.longitude = null;
    });
    await runImport(acme);
    const patient = dataset.patients.find((p) => p.id === patientId)!;
    const client = await clientOf(acme, patientId);
    expect(client).toMatchObject({ ...googlePoint(googleAddressOf(patient)), geo_precision: 'address', geo_source: 'google', geo_manual: false });
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, clientId)));
    expect(log.at(-1)).toMatchObject({ reason: MANUAL_PIN_REPLACED });
    expect(log.at(-1)!.object_changes).toMatchObject({ address_1: [expect.any(String), '7 Heal Street'], geo_source: ['manual', 'google'] });
  });

  // A practitioner's 403 is asserted, for every operation, by permissions.test.ts.
  it('is refused for another business’s client (404) and with a bad point (422 naming the field), changing nothing', async () => {
    const foreign = await t.request('PUT', `/api/clients/${clientId}/location`, { token: other.tokens.admin, body: pin });
    expect(foreign.status).toBe(404);
    const cases: [unknown, string][] = [
      [{ lat: 91, lng: 153 }, 'lat must be <= 90'], [{ lat: -27, lng: -181 }, 'lng must be >= -180'], [{ lat: -27 }, 'lng is required'],
      [{ lat: '-27', lng: 153 }, 'lat must be number'], [{ lat: -27, lng: 153, precision: 'address' }, 'precision is not an allowed field'],
    ];
    for (const [body, message] of cases) {
      const response = await t.request('PUT', `/api/clients/${clientId}/location`, { token: acme.tokens.admin, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors).toContain(message);
    }
    // Nothing of that changed the client.
    expect((await clientOf(acme, patientId)).geo_source).toBe('google');
  });
});

describe('POST /geocode', () => {
  it('places an address with the online geocoder and remembers the answer for the business', async () => {
    const body = { address_1: '12 Merthyr Road', city: 'New Farm', state: 'QLD', post_code: '4005' };
    const before = google.requests.length;
    const first = await t.request('POST', '/api/geocode', { token: acme.tokens.staff, body });
    expect(first.status).toBe(200);
    const expected = googlePoint('12 Merthyr Road, New Farm QLD 4005');
    expect(first.body).toEqual({ ...expected, precision: 'address', source: 'google', label: '12 Merthyr Road, New Farm QLD 4005 (Google)' });
    const again = await t.request('POST', '/api/geocode', { token: acme.tokens.admin, body: { ...body, address_1: '12 Merthyr Rd' } });
    expect(again.body).toEqual(first.body);
    expect(google.requests.length).toBe(before + 1);
    // Another business's cache is its own.
    await t.request('POST', '/api/geocode', { token: other.tokens.staff, body });
    expect(google.requests.length).toBe(before + 2);
  });

  it('falls back to the gazetteer, and says precision none when nothing knows the place', async () => {
    const suburb = await t.request('POST', '/api/geocode', { token: acme.tokens.staff, body: { address_1: '9 Unfindable Lane', city: 'Fitzroy', state: 'VIC' } });
    expect(suburb.body).toMatchObject({ precision: 'suburb', source: 'gazetteer', label: 'Fitzroy VIC 3065' });
    expect(distanceKm(suburb.body, { lat: -37.7985, lng: 144.9784 })).toBeLessThan(2.5);
    const nothing = await t.request('POST', '/api/geocode', { token: acme.tokens.staff, body: { address_1: '9 Unfindable Lane', city: 'Atlantis' } });
    expect(nothing.body).toEqual({ lat: null, lng: null, precision: 'none', source: null, label: null });
  });

  // A practitioner's 403 is asserted, for every operation, by permissions.test.ts.
  it('refuses bad input (422 naming the field)', async () => {
    const cases: [unknown, string][] = [
      [{ city: '   ', post_code: '' }, 'address_1, city or post_code is required: an address needs a street, a suburb or a postcode.'],
      [{ country: 'Australia' }, 'address_1, city or post_code is required: an address needs a street, a suburb or a postcode.'],
      [{ city: 5 }, 'city must be string,null'],
      [{ city: 'New Farm', lat: 1 }, 'lat is not an allowed field'],
      [{ post_code: '4'.repeat(13) }, 'post_code must NOT have more than 12 characters'],
    ];
    for (const [body, message] of cases) {
      const response = await t.request('POST', '/api/geocode', { token: acme.tokens.staff, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors).toContain(message);
    }
  });
});

describe('imports from the built-in sandbox', () => {
  it('place the sandbox’s own addresses on its synthetic streets, without asking the online geocoder', async () => {
    const before = google.requests.length;
    await connect(other, SANDBOX_DEMO_API_KEY);
    await runImport(other);
    expect(google.requests.length).toBe(before);
    const placed = await t.ctx.db.select().from(clients).where(and(eq(clients.business_account_id, other.businessAccountId), eq(clients.geo_source, 'sandbox')));
    expect(placed.length).toBeGreaterThan(5);
    for (const client of placed) {
      const synthetic = geocodeBrisbaneAddress(client)!;
      expect(client).toMatchObject({ lat: synthetic.lat, lng: synthetic.lng, geo_precision: synthetic.precision });
    }
    expect(placed.some((client) => client.geo_precision === 'street')).toBe(true);
  });
});
