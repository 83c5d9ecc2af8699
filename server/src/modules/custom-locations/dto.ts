// Custom location rows as the contract's CustomLocation.
import type { Schemas } from '../../http/contract';
import type { CustomLocationRow, CustomLocationUser } from './repository';

export const toCustomLocationDto = (row: CustomLocationRow, users: readonly CustomLocationUser[]): Schemas['CustomLocation'] => ({
  id: row.id,
  name: row.name,
  address: row.address,
  lat: row.lat,
  lng: row.lng,
  geo_precision: row.geo_precision,
  geo_source: row.geo_source,
  used_by: users.filter((user) => user.custom_location_id === row.id)
    .map((user) => ({ id: user.id, full_name: `${user.first_name} ${user.last_name}`.trim() })),
});
