// Appointment rows as the contract's Appointment.
import type { Schemas } from '../../http/contract';
import { toAvailabilityDto } from '../clients/dto';
import type { AppointmentDetailRow } from './repository';

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const name = (person: { first_name: string; last_name: string }) => `${person.first_name} ${person.last_name}`.trim();

export function toAppointmentDto(row: AppointmentDetailRow): Schemas['Appointment'] {
  const { practitioner, client, appointment_type: type, business_location: location } = row;
  return {
    id: row.id,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    arrive_at: iso(row.arrive_at),
    route_id: row.route_id,
    notes: row.notes,
    lat: row.lat,
    lng: row.lng,
    cancelled_at: iso(row.cancelled_at),
    status: row.cancelled_at ? 'CANCELLED' : 'BOOKED',
    suburb: row.city,
    location: {
      address_1: row.address_1, address_2: row.address_2, city: row.city, state: row.state, post_code: row.post_code,
      country: row.country, primary_region: row.state, secondary_region: row.city,
    },
    client: client ? { id: client.id, full_name: name(client), time_zone: client.time_zone, availability: toAvailabilityDto(client.availability) } : null,
    practitioner: {
      id: practitioner.id, full_name: name(practitioner), first_name: practitioner.first_name, last_name: practitioner.last_name,
      active: practitioner.active, profession: practitioner.profession, time_zone: practitioner.time_zone,
    },
    appointment_type: type ? { id: type.id, name: type.name, duration: type.duration, color: type.color } : null,
    business_location: location ? { ...location } : null,
  };
}
