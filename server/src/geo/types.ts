// The one geocoding interface: address parts in, a point with its precision and source out. Implementations: Google
// (./google.ts), a Nominatim-compatible server (./nominatim.ts), the bundled Australian gazetteer (./au-gazetteer.ts),
// the sandbox's synthetic Brisbane street list (./sandbox.ts), and the chain that falls back between them (./chain.ts).
import type { GeoPrecision, GeoSource } from '../db/schema';

export type { GeoPrecision, GeoSource };

/** The parts of an address as the PMS and the API carry them; any may be missing. */
export interface AddressParts {
  address_1?: string | null;
  address_2?: string | null;
  /** The suburb (Cliniko's `city`). */
  city?: string | null;
  state?: string | null;
  post_code?: string | null;
  country?: string | null;
}

/** A point a geocoder found. */
export interface GeoPoint {
  lat: number;
  lng: number;
  precision: Exclude<GeoPrecision, 'none'>;
  source: GeoSource;
  /** What was found, in words ("New Farm QLD 4005", Google's formatted address, …). */
  label: string;
}

export interface GeocodeOptions {
  signal?: AbortSignal;
}

export interface Geocoder {
  /** Which source its points carry. */
  readonly source: GeoSource;
  /** Whether it calls a server (then answers are worth caching and calls cost time). */
  readonly online: boolean;
  /**
   * The address's point, or null when the geocoder knows no such place (or only one coarser than a suburb).
   * Throws GeocoderUnavailableError when it could not answer (network, timeout, refused key, server error).
   */
  geocode(address: AddressParts, options?: GeocodeOptions): Promise<GeoPoint | null>;
}

/** An online geocoder could not answer; the message is for the log (it never names the address). */
export class GeocoderUnavailableError extends Error {
  constructor(readonly source: GeoSource, message: string, options?: { cause?: unknown }) {
    super(`${source}: ${message}`, options);
  }
}

/** Order of precision, finest first: a finer point replaces a coarser one. */
export const PRECISION_RANK: Record<GeoPrecision, number> = { address: 3, street: 2, suburb: 1, none: 0 };
