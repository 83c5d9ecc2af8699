// Where an import puts a record on the map: the rules of ./places.ts, record by record.
import { describe, expect, it } from 'vitest';
import type { GeoPoint } from '../../geo/types';
import { NO_POINT, planPoint, pointToWrite, type IncomingPlace, type PlacePolicy, type StoredPlace } from './places';

const REAL: PlacePolicy = { sandbox: false, online: false };
const REAL_ONLINE: PlacePolicy = { sandbox: false, online: true };
const SANDBOX: PlacePolicy = { sandbox: true, online: false };
const batch = { sandboxPrecision: () => 'street' as const };

const address = { address_1: '12 Merthyr Road', address_2: null, city: 'New Farm', state: 'QLD', post_code: '4005', country: 'Australia' };
const incoming = (overrides: Partial<IncomingPlace> = {}): IncomingPlace => ({ ...address, latitude: null, longitude: null, ...overrides });
const stored = (overrides: Partial<StoredPlace> = {}): StoredPlace => ({
  ...address, lat: -27.47, lng: 153.045, geo_precision: 'suburb', geo_source: 'gazetteer', geo_manual: false, ...overrides,
});
const rooftop: GeoPoint = { lat: -27.4669, lng: 153.0471, precision: 'address', source: 'google', label: '12 Merthyr Rd' };

describe('planPoint', () => {
  it('keeps a pin placed by hand while the address is the same, even against the PMS’s coordinates', () => {
    const manual = stored({ geo_source: 'manual', geo_precision: 'address', geo_manual: true });
    expect(planPoint(incoming(), manual, REAL_ONLINE, batch)).toEqual({ action: 'keep' });
    expect(planPoint(incoming({ latitude: -27.4, longitude: 153.1 }), manual, REAL, batch)).toEqual({ action: 'keep' });
    // Written differently is still the same address.
    expect(planPoint(incoming({ address_1: '12 MERTHYR ROAD ' }), manual, REAL, batch)).toEqual({ action: 'keep' });
  });

  it('places a moved client again, even one pinned by hand', () => {
    const manual = stored({ geo_source: 'manual', geo_precision: 'address', geo_manual: true });
    expect(planPoint(incoming({ address_1: '3 Heal Street' }), manual, REAL, batch)).toEqual({ action: 'geocode' });
  });

  it('takes the PMS’s coordinates: as the PMS’s for a real provider, as synthetic ones from the sandbox', () => {
    expect(planPoint(incoming({ latitude: -27.4, longitude: 153.1 }), undefined, REAL, batch))
      .toEqual({ action: 'set', fields: { lat: -27.4, lng: 153.1, geo_precision: 'address', geo_source: 'pms' } });
    expect(planPoint(incoming({ latitude: -27.4, longitude: 153.1 }), undefined, SANDBOX, batch))
      .toEqual({ action: 'set', fields: { lat: -27.4, lng: 153.1, geo_precision: 'street', geo_source: 'sandbox' } });
  });

  it('clears the point of a record without an address, and geocodes a new one', () => {
    expect(planPoint(incoming({ address_1: null, city: null, post_code: null, state: null, country: null }), stored(), REAL, batch))
      .toEqual({ action: 'set', fields: NO_POINT });
    expect(planPoint(incoming(), undefined, REAL, batch)).toEqual({ action: 'geocode' });
  });

  it('keeps an unchanged point unless it can be bettered', () => {
    expect(planPoint(incoming(), stored(), REAL, batch)).toEqual({ action: 'keep' });
    // A gazetteer point is worth asking the online geocoder about.
    expect(planPoint(incoming(), stored(), REAL_ONLINE, batch)).toEqual({ action: 'geocode' });
    expect(planPoint(incoming(), stored({ geo_source: 'google', geo_precision: 'address' }), REAL_ONLINE, batch)).toEqual({ action: 'keep' });
    // The sandbox's synthetic streets never stay for a real provider's client; they do for the sandbox's.
    expect(planPoint(incoming(), stored({ geo_source: 'sandbox', geo_precision: 'street' }), REAL, batch)).toEqual({ action: 'geocode' });
    expect(planPoint(incoming(), stored({ geo_source: 'sandbox', geo_precision: 'street' }), SANDBOX, batch)).toEqual({ action: 'keep' });
    expect(planPoint(incoming(), stored({ ...NO_POINT }), REAL, batch)).toEqual({ action: 'geocode' });
  });
});

describe('pointToWrite', () => {
  it('writes what the geocoder found', () => {
    expect(pointToWrite({ action: 'geocode' }, incoming(), stored(), rooftop, REAL_ONLINE))
      .toEqual({ lat: rooftop.lat, lng: rooftop.lng, geo_precision: 'address', geo_source: 'google' });
  });

  it('when nothing placed the address, keeps the old point of the same address but never a synthetic one for a real provider', () => {
    expect(pointToWrite({ action: 'geocode' }, incoming(), stored(), null, REAL_ONLINE))
      .toEqual({ lat: -27.47, lng: 153.045, geo_precision: 'suburb', geo_source: 'gazetteer' });
    expect(pointToWrite({ action: 'geocode' }, incoming(), stored({ geo_source: 'sandbox', geo_precision: 'street' }), null, REAL)).toEqual(NO_POINT);
    expect(pointToWrite({ action: 'geocode' }, incoming({ city: 'Teneriffe' }), stored(), null, REAL)).toEqual(NO_POINT);
  });
});
