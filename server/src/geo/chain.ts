// A configured online geocoder first, the offline gazetteer when it fails or finds nothing.
import { GeocoderUnavailableError, type AddressParts, type GeocodeOptions, type Geocoder, type GeoPoint, type GeoSource } from './types';

/** What the online geocoder did for one address. */
export type OnlineOutcome =
  /** It found the point (or found nothing: then `point` is the fallback's). */
  | 'found' | 'not-found'
  /** It could not answer (network, timeout, refused); not worth caching. */
  | 'failed'
  /** There is none, or the caller chose not to call it. */
  | 'skipped';

export interface ChainResult {
  point: GeoPoint | null;
  online: OnlineOutcome;
  /** The failure, when online is 'failed'. */
  error?: GeocoderUnavailableError;
}

export class GeocoderChain implements Geocoder {
  readonly online: boolean;
  readonly source: GeoSource;

  constructor(readonly onlineGeocoder: Geocoder | null, readonly fallback: Geocoder) {
    this.online = onlineGeocoder !== null;
    this.source = onlineGeocoder?.source ?? fallback.source;
  }

  /** The point and what the online geocoder did; `skipOnline` goes straight to the fallback. */
  async resolve(address: AddressParts, options: GeocodeOptions & { skipOnline?: boolean } = {}): Promise<ChainResult> {
    if (this.onlineGeocoder && !options.skipOnline) {
      try {
        const point = await this.onlineGeocoder.geocode(address, options);
        if (point) return { point, online: 'found' };
        return { point: await this.fallback.geocode(address, options), online: 'not-found' };
      } catch (error) {
        if (!(error instanceof GeocoderUnavailableError)) throw error;
        return { point: await this.fallback.geocode(address, options), online: 'failed', error };
      }
    }
    return { point: await this.fallback.geocode(address, options), online: 'skipped' };
  }

  async geocode(address: AddressParts, options: GeocodeOptions = {}): Promise<GeoPoint | null> {
    return (await this.resolve(address, options)).point;
  }
}
