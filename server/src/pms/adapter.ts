/**
 * The contract between Rounds and a practice-management system (PMS). Importers, exporters and the
 * provider-account service depend only on this file; Cliniko is the first implementation
 * (./cliniko/cliniko-adapter.ts) and the local sandbox speaks Cliniko's API.
 *
 * Conventions of every record below:
 * - External ids are strings exactly as the PMS sent them (Cliniko's are 19-digit; never convert to number).
 * - Timestamps are UTC ISO-8601 strings as produced by Date#toISOString ("2026-11-23T22:00:00.000Z").
 * - Dates of birth are "yyyy-MM-dd". Missing values are null, never undefined or "".
 * - Related records are referenced by external id (`patient_id`, …), taken from the PMS's link objects.
 *
 * Lists are async iterables of pages, fetched lazily one page per iteration step, so an importer can apply
 * each page in its own transaction and stop early (break) without fetching the rest. A record the adapter
 * cannot normalise does not abort the page: it is skipped and reported in `page.invalidRecords`
 * (the caller decides whether that fails the job or becomes a warning).
 */
export * from './errors';

export interface PmsBusiness {
  external_id: string;
  name: string;
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  state: string | null;
  post_code: string | null;
  country: string | null;
  /** IANA zone, e.g. "Australia/Brisbane". */
  time_zone: string | null;
  /** Coordinates when the PMS provides them (the sandbox does; real Cliniko does not). */
  latitude: number | null;
  longitude: number | null;
  archived_at: string | null;
  updated_at: string;
}

export interface PmsPractitioner {
  external_id: string;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  /** "Dr Jane Citizen" style name for display. */
  full_name: string;
  /** Profession, e.g. "Registered Nurse" (Cliniko's `designation`). */
  designation: string | null;
  active: boolean;
  updated_at: string;
}

export interface PmsAppointmentType {
  external_id: string;
  name: string;
  duration_in_minutes: number;
  category: string | null;
  color: string | null;
  archived_at: string | null;
  updated_at: string;
}

export interface PmsPhoneNumber {
  number: string;
  /** "Mobile", "Home", "Work", "Fax", "Other" or null. */
  type: string | null;
}

export interface PmsPatient {
  external_id: string;
  first_name: string | null;
  last_name: string | null;
  preferred_first_name: string | null;
  full_name: string;
  /** yyyy-MM-dd */
  dob: string | null;
  email: string | null;
  phone_numbers: PmsPhoneNumber[];
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  state: string | null;
  post_code: string | null;
  country: string | null;
  /** IANA zone when the PMS records one. */
  time_zone: string | null;
  /**
   * Coordinates when the PMS provides them. Real Cliniko patients have no coordinates (geocode the
   * address instead); the sandbox adds documented `latitude`/`longitude` extras.
   */
  latitude: number | null;
  longitude: number | null;
  archived_at: string | null;
  deleted: boolean;
  updated_at: string;
}

export interface PmsAppointment {
  external_id: string;
  starts_at: string;
  ends_at: string;
  patient_id: string | null;
  patient_name: string | null;
  practitioner_id: string;
  appointment_type_id: string;
  business_id: string | null;
  notes: string | null;
  cancelled_at: string | null;
  cancellation_reason: string | null;
  archived_at: string | null;
  /** True when the PMS reports the appointment deleted (Cliniko: `deleted_at` set). */
  deleted: boolean;
  did_not_arrive: boolean;
  created_at: string;
  updated_at: string;
}

/** Time a practitioner is unavailable (Cliniko's unavailable block: leave, an afternoon off, a course). */
export interface PmsUnavailableBlock {
  external_id: string;
  practitioner_id: string;
  starts_at: string;
  ends_at: string;
  notes: string | null;
  updated_at: string;
}

export interface ListUnavailableBlocksOptions extends PmsCallOptions {
  /** Blocks ending after this instant (UTC ISO, exclusive)… */
  from: string;
  /** …and starting before this one (UTC ISO, exclusive): those overlapping [from, to). */
  to: string;
  /** Empty or absent means all. */
  practitionerIds?: string[];
}

export interface PmsInvalidRecord {
  /** Which list the record came from, e.g. "individual_appointments". */
  resource: string;
  /** The record's id when it had a usable one. */
  external_id: string | null;
  /** One message per problem, each naming the field, e.g. "starts_at: not an ISO-8601 date-time". */
  problems: string[];
}

export interface PmsPage<T> {
  records: T[];
  invalidRecords: PmsInvalidRecord[];
  /** 1-based. */
  pageNumber: number;
  /** Total matching records across all pages, when the PMS reports it. */
  totalEntries: number | null;
}

export type PmsPages<T> = AsyncIterable<PmsPage<T>>;

export interface PmsCallOptions {
  /** Aborts the call (and any waits for rate limits or retries) when signalled. */
  signal?: AbortSignal;
}

export interface ListPatientsOptions extends PmsCallOptions {
  /** Only patients updated strictly after this instant (UTC ISO) — for incremental runs. */
  updatedSince?: string;
  /** Only these patients (the adapter batches long lists into several requests; [] yields no pages). */
  ids?: string[];
  /** Also list archived patients. Default false. */
  includeArchived?: boolean;
}

export interface ListAppointmentsOptions extends PmsCallOptions {
  /** Appointments starting at or after this instant (UTC ISO, inclusive). */
  from: string;
  /** Appointments starting before this instant (UTC ISO, exclusive). */
  to: string;
  /** Only appointments updated strictly after this instant (UTC ISO). */
  updatedSince?: string;
  /** Empty or absent means all. */
  practitionerIds?: string[];
  appointmentTypeIds?: string[];
  businessIds?: string[];
  /**
   * Also return cancelled, archived and deleted appointments (which PMSs hide by default) so that an
   * importer can cancel its local copies. Importers should pass true.
   */
  includeCancelledAndArchived: boolean;
}

export interface UpdateAppointmentTimesInput {
  starts_at: string;
  ends_at: string;
  /** The practitioner (external id) the appointment moves to; absent = it keeps its practitioner. */
  practitioner_id?: string;
  /**
   * When given, the adapter first reads the appointment and throws PmsConflictError if its updated_at
   * differs (it changed in the PMS since the caller imported it). The PMS has no conditional write, so a
   * change landing between that read and the write is not detected.
   */
  expectedUpdatedAt?: string;
}

export interface CreateAppointmentInput {
  /** External ids. */
  practitioner_id: string;
  appointment_type_id: string;
  patient_id: string;
  business_id: string;
  /** UTC instants (ISO with a zone); milliseconds are dropped. */
  starts_at: string;
  ends_at: string;
  /** Shown in the PMS's appointment; the caller puts its own reference here to find the appointment again. */
  notes: string | null;
}

/** Cliniko's cancellation reasons (IndividualAppointmentCancel.cancellation_reason). */
export type CancellationReasonCode = 10 | 20 | 30 | 40 | 50 | 60;

/** Every cancellation reason with Cliniko's label, in Cliniko's order. */
export const CANCELLATION_REASONS: { code: CancellationReasonCode; label: string }[] = [
  { code: 10, label: 'Feeling better' },
  { code: 20, label: 'Condition worse' },
  { code: 30, label: 'Sick' },
  { code: 40, label: 'Away' },
  { code: 50, label: 'Other' },
  { code: 60, label: 'Work' },
];

export interface CancelAppointmentInput {
  cancellation_reason: CancellationReasonCode;
  cancellation_note: string | null;
}

export interface PmsConnectionInfo {
  /** The PMS user the key belongs to. */
  user_id: string;
  user_name: string;
  email: string | null;
}

export interface PmsAdapter {
  /** Which PMS this is, e.g. "cliniko". */
  readonly system: string;
  /**
   * Whether its records' coordinates are synthetic (the local sandbox's made-up Brisbane streets). Only then may the
   * sandbox's street list place its clients' addresses; a real system's clients are never placed on it.
   */
  readonly syntheticCoordinates: boolean;
  /** Verifies the key by reading the key's user. Throws PmsAuthError when refused. */
  checkConnection(options?: PmsCallOptions): Promise<PmsConnectionInfo>;
  /** Business locations (archived ones excluded). */
  listBusinesses(options?: PmsCallOptions): PmsPages<PmsBusiness>;
  /** Active and inactive practitioners (`active` tells which). */
  listPractitioners(options?: PmsCallOptions): PmsPages<PmsPractitioner>;
  /** Appointment types (archived ones excluded). */
  listAppointmentTypes(options?: PmsCallOptions): PmsPages<PmsAppointmentType>;
  /** The appointment types a practitioner (external id) delivers, archived ones excluded. */
  listPractitionerAppointmentTypes(practitionerId: string, options?: PmsCallOptions): PmsPages<PmsAppointmentType>;
  listPatients(options?: ListPatientsOptions): PmsPages<PmsPatient>;
  listIndividualAppointments(options: ListAppointmentsOptions): PmsPages<PmsAppointment>;
  /** Practitioners' unavailable blocks overlapping a range (archived and deleted ones excluded). */
  listUnavailableBlocks(options: ListUnavailableBlocksOptions): PmsPages<PmsUnavailableBlock>;
  /** Throws PmsNotFoundError when missing, PmsMalformedRecordError when unreadable. */
  getIndividualAppointment(id: string, options?: PmsCallOptions): Promise<PmsAppointment>;
  /**
   * Writes new times (and, when `practitioner_id` is given, the practitioner) and returns the appointment as the PMS
   * now has it. 422 → PmsValidationError.
   * The write sets absolute values, so resending it is harmless: the adapter retries it on 5xx, timeouts and dropped
   * connections like a read. PmsUnavailableError after the last attempt means it may or may not have been applied
   * (read it back, or send it again).
   */
  updateAppointmentTimes(
    id: string,
    input: UpdateAppointmentTimesInput,
    options?: PmsCallOptions,
  ): Promise<PmsAppointment>;
  /**
   * POST /individual_appointments. Answers the created appointment (normalised like getIndividualAppointment).
   * 422 → PmsValidationError with the PMS's field errors. Sent at most once: a timeout, dropped connection or 5xx
   * → PmsUnclearWriteError (look it up before creating again); a 429 is waited out and resent (nothing was committed).
   */
  createIndividualAppointment(input: CreateAppointmentInput, options?: PmsCallOptions): Promise<PmsAppointment>;
  /**
   * PATCH /individual_appointments/{id}/cancel with one of CANCELLATION_REASONS and a note. Sent at most once, like a
   * create (an unclear answer → PmsUnclearWriteError: read the appointment to see whether it is cancelled). 422 (e.g.
   * already cancelled) → PmsValidationError; unknown, archived or deleted → PmsNotFoundError.
   */
  cancelIndividualAppointment(id: string, input: CancelAppointmentInput, options?: PmsCallOptions): Promise<void>;
  /** GET /individual_appointments/{id}/conflicts → whether the appointment overlaps another of the practitioner's. */
  appointmentHasConflicts(id: string, options?: PmsCallOptions): Promise<boolean>;
}

/** Drains a page iterable; for small reference lists (businesses, practitioners, appointment types). */
export async function collectPages<T>(pages: PmsPages<T>): Promise<{ records: T[]; invalidRecords: PmsInvalidRecord[] }> {
  const records: T[] = [];
  const invalidRecords: PmsInvalidRecord[] = [];
  for await (const page of pages) {
    records.push(...page.records);
    invalidRecords.push(...page.invalidRecords);
  }
  return { records, invalidRecords };
}
