// Contract-shaped data for component and model tests, and a response a test releases when it chooses.
import type { components } from '../../../src/api/schema';

type Schemas = components['schemas'];

export function makeTag(id: number, name: string, color = '#16a34a'): Schemas['Tag'] {
  return { id, name, color };
}

export function makeClient(overrides: Partial<Schemas['Client']> = {}): Schemas['Client'] {
  return {
    id: 11,
    full_name: 'Margaret Jones',
    first_name: 'Margaret',
    last_name: 'Jones',
    dob: '1941-12-31',
    email: 'margaret@example.test',
    location: { address_1: '12 Given Tce', city: 'Paddington', state: 'QLD', post_code: '4064', country: 'Australia' },
    phone_numbers: [{ number: '0400 000 111', phone_type: 'Mobile' }],
    time_zone: 'Australia/Brisbane',
    tags: [],
    availability: [],
    lat: -27.46,
    lng: 152.99,
    geo_precision: 'address',
    geo_source: 'google',
    ...overrides,
  };
}

export function makeAppointment(overrides: Partial<Schemas['Appointment']> = {}): Schemas['Appointment'] {
  return {
    id: 501,
    starts_at: '2026-11-23T23:00:00Z', // Tue 24 Nov 09:00 Brisbane
    ends_at: '2026-11-24T00:00:00Z',
    arrive_at: '2026-11-23T22:50:00Z',
    route_id: null,
    arrival_locked: false,
    notes: 'Key under the mat',
    lat: -27.46,
    lng: 152.99,
    cancelled_at: null,
    status: 'BOOKED',
    suburb: 'Paddington',
    location: { address_1: '12 Given Tce', city: 'Paddington', state: 'QLD', post_code: '4064', country: 'Australia' },
    client: { id: 11, full_name: 'Margaret Jones', time_zone: 'Australia/Brisbane', availability: [] },
    practitioner: { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane' },
    appointment_type: { id: 3, name: 'Home visit', duration: 60, color: '#0284c7' },
    business_location: null,
    ...overrides,
  };
}

/** A response the test releases later, to observe the in-between (saving) state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
