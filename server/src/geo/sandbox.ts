// The sandbox's own places: the synthetic Brisbane street list (./brisbane-gazetteer.ts, "not surveyed … not for
// navigation") that generated the sandbox's addresses. Only an import from the built-in Cliniko sandbox uses it
// (see the PMS adapter's syntheticCoordinates); a real provider's clients are never placed by it.
import { geocodeBrisbaneAddress } from './brisbane-gazetteer';
import type { AddressParts, Geocoder, GeoPoint } from './types';

export class SandboxGeocoder implements Geocoder {
  readonly source = 'sandbox' as const;
  readonly online = false;

  lookup(address: AddressParts): GeoPoint | null {
    const found = geocodeBrisbaneAddress(address);
    if (!found) return null;
    return { lat: found.lat, lng: found.lng, precision: found.precision, source: 'sandbox', label: `${found.suburb} QLD ${found.postCode}` };
  }

  async geocode(address: AddressParts): Promise<GeoPoint | null> {
    return this.lookup(address);
  }
}
