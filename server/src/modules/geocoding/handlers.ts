// Geocoding: POST /geocode.
import { callerOf } from '../../auth/access';
import { bodyOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { GeocodingApiService } from './service';

export function geocodingHandlers(ctx: AppContext): Handlers {
  const service = new GeocodingApiService(ctx);
  return {
    geocodeAddress: async (request) => service.geocode(callerOf(request), bodyOf(request, 'geocodeAddress')),
  };
}
