/**
 * Google's Geocoding API (GOOGLE_MAPS_API_KEY; the key needs the Geocoding API enabled). The address goes as one
 * line, restricted to Australia when it is Australian. Precision from the result's types and location_type:
 * a house or building → 'address', a road → 'street', a suburb, locality or postcode → 'suburb'; anything coarser
 * (a region, the country) counts as not found, so the gazetteer can still place the suburb.
 */
import { isAustralian, oneLine, streetForLookup } from './address';
import { fetchJson } from './http';
import { GeocoderUnavailableError, type AddressParts, type GeocodeOptions, type Geocoder, type GeoPoint } from './types';

export const GOOGLE_GEOCODING_URL = 'https://maps.googleapis.com/maps/api/geocode/json';

export interface GoogleGeocoderOptions {
  apiKey: string;
  /** Default GOOGLE_GEOCODING_URL (tests and proxies point it elsewhere). */
  url?: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface GoogleResult {
  formatted_address?: string;
  types?: string[];
  geometry?: { location?: { lat?: number; lng?: number }; location_type?: string };
}

const ADDRESS_TYPES = ['street_address', 'premise', 'subpremise'];
const STREET_TYPES = ['route', 'intersection'];
const SUBURB_TYPES = ['locality', 'sublocality', 'postal_code', 'neighborhood', 'colloquial_area', 'postal_town'];

export function precisionOfResult(result: GoogleResult): GeoPoint['precision'] | null {
  const types = result.types ?? [];
  const locationType = result.geometry?.location_type;
  if (types.some((type) => ADDRESS_TYPES.includes(type)) || locationType === 'ROOFTOP' || locationType === 'RANGE_INTERPOLATED') return 'address';
  if (types.some((type) => STREET_TYPES.includes(type))) return 'street';
  if (types.some((type) => SUBURB_TYPES.includes(type) || type.startsWith('sublocality'))) return 'suburb';
  return null;
}

export class GoogleGeocoder implements Geocoder {
  readonly source = 'google' as const;
  readonly online = true;

  constructor(private readonly options: GoogleGeocoderOptions) {}

  requestUrl(address: AddressParts): URL {
    const url = new URL(this.options.url ?? GOOGLE_GEOCODING_URL);
    const lines = { ...address, address_1: streetForLookup(address.address_1), address_2: streetForLookup(address.address_2) };
    url.searchParams.set('address', oneLine(lines));
    if (isAustralian(address.country)) {
      url.searchParams.set('components', 'country:AU');
      url.searchParams.set('region', 'au');
    }
    url.searchParams.set('key', this.options.apiKey);
    return url;
  }

  async geocode(address: AddressParts, options: GeocodeOptions = {}): Promise<GeoPoint | null> {
    const body = await fetchJson(this.requestUrl(address), {
      source: this.source, timeoutMs: this.options.timeoutMs ?? 10_000, signal: options.signal, fetch: this.options.fetch,
    }) as { status?: string; results?: GoogleResult[] };
    if (body.status === 'ZERO_RESULTS') return null;
    // OVER_QUERY_LIMIT, REQUEST_DENIED (key refused or the Geocoding API not enabled), INVALID_REQUEST, UNKNOWN_ERROR.
    if (body.status !== 'OK') throw new GeocoderUnavailableError(this.source, `answered status ${String(body.status)}`);
    for (const result of body.results ?? []) {
      const lat = result.geometry?.location?.lat;
      const lng = result.geometry?.location?.lng;
      const precision = precisionOfResult(result);
      if (typeof lat !== 'number' || typeof lng !== 'number' || !precision) continue;
      return { lat, lng, precision, source: this.source, label: result.formatted_address ?? oneLine(address) };
    }
    return null;
  }
}
