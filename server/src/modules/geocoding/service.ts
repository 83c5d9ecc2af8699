// POST /geocode: places an address typed in the settings pages (practitioners' homes, custom locations).
import type { AuthContext } from '../../auth/access';
import { hasAddress } from '../../geo/address';
import type { AddressParts } from '../../geo/types';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid } from '../../http/errors';

export const ADDRESS_NEEDED = 'address_1, city or post_code is required: an address needs a street, a suburb or a postcode.';

export class GeocodingApiService {
  constructor(private readonly ctx: AppContext) {}

  async geocode(auth: AuthContext, input: Schemas['AddressInput']): Promise<Schemas['GeocodeResult']> {
    const address: AddressParts = {
      address_1: input.address_1?.trim() || null, address_2: input.address_2?.trim() || null, city: input.city?.trim() || null,
      state: input.state?.trim() || null, post_code: input.post_code?.trim() || null, country: input.country?.trim() || null,
    };
    if (!hasAddress(address)) throw invalid(ADDRESS_NEEDED);
    const point = await this.ctx.geocoding.geocode(auth.businessAccountId, address);
    if (!point) return { lat: null, lng: null, precision: 'none', source: null, label: null };
    return { lat: point.lat, lng: point.lng, precision: point.precision, source: point.source, label: point.label };
  }
}
