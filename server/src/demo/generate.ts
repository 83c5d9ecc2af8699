// Deterministic, realistic Brisbane data for the demo care provider and for benchmarks: practitioners,
// business locations, appointment types, clients with addresses, coordinates and weekday availability, and
// each practitioner's weekday visits. Pure: no database.
import { Temporal } from 'temporal-polyfill';
import { BRISBANE_SUBURBS, pointOnStreet } from '../geo/brisbane-gazetteer';
import type { AvailabilityEntry } from '../db/schema';

export const DEMO_TIME_ZONE = 'Australia/Brisbane';
export const AVAILABILITY_SLOTS = ['06:00-09:00', '09:00-12:00', '12:00-15:00', '15:00-18:00'] as const;

const FIRST_NAMES = ['Olivia', 'Jack', 'Charlotte', 'William', 'Amelia', 'Noah', 'Isla', 'Thomas', 'Mia', 'James', 'Grace',
  'Lucas', 'Ava', 'Henry', 'Chloe', 'Oliver', 'Ella', 'Leo', 'Zoe', 'Harrison', 'Ruby', 'Lachlan', 'Matilda', 'Cooper',
  'Sienna', 'Hamish', 'Evie', 'Angus', 'Poppy', 'Archie', 'Margaret', 'Kevin', 'Dorothy', 'Graham', 'Joan', 'Barry',
  'Beverley', 'Ian', 'Patricia', 'Ross', 'Shirley', 'Neville', 'Maureen', 'Colin', 'Judith', 'Trevor', 'Lorraine', 'Wayne'];
const LAST_NAMES = ['Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Nguyen', 'Johnson', 'Martin', 'White',
  'Anderson', 'Walker', 'Thompson', 'Harris', 'Lee', 'Ryan', 'Robinson', 'Kelly', 'King', 'Davis', 'Wright', 'Evans',
  'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke', 'Patel', 'Khan', 'Tran', 'Murphy', "O'Brien", 'Mitchell',
  'Campbell', 'Young', 'Scott', 'Edwards', 'Hughes', 'Baker', 'Turner', 'Stewart', 'Chen', 'Wang', 'Morris', 'Cook'];
const PROFESSIONS = ['Registered Nurse', 'Enrolled Nurse', 'Physiotherapist', 'Occupational Therapist', 'Support Worker',
  'Support Worker', 'Personal Care Worker'];

export const DEMO_APPOINTMENT_TYPES = [
  { name: 'Personal care', duration: 60, color: '#2563eb' },
  { name: 'Nursing visit', duration: 45, color: '#dc2626' },
  { name: 'Physiotherapy', duration: 60, color: '#16a34a' },
  { name: 'Domestic assistance', duration: 90, color: '#9333ea' },
  { name: 'Wound care', duration: 30, color: '#ea580c' },
  { name: 'Medication check', duration: 15, color: '#0891b2' },
];

export const DEMO_LOCATIONS = [
  { name: 'Brisbane City office', suburb: 'Brisbane City' },
  { name: 'Chermside hub', suburb: 'Chermside' },
  { name: 'Carindale hub', suburb: 'Carindale' },
];

/** Mulberry32: small, fast, deterministic. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, int, pick };
}
export type Random = ReturnType<typeof createRandom>;

export interface GeneratedAddress { address_1: string; city: string; state: string; post_code: string; country: string; lat: number; lng: number }

export function randomAddress(random: Random): GeneratedAddress {
  const suburb = random.pick(BRISBANE_SUBURBS);
  const street = random.pick(suburb.streets);
  const number = random.int(1, 180);
  const point = pointOnStreet(street, number);
  return {
    address_1: `${number} ${street.name}`, city: suburb.name, state: 'QLD', post_code: suburb.postCode, country: 'Australia',
    lat: Math.round(point.lat * 1e6) / 1e6, lng: Math.round(point.lng * 1e6) / 1e6,
  };
}

export function randomAvailability(random: Random): AvailabilityEntry[] {
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

export function generatePractitioners(random: Random, count: number): GeneratedPractitioner[] {
  return Array.from({ length: count }, (_, index) => {
    const first_name = random.pick(FIRST_NAMES);
    const last_name = random.pick(LAST_NAMES);
    return {
      first_name, last_name,
      profession: random.pick(PROFESSIONS),
      active: index % 6 !== 5, // about one in six inactive
      email: `${first_name}.${last_name}.${index}`.toLowerCase().replace(/[^a-z0-9.]/g, '') + '@demo-care.test',
      home: randomAddress(random),
    };
  });
}

export function generateClients(random: Random, count: number): GeneratedClient[] {
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
export function generateAppointments(random: Random, options: {
  practitioners: GeneratedPractitioner[]; clientCount: number; firstDay: Temporal.PlainDate; days: number; timeZone?: string;
}): GeneratedAppointment[] {
  const zone = options.timeZone ?? DEMO_TIME_ZONE;
  const appointments: GeneratedAppointment[] = [];
  for (let offset = 0; offset < options.days; offset++) {
    const day = options.firstDay.add({ days: offset });
    if (day.dayOfWeek > 5) continue;
    options.practitioners.forEach((practitioner, practitionerIndex) => {
      if (!practitioner.active) return;
      let minute = 7 * 60 + 30 + random.int(0, 6) * 5;
      const visits = random.int(5, 7);
      for (let visit = 0; visit < visits; visit++) {
        const typeIndex = random.int(0, DEMO_APPOINTMENT_TYPES.length - 1);
        const duration = DEMO_APPOINTMENT_TYPES[typeIndex].duration;
        if (minute + duration > 17 * 60) break;
        const start = day.toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from({ hour: Math.floor(minute / 60), minute: minute % 60 }) });
        appointments.push({
          practitionerIndex,
          clientIndex: random.int(0, options.clientCount - 1),
          typeIndex,
          locationIndex: random.int(0, DEMO_LOCATIONS.length - 1),
          starts_at: new Date(start.epochMilliseconds),
          ends_at: new Date(start.add({ minutes: duration }).epochMilliseconds),
          notes: random.next() < 0.15 ? random.pick(['Key in lockbox by the door.', 'Client prefers a call 10 minutes before.', 'Dog on premises.', 'Park on the street, not the driveway.']) : null,
        });
        minute += duration + 15 + random.int(0, 6) * 5;
      }
    });
  }
  return appointments;
}
