// Client rows as the contract's Client and ClientListItem.
import type { Schemas } from '../../http/contract';
import { toTagDto } from '../tags';
import type { AvailabilityEntry } from '../../db/schema';
import type { ClientListRow, ClientRow, PractitionerPreferences, TagSummary } from './repository';

/** Stored availability is written only through normaliseAvailability or the importer, both within the four slots. */
export const toAvailabilityDto = (entries: AvailabilityEntry[]) => entries as Schemas['AvailabilityEntry'][];

export const fullName = (row: { first_name: string; last_name: string }) => `${row.first_name} ${row.last_name}`.trim();

export function toClientDto(row: ClientRow, tags: TagSummary[], preferences: PractitionerPreferences): Schemas['Client'] {
  return {
    id: row.id,
    full_name: fullName(row),
    first_name: row.first_name,
    last_name: row.last_name,
    dob: row.dob,
    email: row.email,
    location: {
      address_1: row.address_1, address_2: row.address_2, city: row.city, state: row.state, post_code: row.post_code,
      country: row.country, primary_region: row.state, secondary_region: row.city,
    },
    phone_numbers: row.phone_numbers.map((phone) => ({ number: phone.number, phone_type: phone.phone_type ?? null })),
    time_zone: row.time_zone,
    tags: tags.map(toTagDto),
    availability: toAvailabilityDto(row.availability),
    lat: row.lat,
    lng: row.lng,
    geo_precision: row.geo_precision,
    geo_source: row.geo_source,
    reminders_enabled: row.reminders_enabled,
    preferred_practitioner_ids: preferences.preferred,
    excluded_practitioner_ids: preferences.excluded,
  };
}

export function toClientListItem(row: ClientListRow, tags: TagSummary[]): Schemas['ClientListItem'] {
  return {
    id: row.id,
    full_name: fullName(row),
    first_name: row.first_name,
    last_name: row.last_name,
    suburb: row.city,
    phone: row.phone,
    email: row.email,
    tags: tags.map(toTagDto),
    has_custom_availability: row.has_custom_availability,
    has_address: row.has_address,
  };
}
