import {
  CANCELLATION_REASONS,
  type CancelAppointmentInput,
  type CreateAppointmentInput,
  type ListAppointmentsOptions,
  type ListPatientsOptions,
  type ListUnavailableBlocksOptions,
  type PmsAdapter,
  type PmsAppointment,
  type PmsCallOptions,
  type PmsConnectionInfo,
  type PmsInvalidRecord,
  type PmsPage,
  type PmsPages,
  type PmsUnavailableBlock,
  type UpdateAppointmentTimesInput,
} from '../adapter';
import {
  PmsConflictError,
  PmsMalformedRecordError,
  PmsResponseError,
  PmsUnclearWriteError,
  PmsValidationError,
} from '../errors';
import { SANDBOX_DEMO_API_KEY } from '../sandbox';
import { resolveClinikoBaseUrl } from './base-url';
import { filter, idListFilter, utcFilterTime } from './filters';
import { ClinikoHttpClient, type ClinikoHttpEvent } from './http-client';
import {
  normaliseAppointment,
  normaliseAppointmentType,
  normaliseBusiness,
  normalisePatient,
  normalisePractitioner,
  normaliseUnavailableBlock,
  normaliseUser,
  type Normalised,
} from './normalise';
import { SlidingWindowRateLimiter, rateLimiterForKey } from './rate-limiter';

export interface ClinikoAdapterOptions {
  apiKey: string;
  /** Contact email for the User-Agent header ("Rounds (ops@example.com)"), which Cliniko requires. */
  contactEmail: string;
  appName?: string;
  /** API root override (CLINIKO_BASE_URL), e.g. the sandbox's "http://127.0.0.1:8100/v1". */
  baseUrl?: string | null;
  /** Client-side limit; Cliniko allows 200 per minute per user. */
  requestsPerMinute?: number;
  /** Length of the limiter's window (default 60 000 ms; tests shrink it). */
  rateLimitWindowMs?: number;
  /** A limiter to share; by default one is shared per API key within the process. */
  rateLimiter?: SlidingWindowRateLimiter;
  requestTimeoutMs?: number;
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  maxRateLimitWaits?: number;
  maxRateLimitWaitMs?: number;
  perPage?: number;
  onEvent?: (event: ClinikoHttpEvent) => void;
}

export const CLINIKO_DEFAULTS = {
  appName: 'Rounds',
  requestsPerMinute: 200,
  rateLimitWindowMs: 60_000,
  requestTimeoutMs: 30_000,
  maxAttempts: 5,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  maxRateLimitWaits: 10,
  maxRateLimitWaitMs: 120_000,
  perPage: 100,
} as const;

/** Ids per `id:=a,b,c` filter, keeping request URLs around 2 KB. */
const IDS_PER_REQUEST = 100;

interface ListEnvelope {
  total_entries?: number;
  links?: { next?: string };
  [resource: string]: unknown;
}

export function createClinikoAdapter(options: ClinikoAdapterOptions): PmsAdapter {
  return new ClinikoAdapter(options);
}

export class ClinikoAdapter implements PmsAdapter {
  readonly system = 'cliniko';
  readonly syntheticCoordinates: boolean;
  readonly baseUrl: string;
  private readonly http: ClinikoHttpClient;
  private readonly perPage: number;

  constructor(options: ClinikoAdapterOptions) {
    if (!options.apiKey || options.apiKey.trim() === '') throw new Error('apiKey: is required');
    if (!/^[^\s@()]+@[^\s@()]+\.[^\s@()]+$/.test(options.contactEmail ?? '')) {
      throw new Error(`contactEmail: must be an email address, got ${JSON.stringify(options.contactEmail)}`);
    }
    const settings = { ...CLINIKO_DEFAULTS, ...definedOnly(options) };
    if (!Number.isInteger(settings.perPage) || settings.perPage < 1 || settings.perPage > 100) {
      throw new Error(`perPage: must be an integer from 1 to 100, got ${settings.perPage}`);
    }
    this.baseUrl = resolveClinikoBaseUrl(options.apiKey, options.baseUrl);
    // Real Cliniko never issued the sandbox's public demo key: an adapter holding it talks to the sandbox.
    this.syntheticCoordinates = options.apiKey === SANDBOX_DEMO_API_KEY;
    this.perPage = settings.perPage;
    this.http = new ClinikoHttpClient({
      apiKey: options.apiKey.trim(),
      baseUrl: this.baseUrl,
      userAgent: `${settings.appName} (${options.contactEmail})`,
      rateLimiter:
        options.rateLimiter ??
        rateLimiterForKey(
          options.apiKey,
          settings.requestsPerMinute,
          // Our clock starts a request before it reaches the server; a little slack keeps the 201st request
          // of a burst from arriving just inside the server's window.
          settings.rateLimitWindowMs + Math.min(250, settings.rateLimitWindowMs / 10),
        ),
      requestTimeoutMs: settings.requestTimeoutMs,
      maxAttempts: settings.maxAttempts,
      backoffBaseMs: settings.backoffBaseMs,
      backoffMaxMs: settings.backoffMaxMs,
      maxRateLimitWaits: settings.maxRateLimitWaits,
      maxRateLimitWaitMs: settings.maxRateLimitWaitMs,
      onEvent: options.onEvent,
    });
  }

  async checkConnection(options: PmsCallOptions = {}): Promise<PmsConnectionInfo> {
    const body = await this.http.request('GET', '/user', { signal: options.signal });
    return expectRecord(normaliseUser(body), 'user');
  }

  listBusinesses(options: PmsCallOptions = {}) {
    return this.paginate('/businesses', 'businesses', [], normaliseBusiness, options.signal);
  }

  async *listPractitioners(options: PmsCallOptions = {}) {
    // Cliniko lists active and inactive practitioners on separate endpoints; pages are numbered across both.
    let pageOffset = 0;
    for (const [path, active] of [
      ['/practitioners', true],
      ['/practitioners/inactive', false],
    ] as const) {
      const pages = this.paginate(path, 'practitioners', [], (raw) => normalisePractitioner(raw, active), options.signal);
      let last = 0;
      for await (const page of pages) {
        last = page.pageNumber;
        yield { ...page, pageNumber: pageOffset + page.pageNumber, totalEntries: null };
      }
      pageOffset += last;
    }
  }

  listAppointmentTypes(options: PmsCallOptions = {}) {
    return this.paginate('/appointment_types', 'appointment_types', [], normaliseAppointmentType, options.signal);
  }

  listPractitionerAppointmentTypes(practitionerId: string, options: PmsCallOptions = {}) {
    return this.paginate(
      `/practitioners/${encodeId(practitionerId)}/appointment_types`, 'appointment_types', [], normaliseAppointmentType, options.signal,
    );
  }

  async *listPatients(options: ListPatientsOptions = {}) {
    const base: string[] = [];
    if (options.updatedSince) base.push(filter('updated_at', '>', utcFilterTime(options.updatedSince, 'updatedSince')));
    if (options.includeArchived) base.push(filter('archived_at', '*'));
    if (options.ids === undefined) {
      yield* this.paginate('/patients', 'patients', base, normalisePatient, options.signal);
      return;
    }
    let pageOffset = 0;
    for (let i = 0; i < options.ids.length; i += IDS_PER_REQUEST) {
      const chunk = options.ids.slice(i, i + IDS_PER_REQUEST);
      const filters = [...base, idListFilter('id', chunk)];
      let last = 0;
      for await (const page of this.paginate('/patients', 'patients', filters, normalisePatient, options.signal)) {
        last = page.pageNumber;
        yield { ...page, pageNumber: pageOffset + page.pageNumber, totalEntries: null };
      }
      pageOffset += last;
    }
  }

  listIndividualAppointments(options: ListAppointmentsOptions): PmsPages<PmsAppointment> {
    const from = utcFilterTime(options.from, 'from');
    const to = utcFilterTime(options.to, 'to');
    if (Date.parse(to) <= Date.parse(from)) throw new Error(`to: must be after from (${options.from} .. ${options.to})`);
    const filters = [filter('starts_at', '>=', from), filter('starts_at', '<', to)];
    if (options.updatedSince) {
      filters.push(filter('updated_at', '>', utcFilterTime(options.updatedSince, 'updatedSince')));
    }
    if (options.practitionerIds?.length) filters.push(idListFilter('practitioner_id', options.practitionerIds));
    if (options.appointmentTypeIds?.length) filters.push(idListFilter('appointment_type_id', options.appointmentTypeIds));
    if (options.businessIds?.length) filters.push(idListFilter('business_id', options.businessIds));
    if (options.includeCancelledAndArchived) {
      filters.push(filter('cancelled_at', '*'), filter('archived_at', '*'), filter('deleted_at', '*'));
    }
    return this.paginate('/individual_appointments', 'individual_appointments', filters, normaliseAppointment, options.signal);
  }

  listUnavailableBlocks(options: ListUnavailableBlocksOptions): PmsPages<PmsUnavailableBlock> {
    const from = utcFilterTime(options.from, 'from');
    const to = utcFilterTime(options.to, 'to');
    if (Date.parse(to) <= Date.parse(from)) throw new Error(`to: must be after from (${options.from} .. ${options.to})`);
    const filters = [filter('ends_at', '>', from), filter('starts_at', '<', to)];
    if (options.practitionerIds?.length) filters.push(idListFilter('practitioner_id', options.practitionerIds));
    return this.paginate('/unavailable_blocks', 'unavailable_blocks', filters, normaliseUnavailableBlock, options.signal);
  }

  async getIndividualAppointment(id: string, options: PmsCallOptions = {}): Promise<PmsAppointment> {
    // Without these filters Cliniko answers 404 for archived or deleted appointments; an exporter needs to
    // see them to report them instead of failing.
    const body = await this.http.request('GET', `/individual_appointments/${encodeId(id)}`, {
      query: { 'q[]': [filter('archived_at', '*'), filter('deleted_at', '*')] },
      signal: options.signal,
    });
    return expectRecord(normaliseAppointment(body), `individual appointment ${id}`);
  }

  async updateAppointmentTimes(
    id: string,
    input: UpdateAppointmentTimesInput,
    options: PmsCallOptions = {},
  ): Promise<PmsAppointment> {
    const startsAt = utcFilterTime(input.starts_at, 'starts_at');
    const endsAt = utcFilterTime(input.ends_at, 'ends_at');
    if (Date.parse(endsAt) <= Date.parse(startsAt)) {
      throw new PmsValidationError('ends_at must be after starts_at', { errors: { ends_at: 'must be after starts_at' } });
    }
    if (input.expectedUpdatedAt !== undefined) {
      const current = await this.getIndividualAppointment(id, options);
      if (Date.parse(current.updated_at) !== Date.parse(input.expectedUpdatedAt)) {
        throw new PmsConflictError(`individual appointment ${id} changed in Cliniko since it was imported`, {
          expectedUpdatedAt: input.expectedUpdatedAt,
          actualUpdatedAt: current.updated_at,
        });
      }
    }
    // Cliniko's PATCH takes practitioner_id (a string int64) beside the times. Absolute values: sending it twice
    // leaves the same appointment, so it is retried like a read.
    const body = await this.http.request('PATCH', `/individual_appointments/${encodeId(id)}`, {
      body: { starts_at: startsAt, ends_at: endsAt, ...(input.practitioner_id === undefined ? {} : { practitioner_id: input.practitioner_id }) },
      signal: options.signal,
      idempotent: true,
    });
    return expectRecord(normaliseAppointment(body), `individual appointment ${id}`);
  }

  async createIndividualAppointment(input: CreateAppointmentInput, options: PmsCallOptions = {}): Promise<PmsAppointment> {
    const startsAt = utcFilterTime(input.starts_at, 'starts_at');
    const endsAt = utcFilterTime(input.ends_at, 'ends_at');
    if (Date.parse(endsAt) <= Date.parse(startsAt)) {
      throw new PmsValidationError('ends_at must be after starts_at', { errors: { ends_at: 'must be after starts_at' } });
    }
    const body = {
      practitioner_id: encodeId(input.practitioner_id, 'practitioner_id'),
      appointment_type_id: encodeId(input.appointment_type_id, 'appointment_type_id'),
      patient_id: encodeId(input.patient_id, 'patient_id'),
      business_id: encodeId(input.business_id, 'business_id'),
      starts_at: startsAt,
      ends_at: endsAt,
      notes: input.notes,
    };
    const created = await this.http.request('POST', '/individual_appointments', { body, signal: options.signal }).catch((error: unknown) => {
      // A 2xx whose body is not JSON: Cliniko created it, but we cannot tell which it is.
      if (error instanceof PmsResponseError && error.status !== undefined && error.status < 300) {
        throw new PmsUnclearWriteError(`POST /individual_appointments: ${error.message}`, { reason: error.message, status: error.status });
      }
      throw error;
    });
    const result = normaliseAppointment(created);
    if (!result.ok) {
      const problems = result.invalid.problems.join('; ');
      throw new PmsUnclearWriteError(`POST /individual_appointments: Cliniko created the appointment but its answer is malformed (${problems})`, {
        reason: `malformed answer: ${problems}`,
      });
    }
    return result.record;
  }

  async cancelIndividualAppointment(id: string, input: CancelAppointmentInput, options: PmsCallOptions = {}): Promise<void> {
    if (!CANCELLATION_REASONS.some((reason) => reason.code === input.cancellation_reason)) {
      throw new Error(`cancellation_reason: must be one of ${CANCELLATION_REASONS.map((r) => r.code).join(', ')}, got ${JSON.stringify(input.cancellation_reason)}`);
    }
    await this.http.request('PATCH', `/individual_appointments/${encodeId(id)}/cancel`, {
      body: { cancellation_reason: input.cancellation_reason, cancellation_note: input.cancellation_note },
      signal: options.signal,
    });
  }

  async appointmentHasConflicts(id: string, options: PmsCallOptions = {}): Promise<boolean> {
    const body = (await this.http.request('GET', `/individual_appointments/${encodeId(id)}/conflicts`, { signal: options.signal })) as {
      conflicts?: { exist?: unknown };
    } | null;
    const exist = body?.conflicts?.exist;
    if (typeof exist !== 'boolean') {
      throw new PmsResponseError(`GET /individual_appointments/${id}/conflicts: response has no boolean "conflicts.exist"`);
    }
    return exist;
  }

  private async *paginate<T>(
    path: string,
    resource: string,
    filters: string[],
    normalise: (raw: unknown) => Normalised<T>,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<PmsPage<T>> {
    let url: string | null = this.http.url(path, {
      per_page: this.perPage,
      'q[]': filters.length > 0 ? filters : undefined,
    });
    let pageNumber = 0;
    while (url) {
      const body = (await this.http.request('GET', url, { signal })) as ListEnvelope | null;
      const items = body?.[resource];
      if (!Array.isArray(items)) throw new PmsResponseError(`GET ${url}: response has no "${resource}" array`);
      pageNumber += 1;
      const records: T[] = [];
      const invalidRecords: PmsInvalidRecord[] = [];
      for (const item of items) {
        const result = normalise(item);
        if (result.ok) records.push(result.record);
        else invalidRecords.push(result.invalid);
      }
      yield {
        records,
        invalidRecords,
        pageNumber,
        totalEntries: typeof body?.total_entries === 'number' ? body.total_entries : null,
      };
      const next: string | null = typeof body?.links?.next === 'string' ? body.links.next : null;
      if (next !== null && next === url) throw new PmsResponseError(`GET ${url}: links.next points to the same page`);
      url = next;
    }
  }
}

function expectRecord<T>(result: Normalised<T>, what: string): T {
  if (result.ok) return result.record;
  throw new PmsMalformedRecordError(`${what} from Cliniko is malformed: ${result.invalid.problems.join('; ')}`, {
    problems: result.invalid.problems,
  });
}

function encodeId(id: string, field = 'id'): string {
  if (!/^\d+$/.test(id)) throw new Error(`${field}: must be a string of digits, got ${JSON.stringify(id)}`);
  return id;
}

function definedOnly<T extends object>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}
