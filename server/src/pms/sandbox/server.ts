import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSandboxDataset, isoAt, type SandboxAppointment, type SandboxDataset, type SandboxDatasetOptions } from './dataset';
import { SANDBOX_DEMO_API_KEY } from './demo-key';
import { corrupt, FaultInjector, FaultsInputError, type SandboxFaults } from './faults';
import { applyFilters, parseFilters, SandboxQueryError, type FilterSchema } from './query';
import {
  serialiseAppointment,
  serialiseAppointmentType,
  serialiseBusiness,
  serialisePatient,
  serialisePractitioner,
  serialiseUnavailableBlock,
  serialiseUser,
} from './serialise';

export { SANDBOX_DEMO_API_KEY };

export interface SandboxOptions extends SandboxDatasetOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Keys accepted as the Basic user name. Default [SANDBOX_DEMO_API_KEY]. */
  apiKeys?: string[];
  /** Initial fault knobs (all off by default). */
  faults?: Partial<SandboxFaults>;
  /** Seed of the fault dice. Default 1. */
  faultSeed?: number;
  /** Serve this dataset instead of generating one (it is mutated in place by PATCH/cancel/archive). */
  dataset?: SandboxDataset;
}

export interface SandboxRequestLogEntry {
  method: string;
  /** Path and query as received. */
  url: string;
  status: number | 'dropped';
  userAgent: string | undefined;
  accept: string | undefined;
  at: number;
}

export interface SandboxHandle {
  /** API root to use as CLINIKO_BASE_URL, e.g. "http://127.0.0.1:8100/v1". */
  url: string;
  origin: string;
  port: number;
  /** The first accepted key. */
  apiKey: string;
  dataset: SandboxDataset;
  setFaults(update: Partial<SandboxFaults>): SandboxFaults;
  faults(): SandboxFaults;
  /** The most recent API requests (up to 10 000), oldest first. */
  requestLog: SandboxRequestLogEntry[];
  close(): Promise<void>;
}

const REQUEST_LOG_LIMIT = 10_000;
const MAX_BODY_BYTES = 1_000_000;
const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 100;

const SCHEMAS: Record<string, FilterSchema> = {
  businesses: { id: 'id', created_at: 'datetime', updated_at: 'datetime', archived_at: 'datetime' },
  practitioners: { id: 'id', active: 'boolean', created_at: 'datetime', updated_at: 'datetime' },
  appointment_types: { id: 'id', name: 'string', created_at: 'datetime', updated_at: 'datetime', archived_at: 'datetime' },
  patients: {
    id: 'id',
    first_name: 'string',
    last_name: 'string',
    preferred_first_name: 'string',
    email: 'string',
    date_of_birth: 'date',
    created_at: 'datetime',
    updated_at: 'datetime',
    archived_at: 'datetime',
  },
  individual_appointments: {
    id: 'id',
    appointment_type_id: 'id',
    business_id: 'id',
    patient_id: 'id',
    practitioner_id: 'id',
    starts_at: 'datetime',
    ends_at: 'datetime',
    created_at: 'datetime',
    updated_at: 'datetime',
    cancelled_at: 'datetime',
    archived_at: 'datetime',
    deleted_at: 'datetime',
    did_not_arrive: 'boolean',
  },
  unavailable_blocks: {
    id: 'id',
    business_id: 'id',
    practitioner_id: 'id',
    starts_at: 'datetime',
    ends_at: 'datetime',
    created_at: 'datetime',
    updated_at: 'datetime',
    archived_at: 'datetime',
    deleted_at: 'datetime',
  },
};

const HIDDEN_BY_DEFAULT: Record<string, string[]> = {
  businesses: ['archived_at'],
  practitioners: [],
  appointment_types: ['archived_at'],
  patients: ['archived_at', 'deleted_at'],
  individual_appointments: ['cancelled_at', 'archived_at', 'deleted_at'],
  unavailable_blocks: ['archived_at', 'deleted_at'],
};

const CANCELLATION_REASONS: Record<number, string> = {
  10: 'Feeling Better',
  20: 'Condition Worse',
  30: 'Sick',
  40: 'Away',
  50: 'Other',
  60: 'Work',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? status));
  }
}

interface Resource<R extends { id: string; created_at: string }> {
  records: () => R[];
  serialise: (api: string, record: R) => object;
}

/**
 * Starts the Cliniko-compatible sandbox (see ../README.md for endpoints and knobs). Mutations live in
 * memory for the life of the server.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const dataset = options.dataset ?? createSandboxDataset(options);
  const apiKeys = new Set(options.apiKeys ?? [SANDBOX_DEMO_API_KEY]);
  if (apiKeys.size === 0) throw new Error('apiKeys: at least one key is required');
  const injector = new FaultInjector(options.faults, options.faultSeed ?? 1);
  const requestLog: SandboxRequestLogEntry[] = [];
  const clock = monotonicClock(dataset);
  // Like the dataset's ids: creation ms × 10^6 + a sequence. The clock is past every seeded created_at, so new ids
  // never meet a seeded one.
  let createdCount = 0;
  const newId = (createdAt: string) => (BigInt(Date.parse(createdAt)) * 1_000_000n + BigInt(++createdCount % 1_000_000)).toString();
  // Lists are served in Cliniko's default order, created_at ascending (ids ascend with it). Nothing changes
  // created_at, so sorting once keeps every page in that order.
  for (const list of [dataset.businesses, dataset.practitioners, dataset.appointmentTypes, dataset.patients, dataset.appointments, dataset.unavailableBlocks]) {
    (list as { id: string; created_at: string }[]).sort(byCreation);
  }

  const resources: Record<string, Resource<any>> = {
    businesses: { records: () => dataset.businesses, serialise: serialiseBusiness },
    appointment_types: { records: () => dataset.appointmentTypes, serialise: serialiseAppointmentType },
    patients: { records: () => dataset.patients, serialise: serialisePatient },
    individual_appointments: { records: () => dataset.appointments, serialise: serialiseAppointment },
    unavailable_blocks: { records: () => dataset.unavailableBlocks, serialise: serialiseUnavailableBlock },
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `sandbox error: ${(error as Error).message}` });
      else res.destroy();
    });
  });

  function log(req: IncomingMessage, status: number | 'dropped') {
    requestLog.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      status,
      userAgent: req.headers['user-agent'],
      accept: req.headers.accept,
      at: Date.now(),
    });
    if (requestLog.length > REQUEST_LOG_LIMIT) requestLog.splice(0, requestLog.length - REQUEST_LOG_LIMIT);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    if (url.pathname === '/__sandbox/faults') return handleFaults(req, res);
    if (!url.pathname.startsWith('/v1/')) return sendJson(res, 404, { message: 'Not found' });

    if (injector.connectionFault()) {
      log(req, 'dropped');
      req.socket.destroy();
      return;
    }
    const latency = injector.latencyMs();
    if (latency > 0) await sleep(latency);

    let status: number | 'dropped' = 200;
    try {
      const apiKey = authenticatedKey(req);
      const fault = injector.requestFault(apiKey);
      if (fault.kind === 'rate_limited') {
        throw new HttpError(429, { message: 'Too many requests', reset: fault.resetEpochSeconds });
      }
      if (fault.kind === 'error') throw new HttpError(fault.status, { message: 'Service unavailable (sandbox fault)' });
      const api = `http://${req.headers.host ?? 'sandbox.invalid'}/v1`;
      const result = await route(req, url, api);
      if ((req.method === 'POST' || req.method === 'PATCH') && result.status < 300) {
        // The write is committed; now the answer may be slow, lost, or an error.
        const delayMs = injector.commitThenDelayMs();
        if (delayMs > 0) await sleep(delayMs);
        const after = injector.afterCommitFault();
        if (after.kind === 'drop') {
          status = 'dropped';
          req.socket.destroy();
          return;
        }
        if (after.kind === 'error') throw new HttpError(after.status, { message: 'Internal server error (sandbox fault, after committing)' });
      }
      status = result.status;
      if (result.body === undefined) {
        res.writeHead(status).end();
      } else {
        sendJson(res, status, result.body);
      }
    } catch (error) {
      if (!(error instanceof HttpError)) {
        status = 500;
        throw error;
      }
      status = error.status;
      if (status === 429) res.setHeader('X-RateLimit-Reset', String(error.body.reset));
      const { reset: _reset, ...body } = error.body;
      sendJson(res, status, body);
    } finally {
      log(req, status);
    }
  }

  function authenticatedKey(req: IncomingMessage): string {
    const header = req.headers.authorization ?? '';
    const match = /^Basic\s+(.+)$/i.exec(header);
    if (match) {
      const decoded = Buffer.from(match[1], 'base64').toString('utf8');
      const key = decoded.slice(0, decoded.includes(':') ? decoded.lastIndexOf(':') : undefined);
      if (apiKeys.has(key)) return key;
    }
    throw new HttpError(401, { message: 'Unauthorized. Use your API key as the Basic auth user name.' });
  }

  async function route(req: IncomingMessage, url: URL, api: string): Promise<{ status: number; body?: object }> {
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/\/+$/, '').slice('/v1'.length);
    const parts = path.split('/').filter(Boolean);

    if (method === 'GET' && path === '/user') return { status: 200, body: serialiseUser(api, dataset.user) };

    if (parts[0] === 'practitioners' && method === 'GET' && (parts.length === 1 || (parts.length === 2 && parts[1] === 'inactive'))) {
      const active = parts.length === 1;
      const practitioners = dataset.practitioners.filter((p) => p.active === active);
      return list(url, api, 'practitioners', practitioners, serialisePractitioner);
    }
    if (parts[0] === 'practitioners' && method === 'GET' && parts.length === 3 && parts[2] === 'appointment_types') {
      // The appointment types the practitioner delivers (Cliniko's ListAppointmentTypesForPractitioner), paged and
      // filtered as /appointment_types is.
      const practitioner = findById(dataset.practitioners, parts[1]);
      const delivered = new Set(practitioner.appointment_type_ids);
      const types = dataset.appointmentTypes.filter((type) => delivered.has(type.id));
      return list(url, api, 'appointment_types', types, serialiseAppointmentType);
    }
    if (parts[0] === 'practitioners' && method === 'GET' && parts.length === 2) {
      const practitioner = findById(dataset.practitioners, parts[1]);
      return { status: 200, body: maybeCorrupt(serialisePractitioner(api, practitioner)) };
    }

    const resource = Object.hasOwn(resources, parts[0]) ? resources[parts[0]] : undefined;
    if (!resource) throw new HttpError(404, { message: 'Not found' });

    if (parts.length === 1 && method === 'GET') return list(url, api, parts[0], resource.records(), resource.serialise);

    if (parts.length === 2 && method === 'GET') {
      const record = findVisible(parts[0], resource.records(), parts[1], url);
      return { status: 200, body: maybeCorrupt(resource.serialise(api, record)) };
    }

    if (parts[0] === 'individual_appointments') {
      if (parts.length === 1 && method === 'POST') {
        const appointment = createAppointment(await readJson(req));
        return { status: 201, body: serialiseAppointment(api, appointment) };
      }
      if (parts.length === 3 && parts[2] === 'conflicts' && method === 'GET') {
        const appointment = findVisible(parts[0], dataset.appointments, parts[1], url);
        return { status: 200, body: { conflicts: { exist: hasConflicts(appointment) } } };
      }
      if (parts.length === 2 && method === 'PATCH') {
        const appointment = findVisible(parts[0], dataset.appointments, parts[1], url);
        updateAppointment(appointment, await readJson(req));
        return { status: 200, body: serialiseAppointment(api, appointment) };
      }
      if (parts.length === 3 && parts[2] === 'cancel' && method === 'PATCH') {
        const appointment = findVisible(parts[0], dataset.appointments, parts[1], url);
        cancelAppointment(appointment, await readJson(req));
        return { status: 204 };
      }
      if (parts.length === 3 && parts[2] === 'archive' && method === 'POST') {
        const appointment = findVisible(parts[0], dataset.appointments, parts[1], url);
        appointment.archived_at = clock();
        appointment.updated_at = appointment.archived_at;
        return { status: 204 };
      }
    }
    throw new HttpError(404, { message: 'Not found' });
  }

  function list<R extends { id: string; created_at: string }>(
    url: URL,
    api: string,
    name: string,
    records: readonly R[],
    serialise: (api: string, record: R) => object,
  ): { status: number; body: object } {
    const perPage = readPositiveInt(url, 'per_page', DEFAULT_PER_PAGE);
    const page = readPositiveInt(url, 'page', 1);
    let filtered: R[];
    try {
      filtered = applyFilters(records, parseFilters(url.searchParams.getAll('q[]'), SCHEMAS[name]), HIDDEN_BY_DEFAULT[name]);
    } catch (error) {
      if (error instanceof SandboxQueryError) throw new HttpError(400, { message: error.message });
      throw error;
    }
    const size = Math.min(perPage, MAX_PER_PAGE);
    const items = filtered.slice((page - 1) * size, page * size).map((record) => maybeCorrupt(serialise(api, record)));
    const pageUrl = (n: number) => {
      const copy = new URL(`${api}/${url.pathname.split('/').slice(2).join('/')}${url.search}`);
      copy.searchParams.set('page', String(n));
      copy.searchParams.set('per_page', String(size));
      return copy.toString();
    };
    const links: Record<string, string> = { self: pageUrl(page) };
    if (page > 1) links.previous = pageUrl(page - 1);
    if (page * size < filtered.length) links.next = pageUrl(page + 1);
    return { status: 200, body: { [name]: items, total_entries: filtered.length, links } };
  }

  function maybeCorrupt(record: object): object {
    if (!injector.corruptRecord()) return record;
    return corrupt(record as Record<string, unknown>, injector.corruptionVariant(3));
  }

  /** Archived or deleted records are 404 unless the request asks for them (`q[]=archived_at:*`). */
  function findVisible<R extends { id: string }>(name: string, records: readonly R[], id: string, url: URL): R {
    const record = findById(records, id);
    let filters;
    try {
      filters = parseFilters(url.searchParams.getAll('q[]'), SCHEMAS[name]);
    } catch (error) {
      if (error instanceof SandboxQueryError) throw new HttpError(400, { message: error.message });
      throw error;
    }
    const hidden = HIDDEN_BY_DEFAULT[name].filter((field) => field !== 'cancelled_at');
    if (applyFilters([record], filters, hidden).length === 0) throw new HttpError(404, { message: 'Not found' });
    return record;
  }

  function updateAppointment(appointment: SandboxDataset['appointments'][number], body: Record<string, unknown>) {
    const errors: Record<string, string> = {};
    const supported = new Set(['starts_at', 'ends_at', 'notes', 'practitioner_id']);
    for (const key of Object.keys(body)) {
      if (!supported.has(key)) errors[key] = 'cannot be changed through the sandbox';
    }
    let startsAt = appointment.starts_at;
    if ('starts_at' in body) {
      const parsed = parseInstant(body.starts_at);
      if (parsed === null) errors.starts_at = 'is not a valid date-time';
      else startsAt = parsed;
    }
    let endsAt = appointment.ends_at;
    if ('ends_at' in body) {
      if (body.ends_at === null) {
        const type = dataset.appointmentTypes.find((t) => t.id === appointment.appointment_type_id);
        endsAt = isoAt(Date.parse(startsAt) + (type?.duration_in_minutes ?? 60) * 60_000);
      } else {
        const parsed = parseInstant(body.ends_at);
        if (parsed === null) errors.ends_at = 'is not a valid date-time';
        else endsAt = parsed;
      }
    } else if ('starts_at' in body && !errors.starts_at) {
      // Moving only the start keeps the appointment's length, as Cliniko's calendar does.
      endsAt = isoAt(Date.parse(startsAt) + (Date.parse(appointment.ends_at) - Date.parse(appointment.starts_at)));
    }
    if (!errors.starts_at && !errors.ends_at && Date.parse(endsAt) <= Date.parse(startsAt)) {
      errors.ends_at = 'must be after starts at';
    }
    if ('notes' in body && body.notes !== null && typeof body.notes !== 'string') errors.notes = 'must be a string';
    let practitionerId = appointment.practitioner_id;
    if ('practitioner_id' in body) {
      const wanted = typeof body.practitioner_id === 'number' ? String(body.practitioner_id) : body.practitioner_id;
      const practitioner = typeof wanted === 'string' ? dataset.practitioners.find((p) => p.id === wanted) : undefined;
      if (!practitioner) errors.practitioner_id = 'does not exist';
      else if (!practitioner.active) errors.practitioner_id = 'is not active';
      else practitionerId = practitioner.id;
    }
    if (Object.keys(errors).length > 0) throw new HttpError(422, { message: 'Validation Failed', errors });
    appointment.starts_at = startsAt;
    appointment.ends_at = endsAt;
    appointment.practitioner_id = practitionerId;
    if ('notes' in body) appointment.notes = (body.notes as string | null) ?? null;
    appointment.updated_at = clock();
  }

  /** Cliniko's create: the four ids must name bookable records; a null or absent ends_at takes the type's duration. */
  function createAppointment(body: Record<string, unknown>): SandboxAppointment {
    const errors: Record<string, string> = {};
    const supported = new Set(['practitioner_id', 'appointment_type_id', 'patient_id', 'business_id', 'starts_at', 'ends_at', 'notes']);
    for (const key of Object.keys(body)) {
      if (!supported.has(key)) errors[key] = 'is not supported by the sandbox';
    }
    const pick = <R extends { id: string }>(field: string, records: readonly R[], bookable: (record: R) => string | null): R | undefined => {
      const value = typeof body[field] === 'number' ? String(body[field]) : body[field];
      if (value === undefined || value === null || value === '') {
        errors[field] = "can't be blank";
        return undefined;
      }
      const record = typeof value === 'string' ? records.find((r) => r.id === value) : undefined;
      const problem = record ? bookable(record) : 'does not exist';
      if (problem !== null) errors[field] = problem;
      return problem === null ? record : undefined;
    };
    const practitioner = pick('practitioner_id', dataset.practitioners, (p) => (p.active ? null : 'is not active'));
    const type = pick('appointment_type_id', dataset.appointmentTypes, (t) => (t.archived_at ? 'is archived' : null));
    const patient = pick('patient_id', dataset.patients, (p) => (p.deleted_at ? 'does not exist' : p.archived_at ? 'is archived' : null));
    const business = pick('business_id', dataset.businesses, (b) => (b.archived_at ? 'does not exist' : null));

    const startsAt = parseInstant(body.starts_at);
    if (body.starts_at === undefined || body.starts_at === null) errors.starts_at = "can't be blank";
    else if (startsAt === null) errors.starts_at = 'is not a valid date-time';
    let endsAt: string | null = null;
    if (body.ends_at === undefined || body.ends_at === null) {
      if (startsAt !== null && type) endsAt = isoAt(Date.parse(startsAt) + type.duration_in_minutes * 60_000);
    } else {
      endsAt = parseInstant(body.ends_at);
      if (endsAt === null) errors.ends_at = 'is not a valid date-time';
      else if (startsAt !== null && Date.parse(endsAt) <= Date.parse(startsAt)) errors.ends_at = 'must be after starts at';
    }
    if ('notes' in body && body.notes !== null && typeof body.notes !== 'string') errors.notes = 'must be a string';
    if (Object.keys(errors).length > 0 || !practitioner || !type || !patient || !business || startsAt === null || endsAt === null) {
      throw new HttpError(422, { message: 'Validation Failed', errors });
    }
    const now = clock();
    const appointment: SandboxAppointment = {
      id: newId(now),
      starts_at: startsAt,
      ends_at: endsAt,
      patient_id: patient.id,
      practitioner_id: practitioner.id,
      appointment_type_id: type.id,
      business_id: business.id,
      patient_name: `${patient.first_name} ${patient.last_name}`,
      notes: typeof body.notes === 'string' ? body.notes : null,
      cancelled_at: null,
      cancellation_reason: null,
      cancellation_reason_description: null,
      cancellation_note: null,
      archived_at: null,
      deleted_at: null,
      did_not_arrive: false,
      created_at: now,
      updated_at: now,
    };
    // The clock only moves forward, so appending keeps the list in created_at order.
    dataset.appointments.push(appointment);
    return appointment;
  }

  /** Another booked (not cancelled, archived or deleted) appointment of the same practitioner overlaps it. */
  function hasConflicts(appointment: SandboxAppointment): boolean {
    const [start, end] = [Date.parse(appointment.starts_at), Date.parse(appointment.ends_at)];
    return dataset.appointments.some(
      (other) =>
        other.id !== appointment.id &&
        other.practitioner_id === appointment.practitioner_id &&
        other.cancelled_at === null &&
        other.archived_at === null &&
        other.deleted_at === null &&
        Date.parse(other.starts_at) < end &&
        Date.parse(other.ends_at) > start,
    );
  }

  function cancelAppointment(appointment: SandboxDataset['appointments'][number], body: Record<string, unknown>) {
    const reason = body.cancellation_reason;
    if (typeof reason !== 'number' || !(reason in CANCELLATION_REASONS)) {
      throw new HttpError(422, {
        message: 'Validation Failed',
        errors: { cancellation_reason: `must be one of ${Object.keys(CANCELLATION_REASONS).join(', ')}` },
      });
    }
    const note = body.cancellation_note;
    if (note !== undefined && note !== null && typeof note !== 'string') {
      throw new HttpError(422, { message: 'Validation Failed', errors: { cancellation_note: 'must be a string' } });
    }
    if (appointment.cancelled_at !== null) {
      throw new HttpError(422, { message: 'Validation Failed', errors: { base: 'Appointment is already cancelled' } });
    }
    appointment.cancelled_at = clock();
    appointment.updated_at = appointment.cancelled_at;
    appointment.cancellation_reason = reason;
    appointment.cancellation_reason_description = CANCELLATION_REASONS[reason];
    appointment.cancellation_note = typeof body.cancellation_note === 'string' ? body.cancellation_note : null;
  }

  async function handleFaults(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET') return sendJson(res, 200, injector.current());
    if (req.method !== 'POST') return sendJson(res, 405, { message: 'Use GET or POST' });
    try {
      return sendJson(res, 200, injector.set((await readJson(req)) as Partial<SandboxFaults>));
    } catch (error) {
      if (error instanceof FaultsInputError) return sendJson(res, 422, { message: error.message, errors: error.errors });
      if (error instanceof HttpError) return sendJson(res, error.status, error.body);
      throw error;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;

  return {
    url: `${origin}/v1`,
    origin,
    port: address.port,
    apiKey: [...apiKeys][0],
    dataset,
    setFaults: (update) => injector.set(update),
    faults: () => injector.current(),
    requestLog,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Mutation timestamps never go backwards and always sort after every seeded timestamp. */
function monotonicClock(dataset: SandboxDataset): () => string {
  let last = 0;
  for (const list of [dataset.businesses, dataset.practitioners, dataset.appointmentTypes, dataset.patients, dataset.appointments, dataset.unavailableBlocks]) {
    for (const record of list) last = Math.max(last, Date.parse(record.updated_at));
  }
  return () => {
    last = Math.ceil(Math.max(Date.now(), last + 1000) / 1000) * 1000;
    return isoAt(last);
  };
}

function findById<R extends { id: string }>(records: readonly R[], id: string): R {
  const record = /^\d+$/.test(id) ? records.find((r) => r.id === id) : undefined;
  if (!record) throw new HttpError(404, { message: 'Not found' });
  return record;
}

function byCreation(a: { id: string; created_at: string }, b: { id: string; created_at: string }): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function readPositiveInt(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new HttpError(400, { message: `${name}: must be a positive integer` });
  return Number(raw);
}

function parseInstant(value: unknown): string | null {
  if (typeof value !== 'string' || !/T.*(Z|[+-]\d{2}:?\d{2})$/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? isoAt(ms) : null;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, { message: 'Request body too large' });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, { message: 'Request body is not valid JSON' });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, { message: 'Request body must be a JSON object' });
  return body as Record<string, unknown>;
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
