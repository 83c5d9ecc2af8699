/**
 * A Nominatim-compatible server (GEOCODER_URL): OpenStreetMap's own, a self-hosted one, or a compatible service.
 * Follows Nominatim's usage policy: a User-Agent naming the application and a contact, at most one request a second
 * per server across the process (requests queue), and a timeout. Structured search when the address has its suburb,
 * state or postcode in their own fields; free text otherwise.
 */
import { isAustralian, oneLine, postcodeOf, stateCode, streetLine } from './address';
import { fetchJson, sleepUntil } from './http';
import { GeocoderUnavailableError, type AddressParts, type GeocodeOptions, type Geocoder, type GeoPoint } from './types';

export interface NominatimOptions {
  /** The server's root ("https://nominatim.example.org") or its search endpoint (".../search"). */
  url: string;
  /** "Rounds (ops@example.com)": Nominatim's policy asks for an identifying User-Agent. */
  userAgent: string;
  /** Least time between two requests to this server (default 1000 ms: the public server's limit). */
  minIntervalMs?: number;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface NominatimPlace {
  lat?: string;
  lon?: string;
  place_rank?: number;
  display_name?: string;
}

/** When each server may next be called, shared by every NominatimGeocoder of the process. */
const nextSlot = new Map<string, number>();

/** Reserves the next free slot for `key` at least `intervalMs` after the previous one and waits for it. */
async function takeSlot(key: string, intervalMs: number, signal?: AbortSignal): Promise<void> {
  const at = Math.max(Date.now(), nextSlot.get(key) ?? 0);
  nextSlot.set(key, at + intervalMs);
  await sleepUntil(at, signal);
}

/** Nominatim's place_rank → precision: houses and buildings 28–30, streets 26–27, suburbs to towns 17–25. */
export function precisionOfRank(rank: number): GeoPoint['precision'] | null {
  if (rank >= 28) return 'address';
  if (rank >= 26) return 'street';
  if (rank >= 17) return 'suburb';
  return null;
}

export class NominatimGeocoder implements Geocoder {
  readonly source = 'nominatim' as const;
  readonly online = true;
  private readonly searchUrl: URL;
  private readonly minIntervalMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: NominatimOptions) {
    const url = new URL(options.url);
    if (!/\/search\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/search`;
    this.searchUrl = url;
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  requestUrl(address: AddressParts): URL {
    const url = new URL(this.searchUrl);
    const params = url.searchParams;
    params.set('format', 'jsonv2');
    params.set('limit', '1');
    params.set('addressdetails', '0');
    const australian = isAustralian(address.country);
    if (australian) params.set('countrycodes', 'au');
    const city = address.city?.trim();
    const state = address.state?.trim();
    const postcode = postcodeOf(address.post_code) ?? address.post_code?.trim();
    if (city || state || postcode) {
      const street = streetLine(address);
      if (street) params.set('street', street);
      if (city) params.set('city', city);
      if (state) params.set('state', stateCode(state) ?? state);
      if (postcode) params.set('postalcode', postcode);
      params.set('country', australian ? 'Australia' : address.country!.trim());
    } else {
      params.set('q', oneLine(address));
    }
    return url;
  }

  async geocode(address: AddressParts, options: GeocodeOptions = {}): Promise<GeoPoint | null> {
    await takeSlot(this.searchUrl.origin + this.searchUrl.pathname, this.minIntervalMs, options.signal);
    const body = await fetchJson(this.requestUrl(address), {
      source: this.source,
      headers: { 'User-Agent': this.options.userAgent, 'Accept-Language': 'en' },
      timeoutMs: this.timeoutMs,
      signal: options.signal,
      fetch: this.options.fetch,
    });
    if (!Array.isArray(body)) throw new GeocoderUnavailableError(this.source, 'answered something other than a list of places');
    const place = body[0] as NominatimPlace | undefined;
    if (!place) return null;
    const lat = Number(place.lat);
    const lng = Number(place.lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      throw new GeocoderUnavailableError(this.source, 'answered a place without valid coordinates');
    }
    const precision = precisionOfRank(Number(place.place_rank ?? 0));
    if (!precision) return null;
    return { lat, lng, precision, source: this.source, label: place.display_name ?? oneLine(address) };
  }
}
