import type {
  PmsAppointment,
  PmsAppointmentType,
  PmsBusiness,
  PmsInvalidRecord,
  PmsPatient,
  PmsPhoneNumber,
  PmsPractitioner,
  PmsUnavailableBlock,
} from '../adapter';
import type { components } from './cliniko-schema';

type Schemas = components['schemas'];
/** Fields the sandbox adds to Cliniko's records (real Cliniko omits them; they are then null). */
export interface CoordinateExtras {
  latitude?: number | null;
  longitude?: number | null;
}
export type ClinikoBusiness = Schemas['Business'] & CoordinateExtras;
export type ClinikoPractitioner = Schemas['Practitioner'];
export type ClinikoAppointmentType = Schemas['AppointmentType'];
export type ClinikoPatient = Schemas['Patient'] & CoordinateExtras;
export type ClinikoIndividualAppointment = Schemas['IndividualAppointment'];
export type ClinikoUser = Schemas['User'];
export type ClinikoUnavailableBlock = Schemas['UnavailableBlock'];

export type Normalised<T> = { ok: true; record: T } | { ok: false; invalid: PmsInvalidRecord };

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^\d{1,20}$/;

/**
 * Reads one raw record field by field, collecting a problem (naming the field) for each bad value instead
 * of throwing, so a record reports everything wrong with it at once. Field names are checked against the
 * generated Cliniko schema type T.
 */
class FieldReader<T extends object> {
  readonly problems: string[] = [];
  private readonly raw: Record<string, unknown>;

  constructor(raw: unknown) {
    this.raw = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    if (this.raw !== raw) this.problems.push('record: not a JSON object');
  }

  private value(field: keyof T & string): unknown {
    return this.raw[field];
  }

  id(field: keyof T & string): string {
    const value = this.value(field);
    if (typeof value === 'string' && ID.test(value)) return value;
    // A numeric id may already have lost digits in JSON.parse (19 digits > 2^53), so it is never accepted.
    this.problems.push(
      `${field}: must be a string of digits, got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`,
    );
    return '';
  }

  optionalId(field: keyof T & string): string | null {
    return this.value(field) === undefined || this.value(field) === null ? null : this.id(field);
  }

  string(field: keyof T & string): string | null {
    const value = this.value(field);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') {
      this.problems.push(`${field}: must be a string, got ${typeof value}`);
      return null;
    }
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }

  requiredString(field: keyof T & string): string {
    const value = this.string(field);
    if (value === null && !this.problems.some((p) => p.startsWith(`${field}:`))) this.problems.push(`${field}: is required`);
    return value ?? '';
  }

  timestamp(field: keyof T & string): string | null {
    const value = this.value(field);
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && ISO_DATE_TIME.test(value)) {
      const ms = Date.parse(value);
      if (Number.isFinite(ms)) return new Date(ms).toISOString();
    }
    this.problems.push(`${field}: not an ISO-8601 date-time with zone, got ${JSON.stringify(value)}`);
    return null;
  }

  requiredTimestamp(field: keyof T & string): string {
    const value = this.timestamp(field);
    if (value === null && !this.problems.some((p) => p.startsWith(`${field}:`))) this.problems.push(`${field}: is required`);
    return value ?? '';
  }

  date(field: keyof T & string): string | null {
    const value = this.value(field);
    if (value === undefined || value === null || value === '') return null;
    if (typeof value === 'string' && ISO_DATE.test(value) && Number.isFinite(Date.parse(value))) return value;
    this.problems.push(`${field}: not a yyyy-MM-dd date, got ${JSON.stringify(value)}`);
    return null;
  }

  boolean(field: keyof T & string, fallback: boolean): boolean {
    const value = this.value(field);
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'boolean') return value;
    this.problems.push(`${field}: must be a boolean, got ${typeof value}`);
    return fallback;
  }

  positiveInteger(field: keyof T & string): number {
    const value = this.value(field);
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
    this.problems.push(`${field}: must be a positive integer, got ${JSON.stringify(value)}`);
    return 0;
  }

  coordinate(field: string, min: number, max: number): number | null {
    const value = this.raw[field];
    if (value === undefined || value === null) return null;
    if (typeof value === 'number' && value >= min && value <= max) return value;
    this.problems.push(`${field}: must be a number between ${min} and ${max}, got ${JSON.stringify(value)}`);
    return null;
  }

  /** The id at the end of a link object's URL: `{ links: { self: ".../patients/123" } }` → "123". */
  linkedId(field: keyof T & string, resource: string, required: boolean): string | null {
    const value = this.value(field) as { links?: { self?: unknown } } | null | undefined;
    const self = value && typeof value === 'object' ? value.links?.self : undefined;
    if (self === undefined || self === null) {
      if (required) this.problems.push(`${field}: link is missing`);
      return null;
    }
    if (typeof self === 'string') {
      const match = safePathname(self)?.match(new RegExp(`/${resource}/(\\d+)$`));
      if (match) return match[1];
    }
    this.problems.push(`${field}: links.self is not a ${resource} URL, got ${JSON.stringify(self)}`);
    return null;
  }

  phoneNumbers(field: keyof T & string): PmsPhoneNumber[] {
    const value = this.value(field);
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.problems.push(`${field}: must be an array`);
      return [];
    }
    const numbers: PmsPhoneNumber[] = [];
    for (const entry of value) {
      const number = entry && typeof entry === 'object' ? (entry as { number?: unknown }).number : undefined;
      if (typeof number !== 'string' || number.trim() === '') continue;
      const type = (entry as { phone_type?: unknown }).phone_type;
      numbers.push({ number: number.trim(), type: typeof type === 'string' ? type : null });
    }
    return numbers;
  }

  rawId(): string | null {
    const id = this.raw.id;
    return typeof id === 'string' && ID.test(id) ? id : null;
  }
}

function safePathname(url: string): string | null {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

function finish<T, R extends object>(resource: string, reader: FieldReader<R>, record: T): Normalised<T> {
  if (reader.problems.length === 0) return { ok: true, record };
  return { ok: false, invalid: { resource, external_id: reader.rawId(), problems: reader.problems } };
}

function joinName(...parts: (string | null)[]): string {
  return parts.filter((p): p is string => p !== null && p !== '').join(' ');
}

export function normaliseBusiness(raw: unknown): Normalised<PmsBusiness> {
  const r = new FieldReader<ClinikoBusiness>(raw);
  const record: PmsBusiness = {
    external_id: r.id('id'),
    name: r.string('business_name') ?? r.string('display_name') ?? r.string('label') ?? '',
    address_1: r.string('address_1'),
    address_2: r.string('address_2'),
    city: r.string('city'),
    state: r.string('state'),
    post_code: r.string('post_code'),
    country: r.string('country') ?? r.string('country_code'),
    time_zone: r.string('time_zone_identifier'),
    latitude: r.coordinate('latitude', -90, 90),
    longitude: r.coordinate('longitude', -180, 180),
    archived_at: r.timestamp('archived_at'),
    updated_at: r.requiredTimestamp('updated_at'),
  };
  if (record.name === '') r.problems.push('business_name: is required');
  return finish('businesses', r, record);
}

export function normalisePractitioner(raw: unknown, activeByEndpoint: boolean): Normalised<PmsPractitioner> {
  const r = new FieldReader<ClinikoPractitioner>(raw);
  const first = r.string('first_name');
  const last = r.string('last_name');
  const title = r.string('title');
  const record: PmsPractitioner = {
    external_id: r.id('id'),
    first_name: first,
    last_name: last,
    title,
    full_name: r.string('display_name') ?? joinName(title, first, last),
    designation: r.string('designation'),
    active: r.boolean('active', activeByEndpoint),
    updated_at: r.requiredTimestamp('updated_at'),
  };
  if (record.full_name === '') r.problems.push('display_name: practitioner has no name');
  return finish('practitioners', r, record);
}

export function normaliseAppointmentType(raw: unknown): Normalised<PmsAppointmentType> {
  const r = new FieldReader<ClinikoAppointmentType>(raw);
  const record: PmsAppointmentType = {
    external_id: r.id('id'),
    name: r.requiredString('name'),
    duration_in_minutes: r.positiveInteger('duration_in_minutes'),
    category: r.string('category'),
    color: r.string('color'),
    archived_at: r.timestamp('archived_at'),
    updated_at: r.requiredTimestamp('updated_at'),
  };
  return finish('appointment_types', r, record);
}

export function normalisePatient(raw: unknown): Normalised<PmsPatient> {
  const r = new FieldReader<ClinikoPatient>(raw);
  const first = r.string('first_name');
  const last = r.string('last_name');
  const record: PmsPatient = {
    external_id: r.id('id'),
    first_name: first,
    last_name: last,
    preferred_first_name: r.string('preferred_first_name'),
    full_name: joinName(first, last),
    dob: r.date('date_of_birth'),
    email: r.string('email'),
    phone_numbers: r.phoneNumbers('patient_phone_numbers'),
    address_1: r.string('address_1'),
    address_2: r.string('address_2'),
    city: r.string('city'),
    state: r.string('state'),
    post_code: r.string('post_code'),
    country: r.string('country') ?? r.string('country_code'),
    time_zone: r.string('time_zone'),
    latitude: r.coordinate('latitude', -90, 90),
    longitude: r.coordinate('longitude', -180, 180),
    archived_at: r.timestamp('archived_at'),
    deleted: r.timestamp('deleted_at') !== null,
    updated_at: r.requiredTimestamp('updated_at'),
  };
  return finish('patients', r, record);
}

export function normaliseAppointment(raw: unknown): Normalised<PmsAppointment> {
  const r = new FieldReader<ClinikoIndividualAppointment>(raw);
  const record: PmsAppointment = {
    external_id: r.id('id'),
    starts_at: r.requiredTimestamp('starts_at'),
    ends_at: r.requiredTimestamp('ends_at'),
    patient_id: r.linkedId('patient', 'patients', false),
    patient_name: r.string('patient_name'),
    practitioner_id: r.linkedId('practitioner', 'practitioners', true) ?? '',
    appointment_type_id: r.linkedId('appointment_type', 'appointment_types', true) ?? '',
    business_id: r.linkedId('business', 'businesses', false),
    notes: r.string('notes'),
    cancelled_at: r.timestamp('cancelled_at'),
    cancellation_reason: r.string('cancellation_reason_description'),
    archived_at: r.timestamp('archived_at'),
    deleted: r.timestamp('deleted_at') !== null,
    did_not_arrive: r.boolean('did_not_arrive', false),
    created_at: r.requiredTimestamp('created_at'),
    updated_at: r.requiredTimestamp('updated_at'),
  };
  if (record.starts_at && record.ends_at && record.ends_at < record.starts_at) {
    r.problems.push('ends_at: is before starts_at');
  }
  return finish('individual_appointments', r, record);
}

export function normaliseUnavailableBlock(raw: unknown): Normalised<PmsUnavailableBlock> {
  const r = new FieldReader<ClinikoUnavailableBlock>(raw);
  const record: PmsUnavailableBlock = {
    external_id: r.id('id'),
    practitioner_id: r.linkedId('practitioner', 'practitioners', true) ?? '',
    starts_at: r.requiredTimestamp('starts_at'),
    ends_at: r.requiredTimestamp('ends_at'),
    notes: r.string('notes'),
    updated_at: r.requiredTimestamp('updated_at'),
  };
  if (record.starts_at && record.ends_at && record.ends_at <= record.starts_at) {
    r.problems.push('ends_at: is not after starts_at');
  }
  return finish('unavailable_blocks', r, record);
}

export function normaliseUser(raw: unknown): Normalised<{ user_id: string; user_name: string; email: string | null }> {
  const r = new FieldReader<ClinikoUser>(raw);
  const record = {
    user_id: r.id('id'),
    user_name: joinName(r.string('first_name'), r.string('last_name')),
    email: r.string('email'),
  };
  return finish('user', r, record);
}
