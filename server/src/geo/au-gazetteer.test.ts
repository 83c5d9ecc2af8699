// The bundled Australian gazetteer: real suburbs and postcodes land near their true place; what it cannot tell apart
// or does not know is not placed at all.
import { describe, expect, it } from 'vitest';
import { addressKey, placeFromLines, stateCode, streetLine } from './address';
import { australianLocalityCount, distanceKm, lookupAustralianPlace } from './au-gazetteer';
import { BRISBANE_SUBURBS } from './brisbane-gazetteer';

/** Approximate centres of real suburbs (from published maps), to check the table against. */
const REAL_PLACES = [
  { address: { city: 'New Farm', state: 'QLD', post_code: '4005' }, lat: -27.4675, lng: 153.0480, label: 'New Farm QLD 4005' },
  { address: { city: 'Fitzroy', state: 'VIC', post_code: '3065' }, lat: -37.7985, lng: 144.9784, label: 'Fitzroy VIC 3065' },
  { address: { city: 'Bondi', state: 'NSW', post_code: '2026' }, lat: -33.8930, lng: 151.2630, label: 'Bondi NSW 2026' },
  { address: { city: 'Fremantle', state: 'WA', post_code: '6160' }, lat: -32.0560, lng: 115.7470, label: 'Fremantle WA 6160' },
  { address: { city: 'Sandy Bay', state: 'Tasmania', post_code: '7005' }, lat: -42.8990, lng: 147.3260, label: 'Sandy Bay TAS 7005' },
  { address: { city: 'Braddon', state: 'ACT', post_code: '2612' }, lat: -35.2730, lng: 149.1350, label: 'Braddon ACT 2612' },
  { address: { city: 'Glenelg', state: 'SA', post_code: '5045' }, lat: -34.9810, lng: 138.5150, label: 'Glenelg SA 5045' },
];

describe('the Australian gazetteer', () => {
  // The first call reads and indexes the whole gazetteer: seconds on a busy machine.
  it('holds every state’s localities', { timeout: 30_000 }, () => {
    expect(australianLocalityCount()).toBeGreaterThan(15_000);
  });

  it.each(REAL_PLACES)('places $label within 2.5 km of the suburb’s centre, at suburb precision', ({ address, lat, lng, label }) => {
    const point = lookupAustralianPlace(address)!;
    expect(point).toMatchObject({ precision: 'suburb', source: 'gazetteer', label });
    expect(distanceKm(point, { lat, lng })).toBeLessThan(2.5);
  });

  it('places every Brisbane suburb of the sandbox within 2.5 km of that list’s centroid', () => {
    for (const suburb of BRISBANE_SUBURBS) {
      const point = lookupAustralianPlace({ city: suburb.name, state: 'QLD', post_code: suburb.postCode });
      expect(point, suburb.name).not.toBeNull();
      expect(distanceKm(point!, suburb), suburb.name).toBeLessThan(2.5);
    }
  });

  it('tells same-named places apart by state or postcode, and places none when nothing says which', () => {
    const brisbane = lookupAustralianPlace({ city: 'Paddington', state: 'QLD' })!;
    const sydney = lookupAustralianPlace({ city: 'Paddington', post_code: '2021' })!;
    expect(distanceKm(brisbane, { lat: -27.4600, lng: 153.0000 })).toBeLessThan(2.5);
    expect(distanceKm(sydney, { lat: -33.8850, lng: 151.2300 })).toBeLessThan(2.5);
    expect(lookupAustralianPlace({ city: 'Paddington' })).toBeNull();
    // Two Springfields in Queensland, 1,300 km apart: the postcode decides.
    expect(lookupAustralianPlace({ city: 'Springfield', state: 'QLD' })).toBeNull();
    expect(distanceKm(lookupAustralianPlace({ city: 'Springfield', state: 'QLD', post_code: '4300' })!, { lat: -27.65, lng: 152.90 })).toBeLessThan(3);
  });

  it('reads abbreviations, any case, and a suburb written into the address line', () => {
    const mount = lookupAustralianPlace({ city: 'MT GRAVATT', state: 'qld' })!;
    expect(mount.label).toBe('Mount Gravatt QLD 4122');
    const written = lookupAustralianPlace({ address_1: '12 Merthyr Rd, New Farm QLD 4005' })!;
    expect(written.label).toBe('New Farm QLD 4005');
  });

  it('falls back to the postcode’s centre when the suburb is unknown or missing', () => {
    const byPostcode = lookupAustralianPlace({ address_1: '5 Nowhere Lane', post_code: '4005' })!;
    expect(byPostcode).toMatchObject({ precision: 'suburb', label: '4005 QLD' });
    expect(distanceKm(byPostcode, { lat: -27.462, lng: 153.048 })).toBeLessThan(2);
    expect(lookupAustralianPlace({ city: 'Atlantis', state: 'QLD', post_code: '4005' })!.label).toBe('4005 QLD');
  });

  it('places nothing it does not know: no such suburb or postcode, another country, no address', () => {
    expect(lookupAustralianPlace({ city: 'Atlantis', state: 'QLD' })).toBeNull();
    expect(lookupAustralianPlace({ post_code: '0001' })).toBeNull();
    expect(lookupAustralianPlace({ city: 'Richmond', state: 'Surrey', country: 'United Kingdom' })).toBeNull();
    expect(lookupAustralianPlace({ city: 'New Farm', country: 'New Zealand' })).toBeNull();
    expect(lookupAustralianPlace({})).toBeNull();
  });
});

describe('address rules', () => {
  it('gives the same cache key to the same address written differently', () => {
    expect(addressKey({ address_1: '12 Merthyr Rd.', city: 'new farm', state: 'Queensland', post_code: '4005' }))
      .toBe(addressKey({ address_1: '12  merthyr road', city: 'New Farm', state: 'QLD', post_code: '4005', country: 'Australia' }));
    expect(addressKey({ address_1: '12 Merthyr Road', city: 'New Farm' })).not.toBe(addressKey({ address_1: '14 Merthyr Road', city: 'New Farm' }));
  });

  it('finds the street line for online lookups, without unit numbers', () => {
    expect(streetLine({ address_1: 'Unit 3', address_2: '12 Merthyr Rd' })).toBe('12 Merthyr Rd');
    expect(streetLine({ address_1: '3/12 Merthyr Rd' })).toBe('12 Merthyr Rd');
    expect(streetLine({ address_1: 'Upper Edward Street' })).toBe('Upper Edward Street');
  });

  it('reads states and a place written after a comma', () => {
    expect(stateCode('Western Australia')).toBe('WA');
    expect(stateCode('Surrey')).toBeNull();
    expect(placeFromLines({ address_1: '1 Smith St, Fitzroy VIC 3065' })).toEqual({ city: 'Fitzroy', state: 'VIC', post_code: '3065' });
    expect(placeFromLines({ address_1: '1 Smith St 3065' })).toEqual({ city: null, state: null, post_code: '3065' });
  });
});
