// The online geocoders against a real local HTTP server (what they send, how they read answers, time-outs, the
// one-request-a-second rule), and the chain that falls back to the gazetteer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleAnswer, nominatimPlace, startGeocoderStub, type GeocoderStub } from '../../../tests/api/support/geocoder-stub';
import { AustralianGazetteer } from './au-gazetteer';
import { GeocoderChain } from './chain';
import { GoogleGeocoder } from './google';
import { NominatimGeocoder } from './nominatim';
import { GeocoderUnavailableError, type Geocoder, type GeoPoint } from './types';

const NEW_FARM = { address_1: 'Unit 3, 12 Merthyr Rd', city: 'New Farm', state: 'Queensland', post_code: '4005' };

let stub: GeocoderStub;
beforeAll(async () => {
  stub = await startGeocoderStub(() => ({ json: [] }));
});
afterAll(() => stub.close());

function nominatim(path = '', options: { timeoutMs?: number; minIntervalMs?: number } = {}) {
  return new NominatimGeocoder({ url: `${stub.origin}${path}`, userAgent: 'Rounds (ops@example.test)', minIntervalMs: 0, ...options });
}

describe('Nominatim', () => {
  it('sends a structured search with its User-Agent and reads a house as address precision', async () => {
    stub.requests.length = 0;
    stub.setHandler(() => ({ json: [nominatimPlace(-27.4671, 153.0468, 30, '12, Merthyr Road, New Farm, Brisbane, QLD, 4005, Australia')] }));
    const point = await nominatim('/nominatim').geocode(NEW_FARM);
    expect(point).toEqual({ lat: -27.4671, lng: 153.0468, precision: 'address', source: 'nominatim', label: '12, Merthyr Road, New Farm, Brisbane, QLD, 4005, Australia' });
    const [request] = stub.requests;
    expect(request.path).toBe('/nominatim/search');
    expect(request.headers['user-agent']).toBe('Rounds (ops@example.test)');
    expect(Object.fromEntries(request.query)).toEqual({
      format: 'jsonv2', limit: '1', addressdetails: '0', countrycodes: 'au',
      street: '12 Merthyr Rd', city: 'New Farm', state: 'QLD', postalcode: '4005', country: 'Australia',
    });
  });

  it('reads streets and suburbs by place rank; a region, or no place, is nothing', async () => {
    const answers: [number, GeoPoint['precision'] | null][] = [[26, 'street'], [27, 'street'], [20, 'suburb'], [12, null]];
    for (const [rank, precision] of answers) {
      stub.setHandler(() => ({ json: [nominatimPlace(-27.46, 153.04, rank, 'somewhere')] }));
      expect((await nominatim().geocode(NEW_FARM))?.precision ?? null, `rank ${rank}`).toBe(precision);
    }
    stub.setHandler(() => ({ json: [] }));
    expect(await nominatim().geocode(NEW_FARM)).toBeNull();
  });

  it('sends free text when the address has no suburb, state or postcode of its own', async () => {
    stub.requests.length = 0;
    stub.setHandler(() => ({ json: [] }));
    await nominatim('/search').geocode({ address_1: '1 Smith St, Fitzroy VIC 3065' });
    expect(stub.requests[0].path).toBe('/search');
    expect(stub.requests[0].query.get('q')).toBe('1 Smith St, Fitzroy VIC 3065');
    expect(stub.requests[0].query.get('street')).toBeNull();
  });

  it('keeps to one request a second per server, even when asked for several at once', async () => {
    stub.requests.length = 0;
    stub.setHandler(() => ({ json: [] }));
    const geocoder = new NominatimGeocoder({ url: `${stub.origin}/paced`, userAgent: 'Rounds (ops@example.test)' });
    const other = new NominatimGeocoder({ url: `${stub.origin}/paced`, userAgent: 'Rounds (ops@example.test)' });
    await Promise.all([geocoder.geocode(NEW_FARM), other.geocode(NEW_FARM), geocoder.geocode(NEW_FARM)]);
    const times = stub.requests.map((request) => request.at).sort((a, b) => a - b);
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(950);
  });

  it('gives up on a server that does not answer in time, and on errors and non-JSON answers', async () => {
    stub.setHandler(() => 'hang');
    const started = Date.now();
    await expect(nominatim('', { timeoutMs: 300 }).geocode(NEW_FARM)).rejects.toThrow(/nominatim: no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
    stub.setHandler(() => ({ status: 503, text: 'busy' }));
    await expect(nominatim().geocode(NEW_FARM)).rejects.toBeInstanceOf(GeocoderUnavailableError);
    stub.setHandler(() => ({ status: 200, text: '<html>' }));
    await expect(nominatim().geocode(NEW_FARM)).rejects.toThrow(/other than JSON/);
  });

  it('stops at once when the caller aborts (not a geocoder failure)', async () => {
    stub.setHandler(() => 'hang');
    const controller = new AbortController();
    const pending = nominatim().geocode(NEW_FARM, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    await expect(pending).rejects.toThrow('job cancelled');
  });
});

describe('Google', () => {
  const google = () => new GoogleGeocoder({ apiKey: 'test-key-123', url: `${stub.origin}/maps/api/geocode/json`, timeoutMs: 2000 });

  it('sends the address as one line restricted to Australia, with the key, and reads a rooftop as address precision', async () => {
    stub.requests.length = 0;
    stub.setHandler(() => ({ json: googleAnswer(-27.4669, 153.0471, ['street_address'], 'ROOFTOP', '12 Merthyr Rd, New Farm QLD 4005, Australia') }));
    expect(await google().geocode(NEW_FARM)).toEqual({
      lat: -27.4669, lng: 153.0471, precision: 'address', source: 'google', label: '12 Merthyr Rd, New Farm QLD 4005, Australia',
    });
    const query = Object.fromEntries(stub.requests[0].query);
    expect(query).toEqual({ address: '12 Merthyr Rd, New Farm Queensland 4005', components: 'country:AU', region: 'au', key: 'test-key-123' });
  });

  it('reads roads as street, localities as suburb; a region or no result is nothing', async () => {
    const cases: [string[], string, GeoPoint['precision'] | null][] = [
      [['route'], 'GEOMETRIC_CENTER', 'street'], [['locality', 'political'], 'APPROXIMATE', 'suburb'],
      [['postal_code'], 'APPROXIMATE', 'suburb'], [['administrative_area_level_1', 'political'], 'APPROXIMATE', null],
    ];
    for (const [types, locationType, precision] of cases) {
      stub.setHandler(() => ({ json: googleAnswer(-27.4, 153.0, types, locationType, 'x') }));
      expect((await google().geocode(NEW_FARM))?.precision ?? null, types.join()).toBe(precision);
    }
    stub.setHandler(() => ({ json: { status: 'ZERO_RESULTS', results: [] } }));
    expect(await google().geocode(NEW_FARM)).toBeNull();
  });

  it('treats a refused key as a failure whose message never shows the key', async () => {
    stub.setHandler(() => ({ json: { status: 'REQUEST_DENIED', error_message: 'The provided API key is invalid.', results: [] } }));
    const error = await google().geocode(NEW_FARM).then(() => new Error('no failure'), (caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(GeocoderUnavailableError);
    expect(error.message).toBe('google: answered status REQUEST_DENIED');
    expect(error.message).not.toContain('test-key-123');
  });
});

describe('the chain', () => {
  const gazetteer = new AustralianGazetteer();
  const fake = (behaviour: () => GeoPoint | null): Geocoder => ({ source: 'google', online: true, geocode: async () => behaviour() });
  const rooftop: GeoPoint = { lat: -27.4669, lng: 153.0471, precision: 'address', source: 'google', label: '12 Merthyr Rd' };

  it('answers the online geocoder’s point when it finds one', async () => {
    expect(await new GeocoderChain(fake(() => rooftop), gazetteer).resolve(NEW_FARM)).toEqual({ point: rooftop, online: 'found' });
  });

  // The first use of the gazetteer reads and indexes it whole: seconds on a busy machine (as in au-gazetteer.test.ts).
  it('falls back to the gazetteer when the online geocoder finds nothing or fails', { timeout: 30_000 }, async () => {
    const notFound = await new GeocoderChain(fake(() => null), gazetteer).resolve(NEW_FARM);
    expect(notFound).toMatchObject({ online: 'not-found', point: { source: 'gazetteer', precision: 'suburb', label: 'New Farm QLD 4005' } });
    const failing = fake(() => { throw new GeocoderUnavailableError('google', 'answered HTTP 500'); });
    const failed = await new GeocoderChain(failing, gazetteer).resolve(NEW_FARM);
    expect(failed).toMatchObject({ online: 'failed', point: { source: 'gazetteer', label: 'New Farm QLD 4005' } });
    expect(failed.error?.message).toBe('google: answered HTTP 500');
  });

  it('falls back from a real server that errors, and uses only the gazetteer without an online geocoder', async () => {
    stub.setHandler(() => ({ status: 500, text: 'oops' }));
    expect(await new GeocoderChain(nominatim(), gazetteer).geocode(NEW_FARM)).toMatchObject({ source: 'gazetteer', label: 'New Farm QLD 4005' });
    expect(await new GeocoderChain(null, gazetteer).resolve(NEW_FARM)).toMatchObject({ online: 'skipped', point: { source: 'gazetteer' } });
  });

  it('does not hide a programming error as a geocoder failure', async () => {
    await expect(new GeocoderChain(fake(() => { throw new TypeError('bug'); }), gazetteer).resolve(NEW_FARM)).rejects.toThrow('bug');
  });
});
