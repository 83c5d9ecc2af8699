// Business location rows as the contract's BusinessLocation.
import type { Schemas } from '../../http/contract';
import type { BusinessLocationRow } from './repository';

export const toBusinessLocationDto = (l: BusinessLocationRow): Schemas['BusinessLocation'] => ({
  id: l.id, name: l.name, address_1: l.address_1, city: l.city, state: l.state, post_code: l.post_code, lat: l.lat, lng: l.lng,
  geo_precision: l.geo_precision, geo_source: l.geo_source,
});
