// Deterministic, realistic Brisbane data for the demo care provider when no PMS sandbox feeds it, and for
// benchmarks: practitioners with homes, business locations, clients with addresses, coordinates and weekday
// availability, and each practitioner's weekday visits. The seeded generator, the names, the appointment types and
// the professions are the sandbox's (server/src/sample-data). Pure: no database.
import { Temporal } from 'temporal-polyfill';
import { BRISBANE_SUBURBS, pointOnStreet } from '../geo/brisbane-gazetteer';
import type { AvailabilityEntry } from '../db/schema';
import {
  APPOINTMENT_NOTES, APPOINTMENT_TYPES, FIRST_NAMES, LAST_NAMES, PRACTITIONER_FIRST_NAMES, PROFESSIONS, SAMPLE_TIME_ZONE, type SeededRandom,
} from '../sample-data';

export const AVAILABILITY_SLOTS = ['06:00-09:00', '09:00-12:00', '12:00-15:00', '15:00-18:00'] as const;

export const DEMO_LOCATIONS = [
  { name: 'Brisbane City office', suburb: 'Brisbane City' },
  { name: 'Chermside hub', suburb: 'Chermside' },
  { name: 'Carindale hub', suburb: 'Carindale' },
];

export interface GeneratedAddress { address_1: string; city: string; state: string; post_code: string; country: string; lat: number; lng: number }

export function randomAddress(random: SeededRandom): GeneratedAddress {
  const suburb = random.pick(BRISBANE_SUBURBS);
  const street = random.pick(suburb.streets);
  const number = random.int(1, 180);
  const point = pointOnStreet(street, number);
  return {
    address_1: `${number} ${street.name}`, city: suburb.name, state: 'QLD', post_code: suburb.postCode, country: 'Australia',
    lat: Math.round(point.lat * 1e6) / 1e6, lng: Math.round(point.lng * 1e6) / 1e6,
  };
}

export function randomAvailability(random: SeededRandom): AvailabilityEntry[] {
  if (random.next() < 0.35) return []; // no custom availability: any time suits
  const entries: AvailabilityEntry[] = [];
  for (let dow = 1; dow <= 5; dow++) {
    if (random.next() < 0.3) continue;
    if (random.next() < 0.4) {
      entries.push({ dow });
    } else {
      const hours = AVAILABILITY_SLOTS.filter(() => random.next() < 0.45);
      entries.push(hours.length ? { dow, hours } : { dow, hours: [random.pick(AVAILABILITY_SLOTS)] });
    }
  }
  return entries;
}

export interface GeneratedPractitioner { first_name: string; last_name: string; profession: string; active: boolean; email: string; home: GeneratedAddress }
export interface GeneratedClient {
  first_name: string; last_name: string; dob: string; email: string | null; phone: string;
  address: GeneratedAddress | null; availability: AvailabilityEntry[];
}
export interface GeneratedAppointment {
  practitionerIndex: number; clientIndex: number; typeIndex: number; locationIndex: number;
  starts_at: Date; ends_at: Date; notes: string | null;
}

export function generatePractitioners(random: SeededRandom, count: number): GeneratedPractitioner[] {
  return Array.from({ length: count }, (_, index) => {
    const first_name = random.pick(PRACTITIONER_FIRST_NAMES);
    const last_name = random.pick(LAST_NAMES);
    return {
      first_name, last_name,
      profession: random.pick(PROFESSIONS).designation,
      active: index % 6 !== 5, // about one in six inactive
      email: `${first_name}.${last_name}.${index}`.toLowerCase().replace(/[^a-z0-9.]/g, '') + '@demo-care.test',
      home: randomAddress(random),
    };
  });
}

export function generateClients(random: SeededRandom, count: number): GeneratedClient[] {
  return Array.from({ length: count }, (_, index) => {
    const first_name = random.pick(FIRST_NAMES);
    const last_name = random.pick(LAST_NAMES);
    const year = random.int(1930, 1995);
    return {
      first_name, last_name,
      dob: `${year}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`,
      email: random.next() < 0.6 ? `${first_name}.${last_name}${index}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, '') : null,
      phone: `04${String(random.int(10_000_000, 99_999_999))}`,
      // A few clients have no usable address, as in every real client list.
      address: random.next() < 0.03 ? null : randomAddress(random),
      availability: randomAvailability(random),
    };
  });
}

/** Weekday visits from `firstDay` for `days` days: 5–7 per active practitioner between 07:30 and 17:00. */
export function generateAppointments(random: SeededRandom, options: {
  practitioners: GeneratedPractitioner[]; clientCount: number; firstDay: Temporal.PlainDate; days: number; timeZone?: string;
}): GeneratedAppointment[] {
  const zone = options.timeZone ?? SAMPLE_TIME_ZONE;
  const appointments: GeneratedAppointment[] = [];
  for (let offset = 0; offset < options.days; offset++) {
    const day = options.firstDay.add({ days: offset });
    if (day.dayOfWeek > 5) continue;
    options.practitioners.forEach((practitioner, practitionerIndex) => {
      if (!practitioner.active) return;
      let minute = 7 * 60 + 30 + random.int(0, 6) * 5;
      const visits = random.int(5, 7);
      for (let visit = 0; visit < visits; visit++) {
        const typeIndex = random.int(0, APPOINTMENT_TYPES.length - 1);
        const duration = APPOINTMENT_TYPES[typeIndex].duration;
        if (minute + duration > 17 * 60) break;
        const start = day.toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from({ hour: Math.floor(minute / 60), minute: minute % 60 }) });
        appointments.push({
          practitionerIndex,
          clientIndex: random.int(0, options.clientCount - 1),
          typeIndex,
          locationIndex: random.int(0, DEMO_LOCATIONS.length - 1),
          starts_at: new Date(start.epochMilliseconds),
          ends_at: new Date(start.add({ minutes: duration }).epochMilliseconds),
          notes: random.next() < 0.15 ? random.pick(APPOINTMENT_NOTES) : null,
        });
        minute += duration + 15 + random.int(0, 6) * 5;
      }
    });
  }
  return appointments;
}
