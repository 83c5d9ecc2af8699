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
    reminders_enabled: true,
    preferred_practitioner_ids: [],
    excluded_practitioner_ids: [],
    ...overrides,
  };
}

export function makeAppointment(overrides: Partial<Schemas['Appointment']> = {}): Schemas['Appointment'] {
  return {
    id: 501,
    starts_at: '2026-11-23T23:00:00Z', // Tue 24 Nov 09:00 Brisbane
    ends_at: '2026-11-24T00:00:00Z',
    arrive_at: '2026-11-23T22:50:00Z',
    agreed_starts_at: '2026-11-23T23:00:00Z',
    route_id: null,
    arrival_locked: false,
    tolerance_minutes: 30,
    notes: 'Key under the mat',
    lat: -27.46,
    lng: 152.99,
    geo_precision: 'address',
    geo_source: 'google',
    cancelled_at: null,
    status: 'BOOKED',
    suburb: 'Paddington',
    location: { address_1: '12 Given Tce', city: 'Paddington', state: 'QLD', post_code: '4064', country: 'Australia' },
    client: { id: 11, full_name: 'Margaret Jones', time_zone: 'Australia/Brisbane', availability: [] },
    practitioner: { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane' },
    appointment_type: { id: 3, name: 'Home visit', duration: 60, color: '#0284c7' },
    business_location: null,
    visit_state: 'not_started',
    visit: null,
    pms_write: null,
    ...overrides,
  };
}

const RULE_TITLES: Record<Schemas['RuleId'], string> = {
  'practitioner-overlap': 'A practitioner in two places at once',
  'client-overlap': 'Two visits of one client at once',
  'double-handed': 'Two-carer visit not together',
  spacing: "Too close to the client's other visit",
  tolerance: 'Too far from the booked time',
  availability: "Outside the client's availability",
  'working-hours': 'Outside working hours',
  'on-leave': 'Practitioner on leave',
  skills: 'Not qualified for this visit',
  'excluded-practitioner': 'A practitioner the client asked not to see',
  'travel-time': 'Not enough travel time',
};

/** GET /schedule/issues's answer for a day with these problems: every rule of the rule book counted, as the server does. */
export function dayIssuesBody(date: string, issues: Schemas['RuleIssue'][] = []) {
  const counts = (Object.keys(RULE_TITLES) as Schemas['RuleId'][]).map((rule) => ({
    rule, title: RULE_TITLES[rule], hard: issues.find((issue) => issue.rule === rule)?.hard ?? !['working-hours', 'travel-time'].includes(rule),
    count: issues.filter((issue) => issue.rule === rule).length,
  }));
  return { date, counts, issues };
}

const uniqueById = <Item extends { id: number }>(items: Item[]) => [...new Map(items.map((item) => [item.id, item])).values()];

/** The list response (GET /appointments) for these appointments, one page of them when the request asks for one. */
export function appointmentListBody(appointments: ReadonlyArray<Schemas['Appointment']>, search: URLSearchParams) {
  const perPage = Number(search.get('per_page') ?? appointments.length);
  const page = Number(search.get('page') ?? 1);
  const shown = appointments.slice((page - 1) * perPage, page * perPage);
  return {
    appointments: shown.map(({ id, starts_at, ends_at, arrive_at, route_id, status, suburb, lat, lng, geo_precision, client, practitioner, appointment_type, business_location, partner, visit_state, visit, pms_write }) => ({
      id, starts_at, ends_at, arrive_at, route_id, status, suburb, lat, lng, geo_precision, partner: partner ?? null, visit_state, visit,
      // The list says a write's state only while it is not saved.
      pms_write_state: pms_write && (pms_write.state === 'saving' || pms_write.state === 'failed' || pms_write.state === 'conflict') ? pms_write.state : null,
      client_id: client?.id ?? null, practitioner_id: practitioner.id, appointment_type_id: appointment_type?.id ?? null, business_location_id: business_location?.id ?? null,
    })),
    clients: uniqueById(shown.flatMap(({ client }) => (client ? [client] : []))),
    practitioners: uniqueById(shown.map(({ practitioner }) => ({ id: practitioner.id, full_name: practitioner.full_name, time_zone: practitioner.time_zone ?? 'Australia/Brisbane' }))),
    appointment_types: uniqueById(shown.flatMap(({ appointment_type }) => (appointment_type ? [appointment_type] : []))),
    meta: { page, per_page: perPage, total: appointments.length },
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
