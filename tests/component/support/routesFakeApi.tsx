// A fake of the routes API for the Optimise dialog, the day schedule's routes and the appointment modal's route
// controls: one day (Wed 25 Nov 2026, Brisbane) of visits, its routes, the optimisation settings and a run whose
// answers each test chooses. Shared by the component tests and the optimisation-run model test.
import { http, HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';
import type { Optimization, Route } from '../../../src/api/optimizations';
import type { components } from '../../../src/api/schema';
import { at, makeRoute, makeRun, RUN_DAY } from '../../../src/testing/optimizations';
import AppointmentsPage from '../../../src/features/schedule/AppointmentsPage';
import { findRoute } from '../../../src/router/routeTable';
import type { AppMachines } from '../../../src/app/services';
import type { Role } from '../../../src/api/types';
import { api } from './fakeApi';
import { appointmentListBody, dayIssuesBody, makeAppointment } from './fixtures';
import { renderWithServices } from './harness';

type Appointment = components['schemas']['Appointment'];
type Answer = (request: Request) => Response | Promise<Response>;

export const PAT = { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane', color: '#e6194b' };
export const SAM = { id: 8, full_name: 'Sam Lee', active: true, time_zone: 'Australia/Brisbane', color: '#4363d8' };
const JO = { id: 9, full_name: 'Jo Park', active: true, time_zone: 'Australia/Brisbane', color: '#3cb44b' };
const OLD = { id: 11, full_name: 'Old Staff', active: false, time_zone: 'Australia/Brisbane', color: '#808080' };
export const PRACTITIONERS = [JO, OLD, PAT, SAM];

const client = (id: number, full_name: string) => ({ id, full_name, time_zone: 'Australia/Brisbane', availability: [] });

/** The day: Pat has three visits (Dora's placed at her suburb only), Sam two (one without a map position); Jo's only visit is cancelled. */
export function dayVisits(): Appointment[] {
  return [
    makeAppointment({ id: 1, starts_at: at('09:00'), ends_at: at('10:00'), arrive_at: at('09:00'), practitioner: PAT, client: client(11, 'Margaret Jones'), lat: -27.46, lng: 152.99 }),
    makeAppointment({ id: 2, starts_at: at('10:30'), ends_at: at('11:00'), arrive_at: at('10:30'), practitioner: PAT, client: client(12, 'Bert Smith'), lat: -27.485, lng: 152.993 }),
    makeAppointment({ id: 3, starts_at: at('12:00'), ends_at: at('13:00'), arrive_at: at('12:00'), practitioner: SAM, client: client(13, 'Cora Diaz'), lat: -27.44, lng: 153.02 }),
    makeAppointment({ id: 4, starts_at: at('14:00'), ends_at: at('14:45'), arrive_at: at('14:00'), practitioner: PAT, client: client(14, 'Dora Ellis'), lat: -27.5, lng: 153.01, geo_precision: 'suburb', geo_source: 'gazetteer' }),
    makeAppointment({ id: 5, starts_at: at('15:00'), ends_at: at('15:30'), arrive_at: at('15:00'), practitioner: SAM, client: client(15, 'Evan Fox'), lat: null, lng: null, geo_precision: 'none', geo_source: null }),
    makeAppointment({ id: 6, starts_at: at('11:00'), ends_at: at('12:00'), arrive_at: at('11:00'), practitioner: JO, client: client(16, 'Fay Gale'), status: 'CANCELLED', cancelled_at: at('06:00') }),
  ];
}

export function makeSettings(allowReassignment = true): components['schemas']['OptimizationSettings'] {
  const weights = { travel_time: 1, distance: 0, continuity: 0.25, lateness: 0.5, overtime: 1 };
  return {
    availability_mode: 'hard', max_lateness_minutes: 30, overtime_minutes: 0, visit_buffer_minutes: 0, arrival_rounding_minutes: 5,
    preset: 'balanced', weights, search_seconds: 10, allow_reassignment: allowReassignment, fixed_before_minutes: 30, tolerance_minutes: 30, client_gap_minutes: 60, balance_workload: false, balance_weight: 10, move_price: 0.25,
    preset_weights: { shortest_travel: weights, balanced: weights, punctual: weights, continuity: weights }, updated_at: null,
    call_in_min_visits: 3, call_in_min_minutes: 180,
  };
}

export const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status });
export const runBody = (run: Optimization) => json({ optimization: run });
export const refusal = (status: number, message: string, errors?: string[]) => json({ message, ...(errors ? { errors } : {}) }, status);

export interface RoutesFake {
  visits: Appointment[];
  routes: Route[];
  /** GET /appointments/travel's answer for the day (no warnings unless a test sets some). */
  travel: components['schemas']['VisitTravel'][];
  /** And its practitioners' days (none unless a test sets some). */
  days: components['schemas']['PractitionerDayTravel'][];
  /** GET /schedule/issues's problems of the day (none unless a test sets some). */
  issues: components['schemas']['RuleIssue'][];
  /** PATCH /appointments/:id/move (default: moves the visit like the server, its length kept, off its route). */
  move: Answer;
  allowReassignment: boolean;
  versions: Record<number, unknown[]>;
  create: Answer;
  poll: Answer;
  cancel: Answer;
  apply: Answer;
  discard: Answer;
}

/** The fake's own move (a test replaces `fake.move` to answer otherwise). */
const freshMove: Answer = () => json({ message: 'unreachable' }, 500);

export function freshFake(): RoutesFake {
  return {
    visits: dayVisits(),
    routes: [],
    travel: [],
    days: [],
    issues: [],
    move: freshMove,
    allowReassignment: true,
    versions: {},
    create: () => runBody(makeRun('PENDING')),
    poll: () => runBody(makeRun('COMPLETE')),
    cancel: () => runBody(makeRun('CANCELLED')),
    apply: () => json({ optimization: makeRun('COMPLETE', { applied_at: at('06:05'), applied_by_name: 'Alex Taylor' }), routes: [makeRoute(), makeRoute({ id: 62, practitioner_id: 8, practitioner_name: 'Sam Lee' })] }),
    discard: () => runBody(makeRun('COMPLETE', { discarded_at: at('06:05') })),
  };
}

/** Serves the fake's current state; tests change `fake` (or its answers) as they go. */
export function serveRoutes(server: SetupServer, fake: RoutesFake): void {
  const visit = (id: unknown) => fake.visits.find((item) => String(item.id) === String(id));
  server.use(
    http.get(api('/practitioners/all'), () => json({ practitioners: PRACTITIONERS })),
    http.get(api('/appointment_types/all'), () => json({ appointment_types: [{ id: 3, name: 'Home visit', duration: 60, color: '#0284c7' }] })),
    http.get(api('/business_locations/all'), () => json({ business_locations: [] })),
    http.get(api('/appointments'), ({ request }) => json(appointmentListBody(fake.visits, new URL(request.url).searchParams))),
    // Before /appointments/:id, which would take "travel" for an id.
    http.get(api('/appointments/travel'), ({ request }) => json({ date: new URL(request.url).searchParams.get('date'), travel: 'haversine', appointments: fake.travel, practitioners: fake.days })),
    http.get(api('/schedule/issues'), ({ request }) => json(dayIssuesBody(new URL(request.url).searchParams.get('date')!, fake.issues))),
    http.patch(api('/appointments/:id/move'), async ({ params, request }) => {
      if (fake.move !== freshMove) return fake.move(request);
      const found = visit(params.id)!;
      const body = (await request.clone().json()) as { practitioner_id?: number; starts_at?: string };
      const length = Date.parse(found.ends_at) - Date.parse(found.starts_at);
      if (body.practitioner_id) found.practitioner = PRACTITIONERS.find((practitioner) => practitioner.id === body.practitioner_id)!;
      if (body.starts_at) {
        found.starts_at = new Date(body.starts_at).toISOString();
        found.ends_at = new Date(Date.parse(body.starts_at) + length).toISOString();
        found.arrive_at = found.starts_at;
      }
      found.route_id = null;
      return json({ appointment: found, warnings: [] });
    }),
    http.get(api('/appointments/:id'), ({ params }) => json({ appointment: visit(params.id) })),
    http.get(api('/appointments/:id/extra_details'), ({ params }) =>
      json({ resource_map: null, versions: fake.versions[Number(params.id)] ?? [], import_history: [], export_history: [] })),
    http.post(api('/appointments/:id/remove_from_route'), ({ params }) => {
      const found = visit(params.id)!;
      const routeId = found.route_id;
      found.route_id = null;
      fake.routes = fake.routes.map((route) => (route.id === routeId ? { ...route, stale: true, stale_at: at('06:30') } : route));
      return json({ appointment: found });
    }),
    http.put(api('/appointments/:id/arrival_lock'), async ({ params, request }) => {
      const found = visit(params.id)!;
      found.arrival_locked = ((await request.json()) as { locked: boolean }).locked;
      fake.versions[found.id] = [
        ...(fake.versions[found.id] ?? []),
        { created_at: at('06:40'), event: 'update', whodunnit: 'Alex Taylor', object_changes: {}, changes: [{ field: 'arrival_locked', label: 'Keep this time', kind: 'text', from: found.arrival_locked ? 'No' : 'Yes', to: found.arrival_locked ? 'Yes' : 'No' }] },
      ];
      return json({ appointment: found });
    }),
    http.get(api('/routes'), () => json({ routes: fake.routes })),
    http.delete(api('/routes/:id'), ({ params }) => {
      fake.routes = fake.routes.filter((route) => String(route.id) !== params.id);
      for (const item of fake.visits) if (String(item.route_id) === params.id) item.route_id = null;
      return new HttpResponse(null, { status: 204 });
    }),
    http.get(api('/optimization_settings'), () => json({ optimization_settings: makeSettings(fake.allowReassignment) })),
    http.post(api('/optimizations'), ({ request }) => fake.create(request)),
    http.get(api('/optimizations/:id'), ({ request }) => fake.poll(request)),
    http.post(api('/optimizations/:id/cancel'), ({ request }) => fake.cancel(request)),
    http.post(api('/optimizations/:id/apply'), ({ request }) => fake.apply(request)),
    http.post(api('/optimizations/:id/discard'), ({ request }) => fake.discard(request)),
  );
}

export const SCHEDULE_PATH = `/appointments?view=schedule&start=${RUN_DAY}&end=${RUN_DAY}`;

/** The appointments page on the run's day, as the day schedule. */
export function renderDaySchedule(options: { role?: Role; machines?: Partial<AppMachines> } = {}) {
  window.history.replaceState(null, '', SCHEDULE_PATH);
  return renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, options);
}
