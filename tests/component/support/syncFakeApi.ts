// msw handlers for the sync calls (sync settings, reference lists, imports, exports, provider account),
// backed by a small in-memory state each test can shape.
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { afterEach, beforeEach } from 'vitest';
import type { components } from '../../../src/api/schema';
import { closeSyncModal } from '../../../src/app/syncModalStore';
import { api, server } from './fakeApi';
import { useFakeApi } from './harness';

type Schemas = components['schemas'];
type Job = Schemas['Import'] & Schemas['Export'];

export interface SyncFakeState {
  settings: Schemas['SyncSettings'];
  businessLocations: Schemas['BusinessLocation'][];
  practitioners: Schemas['Practitioner'][];
  appointmentTypes: Schemas['AppointmentType'][];
  /** Statuses each GET of a job answers in turn; the last one repeats. */
  pollStatuses: Schemas['JobStatus'][];
  /** What a completed import reports. */
  importResult: Schemas['ImportResult'];
  /** What POST /exports/preview answers. */
  exportPreview: Schemas['ExportPreview'];
  /** What POST /imports or /exports answers instead of creating a job. */
  createFailure: { status: number; body: JsonBodyType } | null;
  providerAccount: Schemas['ProviderAccount'] | null;
  created: Array<{ kind: 'import' | 'export'; body: Record<string, unknown> }>;
  polls: Array<{ kind: 'import' | 'export'; id: number; aborted: () => boolean }>;
  jobs: Map<string, Job>;
}

export const practitioner = (id: number, name: string, active = true): Schemas['Practitioner'] => ({ id, full_name: name, active });

export function freshSyncState(): SyncFakeState {
  return {
    settings: { enable_auto_import: false, enable_auto_export: false, ahead_days: 14, filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] } },
    businessLocations: [{ id: 1, name: 'Brisbane CBD' }, { id: 2, name: 'Southside' }],
    practitioners: [
      practitioner(7, 'Pat Nguyen'),
      practitioner(8, 'Jo Smith'),
      practitioner(9, 'Lee Brown'),
      practitioner(10, 'Kim Lee'),
      practitioner(11, 'Ari Diaz'),
      practitioner(12, 'Retired Person', false),
    ],
    appointmentTypes: [{ id: 1, name: 'Home visit', duration: 60 }, { id: 2, name: 'Review', duration: 30 }],
    pollStatuses: ['INPROGRESS', 'COMPLETE'],
    importResult: { appointments_created: 12, appointments_updated: 3, appointments_cancelled: 1, appointments_unchanged: 40 },
    exportPreview: { visits_to_change: 5, changed_routes: [] },
    createFailure: null,
    providerAccount: { id: 1, provider: 'cliniko', status: 'ACTIVE', api_key_last4: 'ab12', last_error: null, connected_at: '2026-01-01T00:00:00Z' },
    created: [],
    polls: [],
    jobs: new Map(),
  };
}

export const state: { current: SyncFakeState } = { current: freshSyncState() };

function jobWith(kind: 'import' | 'export', id: number, status: Schemas['JobStatus'], body: Record<string, unknown>): Job {
  const complete = status === 'COMPLETE';
  return {
    id,
    status,
    start_date: String(body.start_date),
    end_date: String(body.end_date),
    error_message: status === 'ERROR' ? 'The practice management system refused the API key.' : null,
    created_at: '2026-11-20T01:00:00Z',
    created_by_name: 'Alex Taylor',
    filters: {
      practitioner_ids: (body.practitioner_ids as number[]) ?? [],
      appointment_type_ids: (body.appointment_type_ids as number[]) ?? [],
      business_location_ids: (body.business_location_ids as number[]) ?? [],
    },
    result: complete
      ? kind === 'import'
        ? ({ ...state.current.importResult } as never)
        : ({ exported: 5, skipped_unchanged: 2, conflicts: [{ appointment_id: 4, external_id: '99', reason: 'changed in the PMS' }] } as never)
      : null,
  };
}

let nextId = 100;

export const syncHandlers = [
  http.get(api('/sync_settings'), () => HttpResponse.json({ sync_settings: state.current.settings })),
  http.put(api('/sync_settings'), async ({ request }) => {
    state.current.settings = (await request.json()) as Schemas['SyncSettings'];
    return HttpResponse.json({ sync_settings: state.current.settings });
  }),
  http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: state.current.businessLocations })),
  http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: state.current.practitioners })),
  http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: state.current.appointmentTypes })),
  http.post(api('/exports/preview'), () => HttpResponse.json({ preview: state.current.exportPreview })),
  ...(['import', 'export'] as const).flatMap((kind) => [
    http.post(api(`/${kind}s`), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      state.current.created.push({ kind, body });
      if (state.current.createFailure) return HttpResponse.json(state.current.createFailure.body, { status: state.current.createFailure.status });
      const job = jobWith(kind, nextId++, 'PENDING', body);
      state.current.jobs.set(`${kind}:${job.id}`, job);
      return HttpResponse.json({ [kind]: job }, { status: 201 });
    }),
    http.get(api(`/${kind}s/:id`), ({ params, request }) => {
      const id = Number(params.id);
      const job = state.current.jobs.get(`${kind}:${id}`);
      if (!job) return HttpResponse.json({ message: 'Not found.' }, { status: 404 });
      const pollsOfJob = state.current.polls.filter((poll) => poll.kind === kind && poll.id === id).length;
      state.current.polls.push({ kind, id, aborted: () => request.signal.aborted });
      const statuses = state.current.pollStatuses;
      const status = statuses[Math.min(pollsOfJob, statuses.length - 1)];
      const updated = jobWith(kind, id, status, { ...job.filters, start_date: job.start_date, end_date: job.end_date });
      state.current.jobs.set(`${kind}:${id}`, updated);
      return HttpResponse.json({ [kind]: updated });
    }),
  ]),
  ...(['import', 'export'] as const).flatMap((kind) => [
    http.get(api(`/${kind}s`), ({ request }) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const perPage = Number(url.searchParams.get('per_page') ?? 20);
      const all = [...state.current.jobs.entries()].filter(([key]) => key.startsWith(`${kind}:`)).map(([, job]) => job).reverse();
      return HttpResponse.json({ [`${kind}s`]: all.slice((page - 1) * perPage, page * perPage), meta: { page, per_page: perPage, total: all.length } });
    }),
    http.post(api(`/${kind}s/:id/cancel`), ({ params }) => {
      const job = state.current.jobs.get(`${kind}:${Number(params.id)}`);
      if (!job) return HttpResponse.json({ message: 'Not found.' }, { status: 404 });
      if (!['PENDING', 'INPROGRESS'].includes(job.status)) return HttpResponse.json({ message: `The ${kind} has already finished.` }, { status: 409 });
      const cancelled = { ...job, status: 'CANCELLED' as const };
      state.current.jobs.set(`${kind}:${job.id}`, cancelled);
      return HttpResponse.json({ [kind]: cancelled });
    }),
  ]),
  http.get(api('/provider_account/current'), () => HttpResponse.json({ provider_account: state.current.providerAccount })),
  http.post(api('/provider_account'), async ({ request }) => {
    const { api_key: key } = (await request.json()) as { api_key: string };
    if (!key.startsWith('good')) return HttpResponse.json({ message: 'Cliniko refused the API key.', code: 'VALIDATION_FAILED' }, { status: 422 });
    state.current.providerAccount = { id: 1, provider: 'cliniko', status: 'INITIALIZING', api_key_last4: key.slice(-4), last_error: null, connected_at: '2026-11-20T00:00:00Z' };
    return HttpResponse.json({ provider_account: state.current.providerAccount }, { status: 201 });
  }),
  http.delete(api('/provider_account'), () => {
    if (!state.current.providerAccount) return HttpResponse.json({ message: 'Not found.' }, { status: 404 });
    state.current.providerAccount = { ...state.current.providerAccount, status: 'DISCONNECTED', api_key_last4: null };
    return HttpResponse.json({ provider_account: state.current.providerAccount });
  }),
];

/** Call once per test file: the fake API with the sync calls added, a fresh fake state per test. */
export function useSyncFakeApi(): void {
  useFakeApi();
  beforeEach(() => {
    state.current = freshSyncState();
    server.use(...syncHandlers);
  });
  afterEach(() => closeSyncModal());
}

/** Puts finished and running jobs into the history. */
export function seedJobs(kind: 'import' | 'export', statuses: Schemas['JobStatus'][]): Job[] {
  return statuses.map((status) => {
    const job = jobWith(kind, nextId++, status, { start_date: '2026-11-20', end_date: '2026-11-27', practitioner_ids: [7, 8], appointment_type_ids: [], business_location_ids: [] });
    state.current.jobs.set(`${kind}:${job.id}`, job);
    return job;
  });
}
