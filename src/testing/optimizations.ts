// Optimisation runs, proposals and routes shaped like the contract's, for machine and view tests. The day is
// Wednesday 25 Nov 2026 in Brisbane (UTC+10), reassigning between Pat Nguyen (7: visits 1, 2 and 4) and Sam Lee (8:
// visits 3 and 5): Bert Smith's visit (2) moves earlier, Margaret Jones's (1) keeps its time (Keep this time), Dora
// Ellis's (4) moves to Sam, and Evan Fox's (5) has no map position so it cannot be placed. By the rule book, Bert's
// visit leaves the time outside his availability, Sam's kept overlap stays, and Dora's new time runs past Sam's hours.
import type { JobStatus } from '../api/jobs';
import type { Optimization, OptimizationProposal, Route } from '../api/optimizations';

export const RUN_DAY = '2026-11-25';
const ZONE = 'Australia/Brisbane';
const HOME = { kind: 'home' as const, id: null, name: '3 Park Road, Milton QLD 4064', lat: -27.4708, lng: 153.0052 };

/** Brisbane wall-clock time on the run's day as an instant. */
export const at = (hhmm: string) => new Date(`${RUN_DAY}T${hhmm}:00+10:00`).toISOString();

function stop(appointmentId: number, client: string, arrive: string, depart: string, travelMinutes: number, extra: Partial<OptimizationProposal['lanes'][number]['after']['stops'][number]> = {}) {
  return {
    appointment_id: appointmentId,
    client_name: client,
    arrive_at: at(arrive),
    reach_at: at(arrive),
    depart_at: at(depart),
    travel_seconds: travelMinutes * 60,
    travel_metres: travelMinutes * 700,
    waiting_seconds: 0,
    lateness_seconds: 0,
    outside_availability: false,
    kept: null,
    ...extra,
  };
}

const metrics = (travelMinutes: number) => ({
  travel_seconds: travelMinutes * 60, travel_metres: travelMinutes * 700, idle_seconds: 1_800, overtime_seconds: 0, outside_availability: 0,
});

export function makeProposal(overrides: Partial<OptimizationProposal> = {}): OptimizationProposal {
  return {
    date: RUN_DAY,
    time_zone: ZONE,
    mode: 'reassign',
    kpis: {
      before: { travel_seconds: 22_349, travel_metres: 185_061, idle_seconds: 36_229, outside_availability: 1, overtime_seconds: 0, working_spread_seconds: 11_400, unplaced: 0 },
      after: { travel_seconds: 16_943, travel_metres: 134_694, idle_seconds: 7_386, outside_availability: 0, overtime_seconds: 0, working_spread_seconds: 6_000, unplaced: 1 },
    },
    lanes: [
      {
        practitioner_id: 7,
        practitioner_name: 'Pat Nguyen',
        color: '#e6194b',
        start_place: HOME,
        end_place: HOME,
        shift_start: at('07:00'),
        shift_end: at('17:30'),
        before: {
          stops: [
            stop(1, 'Margaret Jones', '09:00', '10:00', 20, { kept: 'locked' }),
            stop(2, 'Bert Smith', '10:30', '11:00', 25, { outside_availability: true }),
            stop(4, 'Dora Ellis', '14:00', '14:45', 15),
          ],
          depart_at: at('08:40'), end_at: at('15:15'), return_leg: { travel_seconds: 1_800, travel_metres: 21_000 }, break: null, metrics: metrics(90),
        },
        after: {
          stops: [stop(2, 'Bert Smith', '08:30', '09:00', 10), stop(1, 'Margaret Jones', '09:00', '10:00', 0, { kept: 'locked' })],
          depart_at: at('08:20'), end_at: at('10:30'), return_leg: { travel_seconds: 900, travel_metres: 10_000 }, break: null, metrics: metrics(25),
        },
      },
      {
        practitioner_id: 8,
        practitioner_name: 'Sam Lee',
        color: '#4363d8',
        start_place: HOME,
        end_place: { kind: 'business_location', id: 1, name: 'Brisbane North', lat: -27.39, lng: 153.03 },
        shift_start: at('08:00'),
        shift_end: at('16:00'),
        before: {
          stops: [stop(3, 'Cora Diaz', '12:00', '13:00', 30)],
          depart_at: at('11:30'), end_at: at('13:30'), return_leg: null, break: null, metrics: metrics(60),
        },
        after: {
          stops: [stop(3, 'Cora Diaz', '12:00', '13:00', 30, { kept: 'started' }), stop(4, 'Dora Ellis', '15:05', '15:50', 10)],
          depart_at: at('11:30'), end_at: at('16:00'), return_leg: null, break: { start_at: at('13:30'), end_at: at('14:00'), after_appointment_id: 3 }, metrics: metrics(40),
        },
      },
    ],
    changes: [
      {
        appointment_id: 2, client_name: 'Bert Smith', old_arrive_at: at('10:30'), new_arrive_at: at('08:30'),
        old_practitioner_id: 7, new_practitioner_id: 7, old_practitioner_name: 'Pat Nguyen', new_practitioner_name: 'Pat Nguyen',
        old_practitioner_profession: 'Registered Nurse', new_practitioner_profession: 'Registered Nurse', agreed_start_at: at('10:30'), minutes_moved: -120,
        reasons: [{ kind: 'travel', message: "Saves 10 min of travel: travel on Pat Nguyen's day 50 → 40 min." }],
      },
      {
        appointment_id: 4, client_name: 'Dora Ellis', old_arrive_at: at('14:00'), new_arrive_at: at('15:05'),
        old_practitioner_id: 7, new_practitioner_id: 8, old_practitioner_name: 'Pat Nguyen', new_practitioner_name: 'Sam Lee',
        old_practitioner_profession: 'Registered Nurse', new_practitioner_profession: 'Enrolled Nurse', agreed_start_at: at('14:00'), minutes_moved: 65,
        reasons: [{ kind: 'leave', message: 'Pat Nguyen is on leave 13:00–17:00.' }, { kind: 'preferred-not-kept', message: 'Not with Pat Nguyen, whom Dora Ellis prefers: Pat Nguyen is on leave then.' }],
      },
    ],
    unplaced: [
      { appointment_id: 5, client_name: 'Evan Fox', practitioner_id: 8, reason: 'no-location', message: "The visit has no map position: correct the client's address." },
    ],
    checks: {
      counts: [
        { rule: 'practitioner-overlap', title: 'A practitioner in two places at once', hard: true, before: 1, after: 1 },
        { rule: 'client-overlap', title: 'Two visits of one client at once', hard: true, before: 0, after: 0 },
        { rule: 'double-handed', title: 'Two-carer visit not together', hard: true, before: 0, after: 0 },
        { rule: 'spacing', title: "Too close to the client's other visit", hard: true, before: 0, after: 0 },
        { rule: 'tolerance', title: 'Too far from the booked time', hard: true, before: 0, after: 0 },
        { rule: 'availability', title: "Outside the client's availability", hard: true, before: 1, after: 0 },
        { rule: 'working-hours', title: 'Outside working hours', hard: false, before: 0, after: 1 },
      ],
      before: [
        { rule: 'practitioner-overlap', hard: true, appointment_ids: [3, 5], message: 'Sam Lee has two visits at once: Cora Diaz 12:00–13:00 and Evan Fox 12:30–13:00.' },
        { rule: 'availability', hard: true, appointment_ids: [2], message: "Bert Smith's visit at 10:30 is outside their availability." },
      ],
      after: [
        { rule: 'practitioner-overlap', hard: true, appointment_ids: [3, 5], message: 'Sam Lee has two visits at once: Cora Diaz 12:00–13:00 and Evan Fox 12:30–13:00.' },
        { rule: 'working-hours', hard: false, appointment_ids: [4], message: "Dora Ellis 15:05–15:50 is outside Sam Lee's working hours (08:00–15:30)." },
      ],
    },
    search: { elapsed_ms: 5_005, iterations: 110_788, stopped_by: 'budget', travel: 'cached(haversine)', searches: 1 },
    ...overrides,
  };
}

export function makeRun(status: JobStatus = 'PENDING', overrides: Partial<Optimization> = {}): Optimization {
  return {
    id: 31,
    status,
    date: RUN_DAY,
    end_date: RUN_DAY,
    mode: 'reassign',
    practitioner_ids: [7, 8],
    progress: status === 'PENDING' ? null : { elapsed_ms: 3_400, best_travel_seconds: 16_943, fraction: 0.34 },
    proposal: status === 'COMPLETE' ? makeProposal() : null,
    days: status === 'COMPLETE' ? [makeProposal()] : null,
    error_message: status === 'ERROR' ? 'The optimiser stopped: out of memory.' : null,
    created_at: at('06:00'),
    created_by_name: 'Alex Taylor',
    started_at: status === 'PENDING' ? null : at('06:00'),
    finished_at: ['COMPLETE', 'ERROR', 'CANCELLED'].includes(status) ? at('06:01') : null,
    applied_at: null,
    applied_by_name: null,
    discarded_at: null,
    undone_at: null,
    undone_by_name: null,
    ...overrides,
  };
}

export function makeRoute(overrides: Partial<Route> = {}): Route {
  return {
    id: 61,
    practitioner_id: 7,
    practitioner_name: 'Pat Nguyen',
    color: '#e6194b',
    day: RUN_DAY,
    start_place: HOME,
    end_place: HOME,
    stops: [{ appointment_id: 2, arrive_at: at('08:30'), travel_seconds: 600, travel_metres: 7_000 }],
    return_leg: { travel_seconds: 900, travel_metres: 10_000 },
    metrics: { travel_seconds: 2_220, travel_metres: 25_900, idle_seconds: 900, overtime_seconds: 0, late_visits: 0 },
    optimization_id: 31,
    applied_by_name: 'Alex Taylor',
    applied_at: at('06:02'),
    stale_at: null,
    stale: overrides.stale_at != null,
    ...overrides,
  };
}
