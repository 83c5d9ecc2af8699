// GEOCODER_URL: the product asks a Nominatim-compatible server (a real local HTTP server here) with its User-Agent,
// at most once a second, remembers its answers, and falls back to the bundled gazetteer when it fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { nominatimPlace, startGeocoderStub, type GeocoderStub, type StubRequest } from './support/geocoder-stub';

let stub: GeocoderStub;
let t: TestApp;
let acme: BusinessFixture;
let down = false;

function answer(request: StubRequest) {
  if (down) return { status: 502, text: 'bad gateway' };
  const street = request.query.get('street') ?? '';
  if (street.startsWith('12 Merthyr')) return { json: [nominatimPlace(-27.46712, 153.04685, 30, '12, Merthyr Road, New Farm, Brisbane, Queensland, 4005, Australia')] };
  if (street.startsWith('40 Brunswick')) return { json: [nominatimPlace(-27.4581, 153.0352, 26, 'Brunswick Street, Fortitude Valley, Brisbane, Queensland, 4006, Australia')] };
  return { json: [] };
}

beforeAll(async () => {
  stub = await startGeocoderStub(answer);
  t = await startTestApp({ geocoderUrl: `${stub.origin}/nominatim` });
  acme = await createBusinessFixture(t, 'acme');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('a Nominatim-compatible geocoder', () => {
  it('is asked with a structured search and the product’s User-Agent, and its answer is remembered', async () => {
    const body = { address_1: 'Unit 4, 12 Merthyr Road', city: 'New Farm', state: 'QLD', post_code: '4005' };
    const response = await t.request('POST', '/api/geocode', { token: acme.tokens.admin, body });
    expect(response.body).toEqual({
      lat: -27.46712, lng: 153.04685, precision: 'address', source: 'nominatim', label: '12, Merthyr Road, New Farm, Brisbane, Queensland, 4005, Australia',
    });
    expect(stub.requests).toHaveLength(1);
    const [request] = stub.requests;
    expect(request.path).toBe('/nominatim/search');
    expect(request.headers['user-agent']).toBe('Rounds (no-reply@rounds.local)');
    expect(Object.fromEntries(request.query)).toMatchObject({ street: '12 Merthyr Road', city: 'New Farm', state: 'QLD', postalcode: '4005', countrycodes: 'au' });
    const again = await t.request('POST', '/api/geocode', { token: acme.tokens.staff, body });
    expect(again.body).toEqual(response.body);
    expect(stub.requests).toHaveLength(1);
  });

  it('is asked at most once a second', async () => {
    const before = stub.requests.length;
    const [street, nothing] = await Promise.all([
      t.request('POST', '/api/geocode', { token: acme.tokens.staff, body: { address_1: '40 Brunswick Street', city: 'Fortitude Valley', post_code: '4006' } }),
      t.request('POST', '/api/geocode', { token: acme.tokens.staff, body: { address_1: '3 Nowhere Lane', city: 'Teneriffe', post_code: '4005' } }),
    ]);
    expect(street.body).toMatchObject({ precision: 'street', source: 'nominatim' });
    // Found nothing: the gazetteer's suburb centre.
    expect(nothing.body).toMatchObject({ precision: 'suburb', source: 'gazetteer', label: 'Teneriffe QLD 4005' });
    const times = stub.requests.slice(before).map((request) => request.at).sort((a, b) => a - b);
    expect(times).toHaveLength(2);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
  });

  it('falls back to the gazetteer when the server fails, and asks again later (failures are not remembered)', async () => {
    down = true;
    const body = { address_1: '8 James Street', city: 'Fortitude Valley', state: 'QLD', post_code: '4006' };
    const fallback = await t.request('POST', '/api/geocode', { token: acme.tokens.staff, body });
    expect(fallback.body).toMatchObject({ precision: 'suburb', source: 'gazetteer', label: 'Fortitude Valley QLD 4006' });
    down = false;
    const before = stub.requests.length;
    await t.request('POST', '/api/geocode', { token: acme.tokens.staff, body });
    expect(stub.requests.length).toBe(before + 1);
  });
});
