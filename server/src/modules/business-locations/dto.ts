// Business location rows as the contract's BusinessLocation.
import type { Schemas } from '../../http/contract';
import type { BusinessLocationRow } from './repository';

type AddressParts = Pick<BusinessLocationRow, 'address_1' | 'address_2' | 'city' | 'state' | 'post_code'>;

/** A business location's address on one line ("1 Main St, Unit 2, Chermside QLD 4032"); null when it has none. */
export function businessLocationAddress(l: AddressParts): string | null {
  const town = [l.city, l.state, l.post_code].map((part) => part?.trim()).filter(Boolean).join(' ');
  const line = [l.address_1, l.address_2, town].map((part) => part?.trim()).filter(Boolean).join(', ');
  return line || null;
}

export const toBusinessLocationDto = (l: BusinessLocationRow): Schemas['BusinessLocation'] => ({
  id: l.id, name: l.name, address_1: l.address_1, address_2: l.address_2, city: l.city, state: l.state, post_code: l.post_code,
  country: l.country, address: businessLocationAddress(l), lat: l.lat, lng: l.lng,
  geo_precision: l.geo_precision, geo_source: l.geo_source,
});
