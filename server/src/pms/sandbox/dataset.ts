import { Temporal } from 'temporal-polyfill';
import { BRISBANE_SUBURBS, geocodeBrisbaneAddress, type GazetteerSuburb, MAX_HOUSE_NUMBER } from '../../geo/brisbane-gazetteer';
import {
  APPOINTMENT_NOTES, APPOINTMENT_TYPES, FIRST_NAMES, LAST_NAMES, PRACTITIONER_FIRST_NAMES, PROFESSIONS, SAMPLE_TIME_ZONE, SeededRandom,
  type AppointmentTypeName,
} from '../../sample-data';

/**
 * The sandbox's in-memory account: plain records with relations as ids. The server turns them into
 * Cliniko-shaped JSON (link objects, etc.) in ./serialise.ts; PATCH/cancel/archive mutate them in place.
 * All timestamps are UTC ISO strings; ids are 19-digit strings.
 */
export interface SandboxUser {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  role: 'administrator' | 'practitioner' | 'receptionist';
  time_zone_identifier: string;
  created_at: string;
  updated_at: string;
}

export interface SandboxBusiness {
  id: string;
  business_name: string;
  address_1: string;
  address_2: string | null;
  city: string;
  state: string;
  post_code: string;
  country: string;
  country_code: string;
  time_zone: string;
  time_zone_identifier: string;
  latitude: number;
  longitude: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export interface SandboxPractitioner {
  id: string;
  title: string | null;
  first_name: string;
  last_name: string;
  designation: string;
  active: boolean;
  business_id: string;
  appointment_type_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface SandboxAppointmentType {
  id: string;
  name: string;
  category: string;
  color: string;
  description: string;
  duration_in_minutes: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export interface SandboxPhoneNumber {
  number: string;
  phone_type: 'Mobile' | 'Home';
}

export interface SandboxPatient {
  id: string;
  title: string | null;
  first_name: string;
  last_name: string;
  preferred_first_name: string | null;
  date_of_birth: string;
  email: string | null;
  patient_phone_numbers: SandboxPhoneNumber[];
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  state: string | null;
  post_code: string | null;
  country: string | null;
  country_code: string | null;
  time_zone: string;
  /** Sandbox-only extras (real Cliniko has no coordinates): the gazetteer point of the address. */
  latitude: number | null;
  longitude: number | null;
  /** The business whose area the patient lives in (used to build plausible rosters). */
  business_id: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  deleted_at: string | null;
}

export interface SandboxAppointment {
  id: string;
  starts_at: string;
  ends_at: string;
  patient_id: string;
  practitioner_id: string;
  appointment_type_id: string;
  business_id: string;
  patient_name: string;
  notes: string | null;
  cancelled_at: string | null;
  cancellation_reason: number | null;
  cancellation_reason_description: string | null;
  cancellation_note: string | null;
  archived_at: string | null;
  deleted_at: string | null;
  did_not_arrive: boolean;
  created_at: string;
  updated_at: string;
}

/** A practitioner's unavailable block (leave, an afternoon off), as Cliniko keeps it. */
export interface SandboxUnavailableBlock {
  id: string;
  practitioner_id: string;
  business_id: string;
  starts_at: string;
  ends_at: string;
  notes: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  deleted_at: string | null;
}

export interface SandboxDataset {
  seed: number;
  /**
   * First and last day (yyyy-MM-dd, Brisbane) covered by appointments. Seeded records were all created and
   * last updated before the Monday after firstDay (the dataset's "today").
   */
  firstDay: string;
  lastDay: string;
  user: SandboxUser;
  businesses: SandboxBusiness[];
  practitioners: SandboxPractitioner[];
  appointmentTypes: SandboxAppointmentType[];
  patients: SandboxPatient[];
  appointments: SandboxAppointment[];
  /** A few practitioners' unavailable blocks in the last week (an afternoon off, a day of leave). */
  unavailableBlocks: SandboxUnavailableBlock[];
}

export interface SandboxDatasetOptions {
  /** Same seed (and start date) → identical data. Default 20261123. */
  seed?: number;
  /** Default 400. */
  patients?: number;
  /** Default 15. */
  practitioners?: number;
  /** How many of the practitioners are inactive. Default round(practitioners / 5). */
  inactivePractitioners?: number;
  /** 1 to 3. Default 2. */
  businesses?: number;
  /** Weeks of appointments. Default 4. */
  weeks?: number;
  /**
   * First day of appointments (yyyy-MM-dd, moved back to its Monday). Default: the Monday one week before
   * today in Brisbane, so the weeks run around "today". Pass it for data that does not depend on the date.
   */
  startDate?: string;
  /** Visits per practitioner working day, inclusive range. Default [5, 8]. */
  visitsPerDay?: [number, number];
  /** Share of appointments cancelled / archived / deleted. Defaults 0.05 / 0.02 / 0.005. */
  cancelledRate?: number;
  archivedRate?: number;
  deletedRate?: number;
}

export const DEFAULT_SANDBOX_SEED = 20261123;

const BUSINESS_SITES = [
  { name: 'Riverside Community Care — Brisbane North', suburb: 'Chermside', street: 'Murphy Road', number: 42 },
  { name: 'Riverside Community Care — Brisbane South', suburb: 'Mount Gravatt', street: 'Klumpp Road', number: 118 },
  { name: 'Riverside Community Care — Inner West', suburb: 'Toowong', street: 'High Street', number: 27 },
] as const;

const CANCELLATION_REASONS: [number, string][] = [
  [10, 'Feeling Better'],
  [20, 'Condition Worse'],
  [30, 'Sick'],
  [40, 'Away'],
  [50, 'Other'],
];

const DAY_START_MINUTES = 8 * 60;
const DAY_END_MINUTES = 17 * 60;
const DAY_MS = 86_400_000;

/** Ids grow with creation time like Cliniko's and have 19 digits (ms × 10^6 + a sequence). */
class IdSequence {
  private sequence = 0;
  next(createdAtIso: string): string {
    this.sequence += 1;
    return (BigInt(Date.parse(createdAtIso)) * 1_000_000n + BigInt(this.sequence % 1_000_000)).toString();
  }
}

function checkCount(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name}: must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

function checkRate(name: string, value: number): number {
  if (!(value >= 0 && value <= 1)) throw new Error(`${name}: must be between 0 and 1, got ${value}`);
  return value;
}

function mondayOf(date: Temporal.PlainDate): Temporal.PlainDate {
  return date.subtract({ days: date.dayOfWeek - 1 });
}

function resolveStartDate(startDate: string | undefined): Temporal.PlainDate {
  if (startDate === undefined) {
    return mondayOf(Temporal.Now.plainDateISO(SAMPLE_TIME_ZONE)).subtract({ weeks: 1 });
  }
  try {
    return mondayOf(Temporal.PlainDate.from(startDate, { overflow: 'reject' }));
  } catch {
    throw new Error(`startDate: must be a yyyy-MM-dd date, got ${JSON.stringify(startDate)}`);
  }
}

function brisbaneInstant(day: Temporal.PlainDate, minutes: number): string {
  const time = Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
  return isoAt(day.toZonedDateTime({ timeZone: SAMPLE_TIME_ZONE, plainTime: time }).toInstant().epochMilliseconds);
}

/** Whole-second UTC in Cliniko's style: "2026-11-16T22:00:00Z". */
export function isoAt(ms: number): string {
  return new Date(Math.round(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function distanceSquared(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  return (a.lat - b.lat) ** 2 + ((a.lng - b.lng) * Math.cos((a.lat * Math.PI) / 180)) ** 2;
}

function phoneDigits(random: SeededRandom, count: number): string {
  let digits = '';
  for (let i = 0; i < count; i++) digits += String(random.int(0, 9));
  return digits;
}

/** Builds the sandbox account deterministically from the options (see SandboxDatasetOptions). */
export function createSandboxDataset(options: SandboxDatasetOptions = {}): SandboxDataset {
  const seed = options.seed ?? DEFAULT_SANDBOX_SEED;
  const patientCount = checkCount('patients', options.patients ?? 400, 1, 100_000);
  const practitionerCount = checkCount('practitioners', options.practitioners ?? 15, 1, 2_000);
  const inactiveCount = checkCount(
    'inactivePractitioners',
    options.inactivePractitioners ?? Math.round(practitionerCount / 5),
    0,
    practitionerCount - 1,
  );
  const businessCount = checkCount('businesses', options.businesses ?? 2, 1, BUSINESS_SITES.length);
  const weeks = checkCount('weeks', options.weeks ?? 4, 1, 104);
  const [minVisits, maxVisits] = options.visitsPerDay ?? [5, 8];
  checkCount('visitsPerDay[0]', minVisits, 1, 20);
  checkCount('visitsPerDay[1]', maxVisits, minVisits, 20);
  const cancelledRate = checkRate('cancelledRate', options.cancelledRate ?? 0.05);
  const archivedRate = checkRate('archivedRate', options.archivedRate ?? 0.02);
  const deletedRate = checkRate('deletedRate', options.deletedRate ?? 0.005);

  const random = new SeededRandom(seed);
  const ids = new IdSequence();
  const firstDay = resolveStartDate(options.startDate);
  const lastDay = firstDay.add({ weeks }).subtract({ days: 1 });
  // Seeded records were all created and last touched before the first appointment day.
  const setupEndMs = Date.parse(brisbaneInstant(firstDay, 0)) - DAY_MS;
  const setupStartMs = setupEndMs - 120 * DAY_MS;
  const randomSetupTime = (after = setupStartMs) => isoAt(after + random.next() * (setupEndMs - after));

  const userCreated = isoAt(setupStartMs - 30 * DAY_MS);
  const user: SandboxUser = {
    id: ids.next(userCreated),
    first_name: 'Sandy',
    last_name: 'Box',
    email: 'sandbox-admin@example.com',
    role: 'administrator',
    time_zone_identifier: SAMPLE_TIME_ZONE,
    created_at: userCreated,
    updated_at: userCreated,
  };

  const businesses: SandboxBusiness[] = BUSINESS_SITES.slice(0, businessCount).map((site, index) => {
    const created = isoAt(setupStartMs - (20 - index) * DAY_MS);
    const suburb = BRISBANE_SUBURBS.find((s) => s.name === site.suburb)!;
    const address_1 = `${site.number} ${site.street}`;
    const point = geocodeBrisbaneAddress({ address_1, city: suburb.name, post_code: suburb.postCode })!;
    return {
      id: ids.next(created),
      business_name: site.name,
      address_1,
      address_2: null,
      city: suburb.name,
      state: 'QLD',
      post_code: suburb.postCode,
      country: 'Australia',
      country_code: 'AU',
      time_zone: 'Brisbane',
      time_zone_identifier: SAMPLE_TIME_ZONE,
      latitude: point.lat,
      longitude: point.lng,
      created_at: created,
      updated_at: created,
      archived_at: null,
    };
  });

  const appointmentTypes: SandboxAppointmentType[] = APPOINTMENT_TYPES.map((spec, index) => {
    const created = isoAt(setupStartMs - (10 - index) * DAY_MS);
    return {
      id: ids.next(created),
      name: spec.name,
      category: spec.category,
      color: spec.color,
      description: `${spec.name} at the client's home (${spec.duration} min).`,
      duration_in_minutes: spec.duration,
      created_at: created,
      updated_at: created,
      archived_at: null,
    };
  });
  const typeByName = new Map(appointmentTypes.map((t) => [t.name as AppointmentTypeName, t]));

  const practitioners: SandboxPractitioner[] = [];
  const practitionerTypes = new Map<string, [SandboxAppointmentType, number][]>();
  for (let i = 0; i < practitionerCount; i++) {
    const profession = PROFESSIONS[i % PROFESSIONS.length];
    const created = isoAt(setupStartMs - 5 * DAY_MS + i * 3_600_000);
    const firstName = PRACTITIONER_FIRST_NAMES[i % PRACTITIONER_FIRST_NAMES.length];
    const lastName = LAST_NAMES[(i * 7 + 3) % LAST_NAMES.length];
    const weightedTypes = profession.types.map(([name, weight]) => [typeByName.get(name)!, weight] as [SandboxAppointmentType, number]);
    const practitioner: SandboxPractitioner = {
      id: ids.next(created),
      title: null,
      first_name: firstName,
      last_name: lastName,
      designation: profession.designation,
      active: i < practitionerCount - inactiveCount,
      business_id: businesses[i % businesses.length].id,
      // What Cliniko lists for them (GET /practitioners/{id}/appointment_types): every type they are booked for, and more.
      appointment_type_ids: appointmentTypes.filter((type) => (profession.qualifications as readonly string[]).includes(type.name)).map((type) => type.id),
      created_at: created,
      updated_at: randomSetupTime(Date.parse(created)),
    };
    practitioners.push(practitioner);
    practitionerTypes.set(practitioner.id, weightedTypes);
  }

  const patients = createPatients(patientCount, random, ids, businesses, randomSetupTime);

  const appointments = createAppointments({
    random,
    ids,
    firstDay,
    weeks,
    visits: [minVisits, maxVisits],
    practitioners,
    practitionerTypes,
    patients,
    rates: { cancelledRate, archivedRate, deletedRate },
    setupStartMs,
    asOfMs: Date.parse(brisbaneInstant(firstDay.add({ weeks: 1 }), 0)),
  });

  // Made after everything else, from the records alone: the same seed gives the same appointments with or without them.
  const unavailableBlocks = createUnavailableBlocks(ids, lastDay, practitioners, appointments, isoAt(setupEndMs));

  return {
    seed,
    firstDay: firstDay.toString(),
    lastDay: lastDay.toString(),
    user,
    businesses,
    practitioners,
    appointmentTypes,
    patients,
    appointments,
    unavailableBlocks,
  };
}

/**
 * In the dataset's last week (well after "today", so the days a coordinator works on now are untouched): the first
 * active practitioner takes an afternoon off on their first working day of that week, the second a day of annual
 * leave on their last. Their visits of those days stay booked, as in Cliniko: the coordinator moves them.
 */
function createUnavailableBlocks(
  ids: IdSequence, lastDay: Temporal.PlainDate, practitioners: SandboxPractitioner[], appointments: SandboxAppointment[], created: string,
): SandboxUnavailableBlock[] {
  const weekStart = lastDay.subtract({ days: 6 });
  const workedDays = (practitionerId: string) => [...new Set(appointments
    .filter((appointment) => appointment.practitioner_id === practitionerId)
    .map((appointment) => Temporal.Instant.from(appointment.starts_at).toZonedDateTimeISO(SAMPLE_TIME_ZONE).toPlainDate())
    .filter((day) => Temporal.PlainDate.compare(day, weekStart) >= 0 && Temporal.PlainDate.compare(day, lastDay) <= 0)
    .map((day) => day.toString()))].sort();
  const [first, second] = practitioners.filter((practitioner) => practitioner.active);
  const blocks: SandboxUnavailableBlock[] = [];
  const block = (practitioner: SandboxPractitioner, startsAt: string, endsAt: string, notes: string) => blocks.push({
    id: ids.next(created), practitioner_id: practitioner.id, business_id: practitioner.business_id, starts_at: startsAt, ends_at: endsAt, notes,
    created_at: created, updated_at: created, archived_at: null, deleted_at: null,
  });
  const afternoon = first && workedDays(first.id)[0];
  if (afternoon) block(first, brisbaneInstant(Temporal.PlainDate.from(afternoon), 12 * 60 + 30), brisbaneInstant(Temporal.PlainDate.from(afternoon), 17 * 60), 'Afternoon off: medical appointment');
  const leave = second && workedDays(second.id).at(-1);
  if (leave) block(second, brisbaneInstant(Temporal.PlainDate.from(leave), 0), brisbaneInstant(Temporal.PlainDate.from(leave).add({ days: 1 }), 0), 'Annual leave');
  return blocks;
}

function createPatients(
  count: number,
  random: SeededRandom,
  ids: IdSequence,
  businesses: SandboxBusiness[],
  randomSetupTime: (after?: number) => string,
): SandboxPatient[] {
  // Patient creation times are sorted first so ids ascend with created_at, as in Cliniko.
  const createdTimes = Array.from({ length: count }, () => randomSetupTime()).sort();
  const usedEmails = new Set<string>();
  return createdTimes.map((created) => {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const elderly = random.chance(0.85);
    const age = elderly ? random.int(65, 97) : random.int(24, 64);
    const birthYear = new Date(created).getUTCFullYear() - age;
    const dob = `${birthYear}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;
    const suburb: GazetteerSuburb = random.pick(BRISBANE_SUBURBS);
    const street = random.pick(suburb.streets);
    const missingAddress = random.chance(0.02);
    const houseNumber = random.int(1, MAX_HOUSE_NUMBER);
    const address_1 = missingAddress ? null : `${houseNumber} ${street.name}`;
    const address_2 = !missingAddress && random.chance(0.15) ? `Unit ${random.int(1, 12)}` : null;
    const point = address_1 ? geocodeBrisbaneAddress({ address_1, city: suburb.name, post_code: suburb.postCode }) : null;
    const home = { lat: point?.lat ?? suburb.lat, lng: point?.lng ?? suburb.lng };
    const nearest = businesses.reduce((best, b) =>
      distanceSquared(home, { lat: b.latitude, lng: b.longitude }) < distanceSquared(home, { lat: best.latitude, lng: best.longitude }) ? b : best,
    );
    let email: string | null = null;
    if (random.chance(0.7)) {
      const local = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '');
      email = `${local}@example.com`;
      for (let n = 2; usedEmails.has(email); n++) email = `${local}${n}@example.com`;
      usedEmails.add(email);
    }
    const phones: SandboxPhoneNumber[] = [
      { number: `04${phoneDigits(random, 2)} ${phoneDigits(random, 3)} ${phoneDigits(random, 3)}`, phone_type: 'Mobile' },
    ];
    if (random.chance(0.5)) phones.push({ number: `07 3${phoneDigits(random, 3)} ${phoneDigits(random, 4)}`, phone_type: 'Home' });
    const archived = random.chance(0.01);
    const updated = randomSetupTime(Date.parse(created));
    return {
      id: ids.next(created),
      title: null,
      first_name: first,
      last_name: last,
      preferred_first_name: random.chance(0.1) ? first.slice(0, 3) : null,
      date_of_birth: dob,
      email,
      patient_phone_numbers: phones,
      address_1,
      address_2,
      city: missingAddress ? null : suburb.name,
      state: missingAddress ? null : 'QLD',
      post_code: missingAddress ? null : suburb.postCode,
      country: missingAddress ? null : 'Australia',
      country_code: missingAddress ? null : 'AU',
      time_zone: SAMPLE_TIME_ZONE,
      latitude: point?.lat ?? null,
      longitude: point?.lng ?? null,
      business_id: nearest.id,
      created_at: created,
      updated_at: updated,
      archived_at: archived ? updated : null,
      deleted_at: null,
    };
  });
}

interface AppointmentPlan {
  random: SeededRandom;
  ids: IdSequence;
  firstDay: Temporal.PlainDate;
  weeks: number;
  visits: [number, number];
  practitioners: SandboxPractitioner[];
  practitionerTypes: Map<string, [SandboxAppointmentType, number][]>;
  patients: SandboxPatient[];
  rates: { cancelledRate: number; archivedRate: number; deletedRate: number };
  setupStartMs: number;
  asOfMs: number;
}

/**
 * Each practitioner serves a pool of nearby clients of their business, works 4-5 fixed weekdays, and has a
 * weekly roster that mostly repeats (home-care clients are seen on the same day each week). Days start at
 * 8:00 Brisbane time with travel gaps of 10-30 minutes and end by 17:00. Inactive practitioners only have
 * appointments in the first week (before they left).
 */
function createAppointments(plan: AppointmentPlan): SandboxAppointment[] {
  const { random } = plan;
  const drafts: Omit<SandboxAppointment, 'id'>[] = [];
  const visiblePatients = plan.patients.filter((p) => p.archived_at === null && p.latitude !== null);
  const fallbackPatients = plan.patients.filter((p) => p.archived_at === null);
  const pool = visiblePatients.length > 0 ? visiblePatients : fallbackPatients.length > 0 ? fallbackPatients : plan.patients;

  for (const practitioner of plan.practitioners) {
    const ownPatients = pool.filter((p) => p.business_id === practitioner.business_id);
    const candidates = ownPatients.length > 0 ? ownPatients : pool;
    const anchor = random.pick(candidates);
    const anchorPoint = { lat: anchor.latitude ?? -27.47, lng: anchor.longitude ?? 153.02 };
    const clientPool = [...candidates]
      .sort((a, b) => distanceSquared(anchorPoint, { lat: a.latitude ?? 0, lng: a.longitude ?? 0 }) - distanceSquared(anchorPoint, { lat: b.latitude ?? 0, lng: b.longitude ?? 0 }))
      .slice(0, 40);
    const workingDays = random.shuffle([1, 2, 3, 4, 5]).slice(0, random.chance(0.6) ? 4 : 5).sort();
    const roster = new Map<number, SandboxPatient[]>();
    for (const dow of workingDays) {
      const count = random.int(plan.visits[0], plan.visits[1]);
      roster.set(dow, Array.from({ length: count }, () => random.pick(clientPool)));
    }
    const types = plan.practitionerTypes.get(practitioner.id)!;
    const activeWeeks = practitioner.active ? plan.weeks : 1;

    for (let week = 0; week < activeWeeks; week++) {
      for (const dow of workingDays) {
        const day = plan.firstDay.add({ weeks: week, days: dow - 1 });
        const weekly = roster.get(dow)!.map((client) => (random.chance(0.8) ? client : random.pick(clientPool)));
        let minute = DAY_START_MINUTES + 5 * random.int(0, 6);
        for (const client of weekly) {
          const type = random.weighted(types);
          const end = minute + type.duration_in_minutes;
          if (end > DAY_END_MINUTES) break;
          drafts.push(draftAppointment(plan, practitioner, client, type, day, minute, end));
          minute = end + 5 * random.int(2, 6);
        }
      }
    }
  }

  drafts.sort((a, b) => a.created_at.localeCompare(b.created_at));
  return drafts.map((draft) => ({ id: plan.ids.next(draft.created_at), ...draft }));
}

function draftAppointment(
  plan: AppointmentPlan,
  practitioner: SandboxPractitioner,
  client: SandboxPatient,
  type: SandboxAppointmentType,
  day: Temporal.PlainDate,
  startMinute: number,
  endMinute: number,
): Omit<SandboxAppointment, 'id'> {
  const { random, rates } = plan;
  const startsAt = brisbaneInstant(day, startMinute);
  const startMs = Date.parse(startsAt);
  // Booked 3-60 days ahead, never before the account's setup began nor after the dataset's "as of" instant,
  // so no record claims to have been touched in the future.
  const latestMs = Math.min(startMs - DAY_MS, plan.asOfMs);
  const createdMs = Math.max(
    plan.setupStartMs,
    Math.min(startMs - random.int(3, 60) * DAY_MS - random.int(0, 23) * 3_600_000, latestMs - random.int(1, 48) * 3_600_000),
  );
  const created = isoAt(createdMs);
  const touched = isoAt(createdMs + random.next() * Math.max(0, latestMs - createdMs));
  const roll = random.next();
  const cancelled = roll < rates.cancelledRate;
  const archived = !cancelled && roll < rates.cancelledRate + rates.archivedRate;
  const deleted = !cancelled && !archived && roll < rates.cancelledRate + rates.archivedRate + rates.deletedRate;
  const [reasonCode, reasonText] = random.pick(CANCELLATION_REASONS);
  return {
    starts_at: startsAt,
    ends_at: brisbaneInstant(day, endMinute),
    patient_id: client.id,
    practitioner_id: practitioner.id,
    appointment_type_id: type.id,
    business_id: practitioner.business_id,
    patient_name: `${client.first_name} ${client.last_name}`,
    notes: random.chance(0.15) ? random.pick(APPOINTMENT_NOTES) : null,
    cancelled_at: cancelled ? touched : null,
    cancellation_reason: cancelled ? reasonCode : null,
    cancellation_reason_description: cancelled ? reasonText : null,
    cancellation_note: cancelled ? 'Cancelled by phone.' : null,
    archived_at: archived ? touched : null,
    deleted_at: deleted ? touched : null,
    did_not_arrive: false,
    created_at: created,
    updated_at: touched,
  };
}
