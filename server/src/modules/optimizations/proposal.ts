// The proposal a run stores as its result: the day as it is (before) and as the optimiser plans it (after), per
// practitioner and in totals, the list of changes, and the visits it could not place with the reason in words.
// Both sides are measured with the same travel matrix, so before → after compares like with like. Pure.
import { Temporal } from 'temporal-polyfill';
import type { Schemas } from '../../http/contract';
import type { Route, Solution, TimeWindow, TravelMatrix } from '../../optimizer';
import {
  checkPlan, countsByRule, currentArrival, type DayCheck, type DayIssue, type DayVisit, hardIssuesAdded, isDoubleHanded, type PlannedVisit, type RuleBook,
  instantOfSeconds, ruleIssueDto, secondsOf, startsOutside,
} from '../schedule';
import { type DayProblem, type OptimizationMode } from './problem';

// The proposal's shapes are the contract's (openapi/openapi.yaml), so what a run stores is what GET answers.
export type LaneStop = Schemas['ProposalStop'];
export type Lane = Schemas['ProposalLaneDay'];
export type LaneMetrics = Lane['metrics'];
export type ProposalLane = Schemas['ProposalLane'];
export type DayKpis = Schemas['DayKpis'];
export type UnplacedVisit = Schemas['UnplacedVisit'];
export type ProposalChange = Schemas['ProposalChange'];
export type Proposal = Schemas['OptimizationProposal'];
export type RuleChecks = NonNullable<Proposal['checks']>;
export type ChangeReason = Schemas['ChangeReason'];

/** Each visit of the run as it was when the proposal was made; apply refuses when any of it differs. */
export interface VisitFingerprint {
  appointment_id: number;
  updated_at: string;
  starts_at: string;
  ends_at: string;
  practitioner_id: number;
  arrive_at: string | null;
  cancelled_at: string | null;
  arrival_locked: boolean;
}

export const fingerprintOf = (visit: DayVisit & { cancelledAt?: Date | null }): VisitFingerprint => ({
  appointment_id: visit.id,
  updated_at: visit.updatedAt.toISOString(),
  starts_at: visit.startsAt.toISOString(),
  ends_at: visit.endsAt.toISOString(),
  practitioner_id: visit.practitionerId,
  arrive_at: visit.arriveAt?.toISOString() ?? null,
  cancelled_at: visit.cancelledAt?.toISOString() ?? null,
  arrival_locked: visit.arrivalLocked,
});

const round = (value: number) => Math.round(value * 1000) / 1000;

interface Context {
  day: DayProblem;
  matrix: TravelMatrix;
  instant: (seconds: number) => string;
  durationOf: (index: number) => number;
  /** The other half of each two-carer visit, by visit id (a pair keeps its practitioners and times in a run). */
  partners: Map<number, NonNullable<LaneStop['partner']>>;
}

/** The other half of each two-carer visit among `visits` (the rule book's pairing; the lowest id of several). */
function partnersAmong(visits: readonly DayVisit[]): Map<number, NonNullable<LaneStop['partner']>> {
  const partners = new Map<number, NonNullable<LaneStop['partner']>>();
  const booked = (visit: DayVisit) => ({ clientId: visit.clientId, booked: visit.startsAt.getTime(), practitionerId: visit.practitionerId });
  const together = new Map<string, DayVisit[]>();
  for (const visit of [...visits].sort((a, b) => a.id - b.id)) {
    const key = `${visit.clientId}|${visit.startsAt.getTime()}`;
    together.set(key, [...together.get(key) ?? [], visit]);
  }
  for (const group of together.values()) {
    for (const visit of group) {
      const partner = group.find((other) => other.id !== visit.id && isDoubleHanded(booked(visit), booked(other)));
      if (partner) partners.set(visit.id, { appointment_id: partner.id, practitioner_id: partner.practitionerId, practitioner_name: partner.practitionerName });
    }
  }
  return partners;
}

const emptyMetrics = (): LaneMetrics => ({ travel_seconds: 0, travel_metres: 0, idle_seconds: 0, overtime_seconds: 0, outside_availability: 0 });

function lateness(windows: TimeWindow[] | null, start: number): number {
  if (!windows || windows.length === 0 || !startsOutside(windows, start)) return 0;
  return Math.max(0, start - Math.max(...windows.map((window) => window.end)));
}

/** Today's order of a practitioner's visits, timed as they are, with legs from the same matrix as the proposal. */
function beforeLane(ctx: Context, practitionerIndex: number): Lane {
  const { day, matrix } = ctx;
  const n = day.visits.length;
  const shiftEnd = day.problem.practitioners[practitionerIndex].shift.end;
  const practitionerId = day.practitioners[practitionerIndex].practitionerId;
  const order = day.visits.map((visit, index) => ({ visit, index }))
    .filter(({ visit }) => visit.practitionerId === practitionerId)
    .sort((a, b) => currentArrival(a.visit).getTime() - currentArrival(b.visit).getTime() || a.visit.id - b.visit.id);
  if (order.length === 0) return { stops: [], depart_at: null, end_at: null, return_leg: null, break: null, metrics: emptyMetrics() };
  const leg = (from: number, to: number) => ({ time: matrix.durations[from * matrix.size + to], dist: matrix.distances[from * matrix.size + to] });
  const metrics = emptyMetrics();
  const stops: LaneStop[] = [];
  let previous = n + 2 * practitionerIndex;
  let previousDeparture = -Infinity;
  let departStart = 0;
  for (const { visit, index } of order) {
    const start = secondsOf(currentArrival(visit), day.dayStartMs);
    const travel = leg(previous, index);
    if (stops.length === 0) departStart = start - travel.time;
    else metrics.idle_seconds += Math.max(0, start - previousDeparture - travel.time);
    const departure = start + ctx.durationOf(index);
    const outside = startsOutside(day.windows[index], start);
    metrics.travel_seconds += travel.time;
    metrics.travel_metres += travel.dist;
    if (outside) metrics.outside_availability++;
    stops.push({
      appointment_id: visit.id, client_name: visit.clientName, arrive_at: ctx.instant(start), reach_at: ctx.instant(start),
      depart_at: ctx.instant(departure), travel_seconds: round(travel.time), travel_metres: round(travel.dist), waiting_seconds: 0,
      lateness_seconds: round(lateness(day.windows[index], start)), outside_availability: outside, kept: day.kept[index],
      partner: ctx.partners.get(visit.id) ?? null,
    });
    previous = index;
    previousDeparture = departure;
  }
  const back = leg(previous, n + 2 * practitionerIndex + 1);
  metrics.travel_seconds += back.time;
  metrics.travel_metres += back.dist;
  const end = previousDeparture + back.time;
  metrics.overtime_seconds = Math.max(0, end - shiftEnd);
  return {
    stops,
    depart_at: ctx.instant(departStart),
    end_at: ctx.instant(end),
    return_leg: { travel_seconds: round(back.time), travel_metres: round(back.dist) },
    break: null,
    metrics: roundMetrics(metrics),
  };
}

/** A practitioner's day kept as it is: today's lane, each visit marked as keeping its time. */
function keptLane(ctx: Context, practitionerIndex: number): Lane {
  const lane = beforeLane(ctx, practitionerIndex);
  const indexOf = new Map(ctx.day.visits.map((visit, index) => [visit.id, index]));
  return { ...lane, stops: lane.stops.map((stop) => ({ ...stop, kept: ctx.day.kept[indexOf.get(stop.appointment_id)!] ?? 'no-time-fits' })) };
}

function afterLane(ctx: Context, route: Route, visitIndex: Map<string, number>): Lane {
  const { day } = ctx;
  if (route.stops.length === 0) return { stops: [], depart_at: null, end_at: null, return_leg: null, break: null, metrics: emptyMetrics() };
  const metrics = emptyMetrics();
  const stops = route.stops.map((stop, k): LaneStop => {
    const index = visitIndex.get(stop.visitId)!;
    const visit = day.visits[index];
    const outside = startsOutside(day.windows[index], stop.start);
    if (outside) metrics.outside_availability++;
    if (k > 0) metrics.idle_seconds += Math.max(0, stop.start - route.stops[k - 1].departure - stop.travelTime);
    return {
      appointment_id: visit.id, client_name: visit.clientName, arrive_at: ctx.instant(stop.start), reach_at: ctx.instant(stop.arrival),
      depart_at: ctx.instant(stop.departure), travel_seconds: round(stop.travelTime), travel_metres: round(stop.travelDistance),
      waiting_seconds: round(stop.waiting), lateness_seconds: round(stop.lateness), outside_availability: outside, kept: day.kept[index],
      partner: ctx.partners.get(visit.id) ?? null,
    };
  });
  const brk = route.break;
  // A break between two visits is not idle time.
  if (brk && brk.afterVisitId !== null && brk.afterVisitId !== route.stops.at(-1)!.visitId) {
    metrics.idle_seconds = Math.max(0, metrics.idle_seconds - (brk.end - brk.start));
  }
  metrics.travel_seconds = route.travelTime;
  metrics.travel_metres = route.travelDistance;
  metrics.overtime_seconds = route.overtime;
  return {
    stops,
    depart_at: ctx.instant(route.departStart),
    end_at: ctx.instant(route.arriveEnd),
    return_leg: { travel_seconds: round(route.returnTravelTime), travel_metres: round(route.returnTravelDistance) },
    break: brk ? {
      start_at: ctx.instant(brk.start), end_at: ctx.instant(brk.end),
      after_appointment_id: brk.afterVisitId === null ? null : Number(brk.afterVisitId),
    } : null,
    metrics: roundMetrics(metrics),
  };
}

function roundMetrics(metrics: LaneMetrics): LaneMetrics {
  return {
    travel_seconds: round(metrics.travel_seconds), travel_metres: round(metrics.travel_metres), idle_seconds: round(metrics.idle_seconds),
    overtime_seconds: round(metrics.overtime_seconds), outside_availability: metrics.outside_availability,
  };
}

/**
 * The spread of working time: the longest less the shortest working day (leaving the start place to reaching the end
 * place) among the practitioners with visits, seconds; 0 with fewer than two.
 */
export function workingSpreadSeconds(lanes: Lane[]): number {
  const days = lanes.flatMap((lane) => workingSeconds(lane) ?? []);
  return days.length ? Math.round(Math.max(...days) - Math.min(...days)) : 0;
}

/** A practitioner's working time in a lane: leaving the start place to reaching the end place, seconds (null: no visits). */
export const workingSeconds = (lane: Lane): number | null =>
  (lane.stops.length && lane.depart_at && lane.end_at ? (Date.parse(lane.end_at) - Date.parse(lane.depart_at)) / 1000 : null);

function totals(lanes: Lane[], unplaced: number, awayFromUsual: number | undefined): DayKpis {
  const sum = (pick: (metrics: LaneMetrics) => number) => lanes.reduce((total, lane) => total + pick(lane.metrics), 0);
  return {
    travel_seconds: Math.round(sum((m) => m.travel_seconds)),
    travel_metres: Math.round(sum((m) => m.travel_metres)),
    idle_seconds: Math.round(sum((m) => m.idle_seconds)),
    outside_availability: sum((m) => m.outside_availability),
    overtime_seconds: Math.round(sum((m) => m.overtime_seconds)),
    working_spread_seconds: workingSpreadSeconds(lanes),
    unplaced,
    ...(awayFromUsual === undefined ? {} : { away_from_usual: awayFromUsual }),
  };
}

export interface ProposalInput {
  day: DayProblem;
  matrix: TravelMatrix;
  solution: Solution;
  date: string;
  timeZone: string;
  mode: OptimizationMode;
  travelName: string;
  appointmentTypeNames: Map<number, string>;
  /** Practitioners whose visits are in the run but who are not routed (on leave all day), by id: their names. */
  leftOutNames?: Map<number, string>;
  /** The day the plan is checked against (the run's loadDay reads it as Apply's check does). */
  check: DayCheck;
  /**
   * Practitioners whose day the proposal keeps exactly as it is, whatever the plan gives them (none of their visits
   * moves, none comes to them): what keeps a plan that would add a hard problem to the rules (proposalWithinTheRules).
   */
  keptDays?: ReadonlySet<number>;
  /** The search's seed and the iterations it was given (shown with the proposal, so it can be reproduced). */
  search?: { seed: number; maxIterations: number };
  /** Each practitioner's role or profession, by id (null: the PMS gives none). */
  professions?: ReadonlyMap<number, string | null>;
}

/** The leave of the visit's practitioner that overlaps its time as it is, if any. */
function leaveAt(staff: DayProblem['staff'], visit: DayVisit): { startsAt: Date; endsAt: Date } | undefined {
  const from = currentArrival(visit).getTime();
  const to = from + Math.max(0, visit.endsAt.getTime() - visit.startsAt.getTime());
  return staff.get(visit.practitionerId)?.leave.find((away) => away.startsAt.getTime() < to && away.endsAt.getTime() > from);
}

/** The "after" lane's figures with the visits not placed that stay on it at their times (day indexes `left`). */
function countedLane(ctx: Context, practitionerIndex: number, after: Lane, left: number[]): NonNullable<Lane['counted']> {
  const { day, matrix } = ctx;
  const n = day.visits.length;
  const seconds = (iso: string) => (Date.parse(iso) - day.dayStartMs) / 1000;
  const indexOf = new Map(day.visits.map((visit, index) => [visit.id, index]));
  const stops = [
    ...after.stops.map((stop) => ({ index: indexOf.get(stop.appointment_id)!, start: seconds(stop.arrive_at), end: seconds(stop.depart_at), outside: stop.outside_availability })),
    ...left.map((index) => {
      const start = secondsOf(currentArrival(day.visits[index]), day.dayStartMs);
      return { index, start, end: start + ctx.durationOf(index), outside: startsOutside(day.windows[index], start) };
    }),
  ].sort((a, b) => a.start - b.start || a.index - b.index);
  const leg = (from: number, to: number) => ({ time: matrix.durations[from * matrix.size + to], dist: matrix.distances[from * matrix.size + to] });
  const metrics = emptyMetrics();
  let previous = n + 2 * practitionerIndex;
  let previousEnd = -Infinity;
  for (const stop of stops) {
    const travel = leg(previous, stop.index);
    metrics.travel_seconds += travel.time;
    metrics.travel_metres += travel.dist;
    if (previousEnd > -Infinity) metrics.idle_seconds += Math.max(0, stop.start - previousEnd - travel.time);
    if (stop.outside) metrics.outside_availability++;
    previous = stop.index;
    previousEnd = Math.max(previousEnd, stop.end);
  }
  const back = leg(previous, n + 2 * practitionerIndex + 1);
  metrics.travel_seconds += back.time;
  metrics.travel_metres += back.dist;
  // A break between two visits is not idle time.
  if (after.break && after.break.after_appointment_id !== null) {
    metrics.idle_seconds = Math.max(0, metrics.idle_seconds - (seconds(after.break.end_at) - seconds(after.break.start_at)));
  }
  metrics.overtime_seconds = Math.max(0, previousEnd + back.time - day.problem.practitioners[practitionerIndex].shift.end);
  return { ...roundMetrics(metrics), unplaced: left.length };
}

/** How the figures count what is not placed, in words. */
function figuresNote(unplaced: number, counted: number): string {
  const them = unplaced === 1 ? 'The visit not placed stays' : `The ${unplaced} visits not placed stay`;
  const note = `${them} with ${unplaced === 1 ? 'its practitioner at its time' : 'their practitioners at their times'}, as Apply leaves `
    + `${unplaced === 1 ? 'it' : 'them'}: the figures after count ${unplaced === 1 ? 'its' : 'their'} travel and overtime on `
    + `${unplaced === 1 ? 'that lane' : 'those lanes'}, as before.`;
  return counted < unplaced ? `${note} Visits without a map position, or whose practitioner is not routed, are in neither.` : note;
}

const minutesOf = (seconds: number) => Math.round(seconds / 60);
const minutesText = (seconds: number) => `${minutesOf(seconds)} min`;

interface ChangeFacts {
  visit: DayVisit;
  newArrival: string;
  /** The lane the visit is planned on, and the one it is on now (undefined: its practitioner is not in the run). */
  to: ProposalLane;
  from: ProposalLane | undefined;
  names: ReadonlyMap<number, string>;
  staff: DayProblem['staff'];
  checks: RuleChecks;
  mode: OptimizationMode;
  /** The practitioner continuity weighs for the client (their usual one, or a preferred one), as the search had it. */
  usual: string | undefined;
  clock: (date: Date) => string;
}

/**
 * Why a visit changes, the main reason first: its practitioner's leave, a problem with the rules it fixes, a
 * practitioner the client prefers or sees usually, the travel (or overtime) its lanes save, the agreed time it comes
 * back to. A visit taken from a practitioner the client prefers says so, and why.
 */
export function reasonsOfChange(facts: ChangeFacts): ChangeReason[] {
  const { visit, to, from, names } = facts;
  const reasons: ChangeReason[] = [];
  const who = (id: number) => names.get(id) ?? 'its practitioner';
  const reassigned = visit.practitionerId !== to.practitioner_id;
  const leave = leaveAt(facts.staff, visit);
  if (leave) {
    reasons.push({ kind: 'leave', message: `${who(visit.practitionerId)} is on leave ${facts.clock(leave.startsAt)}–${facts.clock(leave.endsAt)}.` });
  }
  const fixed = facts.checks.before.filter((issue) => issue.appointment_ids.includes(visit.id)
    && !facts.checks.after.some((other) => other.rule === issue.rule && other.appointment_ids.includes(visit.id)));
  if (fixed.length) {
    reasons.push({ kind: 'rule-fixed', message: `Fixes: ${fixed[0].message}${fixed.length > 1 ? ` (and ${fixed.length - 1} more)` : ''}` });
  }
  const preferred = visit.preferredPractitionerIds ?? [];
  if (reassigned && preferred.includes(to.practitioner_id) && !preferred.includes(visit.practitionerId)) {
    reasons.push({ kind: 'preferred-practitioner', message: `${to.practitioner_name} is a practitioner ${visit.clientName ?? 'the client'} prefers.` });
  } else if (reassigned && facts.mode === 'reassign' && facts.usual !== undefined && Number(facts.usual) === to.practitioner_id) {
    reasons.push({ kind: 'continuity', message: `Back with ${to.practitioner_name}, who usually sees ${visit.clientName ?? 'the client'}.` });
  }
  // The lanes it leaves and joins: their travel and overtime before and after.
  const lanes = reassigned && from ? [from, to] : [to];
  const sum = (side: 'before' | 'after', pick: (metrics: LaneMetrics) => number) => lanes.reduce((total, lane) => total + pick(lane[side].metrics), 0);
  const [travelBefore, travelAfter] = [sum('before', (m) => m.travel_seconds), sum('after', (m) => m.travel_seconds)];
  const [overtimeBefore, overtimeAfter] = [sum('before', (m) => m.overtime_seconds), sum('after', (m) => m.overtime_seconds)];
  const whose = lanes.map((lane) => `${lane.practitioner_name}'s`).join(' and ');
  const travelSaved = minutesOf(travelBefore) - minutesOf(travelAfter);
  const overtimeSaved = minutesOf(overtimeBefore) - minutesOf(overtimeAfter);
  const travelWords = `travel on ${whose} ${lanes.length > 1 ? 'days' : 'day'} ${minutesText(travelBefore)} → ${minutesText(travelAfter)}`;
  if (travelSaved > 0 || overtimeSaved > 0) {
    const saved = [travelSaved > 0 ? `${travelSaved} min of travel` : null, overtimeSaved > 0 ? `${overtimeSaved} min of overtime` : null].filter(Boolean).join(' and ');
    reasons.push({ kind: 'travel', message: `Saves ${saved}: ${travelWords}${overtimeSaved > 0 ? `, overtime ${minutesText(overtimeBefore)} → ${minutesText(overtimeAfter)}` : ''}.` });
  }
  const agreed = visit.agreedStartsAt.getTime();
  const [offBefore, offAfter] = [Math.abs(currentArrival(visit).getTime() - agreed), Math.abs(Date.parse(facts.newArrival) - agreed)];
  if (minutesOf(offBefore / 1000) > minutesOf(offAfter / 1000)) {
    reasons.push({
      kind: 'agreed-time',
      message: `Closer to the time agreed with ${visit.clientName ?? 'the client'} (${facts.clock(visit.agreedStartsAt)}): ${minutesOf(offAfter / 1000)} min from it instead of ${minutesOf(offBefore / 1000)}.`,
    });
  }
  // Nothing it gains on its own: it makes room for another visit of its lanes that fixes a problem with the rules, or
  // it is part of its lanes' new order.
  const onLanes = new Set(lanes.flatMap((lane) => [...lane.before.stops, ...lane.after.stops].map((stop) => stop.appointment_id)));
  const fixedOnLanes = reasons.length === 0 ? facts.checks.before.find((issue) => issue.appointment_ids.some((id) => onLanes.has(id))
    && !facts.checks.after.some((other) => other.rule === issue.rule && other.appointment_ids.some((id) => issue.appointment_ids.includes(id)))) : undefined;
  if (fixedOnLanes) {
    reasons.push({ kind: 'rule-fixed', message: `Makes room on ${whose} ${lanes.length > 1 ? 'days' : 'day'} for a change that fixes: ${fixedOnLanes.message}` });
  } else if (reasons.length === 0) {
    reasons.push({ kind: 'lane-order', message: `Part of the new order of ${whose} ${lanes.length > 1 ? 'days' : 'day'}: ${travelWords}.` });
  }
  const leftPreferred = preferred.includes(visit.practitionerId) && !preferred.includes(to.practitioner_id);
  if (reassigned && leftPreferred) {
    const why = reasons[0].kind === 'leave' ? `${who(visit.practitionerId)} is on leave then`
      : reasons[0].kind === 'rule-fixed' && fixed.length ? `it fixes a problem with the rules (${fixed[0].message.replace(/\.$/, '')})`
        : reasons[0].message.replace(/\.$/, '').replace(/^./, (first) => first.toLowerCase());
    reasons.push({ kind: 'preferred-not-kept', message: `Not with ${who(visit.practitionerId)}, whom ${visit.clientName ?? 'the client'} prefers: ${why}.` });
  }
  return reasons;
}

export function buildProposal(input: ProposalInput): Proposal {
  const { day, solution, timeZone, mode } = input;
  const buffer = (index: number) => day.problem.visits[index].duration;
  const ctx: Context = {
    day, matrix: input.matrix, durationOf: buffer,
    partners: partnersAmong([...day.visits, ...day.excluded.map(({ visit }) => visit), ...day.others]),
    instant: (seconds) => instantOfSeconds(day.dayStartMs, seconds),
  };
  const visitIndex = new Map(day.problem.visits.map((visit, index) => [visit.id, index]));
  const keptDays = input.keptDays ?? new Set<number>();
  const routes = solution.routes.filter((route) => !keptDays.has(Number(route.practitionerId)));
  const routeOf = new Map(routes.map((route) => [route.practitionerId, route]));
  const names = new Map([...input.leftOutNames ?? [], ...day.practitioners.map((practitioner) => [practitioner.practitionerId, practitioner.name] as const)]);
  const lanes: ProposalLane[] = day.practitioners.map((practitioner, v) => {
    const planned = day.problem.practitioners[v];
    const route = routeOf.get(planned.id);
    return {
      practitioner_id: practitioner.practitionerId,
      practitioner_name: practitioner.name,
      color: practitioner.color,
      start_place: practitioner.startPlace,
      end_place: practitioner.endPlace,
      shift_start: ctx.instant(planned.shift.start),
      shift_end: ctx.instant(planned.shift.end),
      before: beforeLane(ctx, v),
      after: keptDays.has(practitioner.practitionerId) ? keptLane(ctx, v)
        : route ? afterLane(ctx, route, visitIndex) : { stops: [], depart_at: null, end_at: null, return_leg: null, break: null, metrics: emptyMetrics() },
    };
  });
  const inLanes = new Set(lanes.flatMap((lane) => lane.after.stops.map((stop) => stop.appointment_id)));

  const clock = (seconds: number) => Temporal.Instant.fromEpochMilliseconds(Math.round(day.dayStartMs + seconds * 1000))
    .toZonedDateTimeISO(timeZone).toPlainTime().toString({ smallestUnit: 'minute' });
  const unplaced: UnplacedVisit[] = [
    ...solution.unassigned.filter((item) => !inLanes.has(day.visits[visitIndex.get(item.visitId)!].id)).map((item): UnplacedVisit => {
      const index = visitIndex.get(item.visitId)!;
      const visit = day.visits[index];
      const who = names.get(visit.practitionerId) ?? 'the practitioner';
      const hasWindows = day.windows[index] !== null;
      let message: string;
      switch (item.reason) {
        case 'no-practitioner-with-skill': {
          const type = visit.appointmentTypeId === null ? 'this type of visit' : input.appointmentTypeNames.get(visit.appointmentTypeId) ?? 'this type of visit';
          // The client's own exclusions among the run's practitioners (not those excluded for unknown qualifications).
          const excluded = day.practitioners.filter((practitioner) => visit.excludedPractitionerIds?.includes(practitioner.practitionerId)).map((practitioner) => practitioner.name);
          message = excluded.length
            ? `${visit.clientName ?? 'The client'} has asked not to be visited by ${excluded.join(', ')}, and none of the other chosen practitioners delivers ${type}.`
            : `None of the chosen practitioners delivers ${type}.`;
          break;
        }
        case 'pinned-practitioner-unavailable':
          message = day.kept[index]
            ? `Its kept time (${clock(day.problem.visits[index].pinnedStart!)}) does not fit ${who}'s working hours or the rest of their day.`
            : `${who} cannot fit it within their working hours${hasWindows ? ' and the client\'s availability' : ''}.`;
          break;
        case 'capacity-reached': {
          const limits = (item.practitionerIds ?? []).map((id) => {
            const practitioner = day.practitioners.find((candidate) => String(candidate.practitionerId) === id);
            return { name: practitioner?.name ?? 'the practitioner', limit: practitioner?.maxVisits ?? 0 };
          });
          const visitsADay = (limit: number) => `${limit} visit${limit === 1 ? '' : 's'} a day`;
          message = limits.length === 1
            ? `${limits[0].name} has reached the limit of ${visitsADay(limits[0].limit)}.`
            : `Every chosen practitioner who could take it has reached their limit of visits a day: ${limits.map(({ name, limit }) => `${name} (${visitsADay(limit)})`).join(', ')}.`;
          break;
        }
        case 'outside-every-shift':
          message = `It cannot be fitted within ${mode === 'keep_practitioners' ? `${who}'s` : 'any chosen practitioner\'s'} working hours`
            + `${hasWindows ? ' and the client\'s availability' : ''}, even on its own.`;
          break;
        default:
          message = mode === 'keep_practitioners'
            ? `There is no room for it in ${who}'s day alongside their other visits${hasWindows ? ' and within the client\'s availability' : ''}.`
            : `There is no room for it in the chosen practitioners' days alongside the other visits${hasWindows ? ' and within the client\'s availability' : ''}.`;
      }
      // Its practitioner is on leave at its time: that is why it fits nowhere with them (not their working hours).
      const leave = item.reason === 'no-practitioner-with-skill' || item.reason === 'capacity-reached' ? undefined : leaveAt(day.staff, visit);
      if (leave) {
        const stays = mode === 'keep_practitioners' ? 'keeping each visit with its practitioner, it stays with them' : 'no other chosen practitioner could take it';
        return {
          appointment_id: visit.id, client_name: visit.clientName, practitioner_id: visit.practitionerId, reason: 'on-leave',
          message: `${who} is on leave ${clock((leave.startsAt.getTime() - day.dayStartMs) / 1000)}–${clock((leave.endsAt.getTime() - day.dayStartMs) / 1000)}, when it is booked; ${stays}.`,
        };
      }
      const reason = item.reason === 'capacity-reached' ? 'max-visits-reached' : item.reason;
      return { appointment_id: visit.id, client_name: visit.clientName, practitioner_id: visit.practitionerId, reason, message };
    }),
    // A visit of a practitioner on leave all day that stays with them because its day is kept as it is.
    ...day.visits.filter((visit) => keptDays.has(visit.practitionerId) && !inLanes.has(visit.id)
      && !solution.unassigned.some((item) => item.visitId === String(visit.id))).map((visit): UnplacedVisit => ({
      appointment_id: visit.id, client_name: visit.clientName, practitioner_id: visit.practitionerId, reason: 'no-room-in-schedules',
      message: 'It stays where it is: no other practitioner could take it without breaking the rules of home care.',
    })),
    ...day.excluded.map(({ visit }): UnplacedVisit => ({
      appointment_id: visit.id, client_name: visit.clientName, practitioner_id: visit.practitionerId, reason: 'no-location',
      message: 'The visit\'s address has no map position, so the travel to it cannot be worked out.',
    })),
  ];

  // The one check of a plan (Apply's too), with travel between the run's visits from the matrix the plan was made
  // with (travel time is soft: it is shown, never decides).
  const travelIndex = new Map(day.visits.map((visit, index) => [visit.id, index]));
  const planned = new Map<number, PlannedVisit>();
  for (const route of routes) {
    for (const stop of route.stops) {
      planned.set(Number(stop.visitId), { practitionerId: Number(route.practitionerId), start: new Date(ctx.instant(stop.start)) });
    }
  }
  const { before, after } = checkPlan(input.check, planned, (fromId, toId) => {
    const [from, to] = [travelIndex.get(fromId), travelIndex.get(toId)];
    return from === undefined || to === undefined ? null : Math.round(input.matrix.durations[from * input.matrix.size + to]);
  });
  // It shows the problems of the run's visits and of its clients' other visits, as the day's other practitioners' are
  // none of its business; a problem a plan adds always involves a visit it moves, so the hard ones added are the same.
  const ofRun = new Set([...day.visits, ...day.excluded.map(({ visit }) => visit), ...day.others].map((visit) => visit.id));
  const concernsRun = (issue: DayIssue) => issue.appointmentIds.some((id) => ofRun.has(id));
  const checks = ruleChecks(before.filter(concernsRun), after.filter(concernsRun), day.rules);

  const usualOf = new Map(day.problem.visits.map((visit) => [Number(visit.id), visit.previousPractitionerId]));
  const laneOf = new Map(lanes.map((lane) => [lane.practitioner_id, lane]));
  const changes: ProposalChange[] = [];
  for (const lane of lanes.filter((candidate) => !keptDays.has(candidate.practitioner_id))) {
    for (const stop of lane.after.stops) {
      const visit = day.visits[visitIndex.get(String(stop.appointment_id))!];
      const moved = visit.practitionerId !== lane.practitioner_id;
      if (!moved && visit.arriveAt !== null && visit.arriveAt.toISOString() === stop.arrive_at) continue;
      const agreed = visit.agreedStartsAt;
      changes.push({
        appointment_id: visit.id, client_name: visit.clientName,
        old_arrive_at: visit.arriveAt?.toISOString() ?? null, new_arrive_at: stop.arrive_at,
        old_practitioner_id: visit.practitionerId, new_practitioner_id: lane.practitioner_id,
        old_practitioner_name: names.get(visit.practitionerId) ?? '', new_practitioner_name: lane.practitioner_name,
        old_practitioner_profession: input.professions?.get(visit.practitionerId) ?? null,
        new_practitioner_profession: input.professions?.get(lane.practitioner_id) ?? null,
        agreed_start_at: agreed.toISOString(),
        minutes_moved: Math.round((Date.parse(stop.arrive_at) - agreed.getTime()) / 60_000),
        reasons: reasonsOfChange({
          visit, newArrival: stop.arrive_at, to: lane, from: laneOf.get(visit.practitionerId), names, staff: day.staff, checks, mode,
          usual: usualOf.get(visit.id), clock: (date) => clock((date.getTime() - day.dayStartMs) / 1000),
        }),
      });
    }
  }
  // The biggest moves from the agreed time first, then by new arrival.
  changes.sort((a, b) => Math.abs(b.minutes_moved!) - Math.abs(a.minutes_moved!) || a.new_arrive_at.localeCompare(b.new_arrive_at) || a.appointment_id - b.appointment_id);

  // Like with like: a visit not placed stays with its practitioner at its time (as Apply leaves it), so its travel and
  // overtime are counted on that lane after as they are before.
  const unplacedOn = new Map<number, number[]>();
  for (const item of unplaced) {
    const index = visitIndex.get(String(item.appointment_id));
    if (index === undefined || keptDays.has(item.practitioner_id) || !laneOf.has(item.practitioner_id)) continue;
    unplacedOn.set(item.practitioner_id, [...unplacedOn.get(item.practitioner_id) ?? [], index]);
  }
  for (const [v, lane] of lanes.entries()) {
    const left = unplacedOn.get(lane.practitioner_id);
    if (left) lane.after.counted = countedLane(ctx, v, lane.after, left);
  }
  const countedUnplaced = [...unplacedOn.values()].reduce((total, left) => total + left.length, 0);

  // Continuity's price when reassigning: visits away from their client's usual practitioner (as the search weighs
  // it), before and after. Keeping each visit's practitioner, continuity is not weighed and the figure is left out.
  const awayFromUsual = (side: 'before' | 'after') => lanes.reduce((count, lane) => count + lane[side].stops.filter((stop) => {
    const usual = usualOf.get(stop.appointment_id);
    return usual !== undefined && Number(usual) !== lane.practitioner_id;
  }).length, 0);
  const awayWhen = (side: 'before' | 'after') => (mode === 'reassign' ? awayFromUsual(side) : undefined);

  return {
    date: input.date,
    time_zone: timeZone,
    mode,
    kpis: {
      before: totals(lanes.map((lane) => lane.before), 0, awayWhen('before')),
      after: totals(lanes.map((lane) => ({ ...lane.after, metrics: lane.after.counted ?? lane.after.metrics })), unplaced.length, awayWhen('after')),
    },
    lanes,
    changes,
    unplaced,
    ...(unplaced.length ? { figures_note: figuresNote(unplaced.length, countedUnplaced) } : {}),
    checks,
    search: {
      ...(input.search ? { seed: input.search.seed, max_iterations: input.search.maxIterations } : {}),
      elapsed_ms: Math.round(solution.stats.elapsedMs), iterations: solution.stats.iterations, stopped_by: solution.stats.stoppedBy,
      travel: input.travelName, searches: solution.stats.searches ?? 1,
    },
  };
}

/** The day's problems before and after, and their counts per rule of the rule book. */
export function ruleChecks(before: DayIssue[], after: DayIssue[], rules: RuleBook): RuleChecks {
  const countsAfter = countsByRule(after, rules);
  return {
    counts: countsByRule(before, rules).map(({ count, ...rule }, index) => ({ ...rule, before: count, after: countsAfter[index].count })),
    before: before.map(ruleIssueDto),
    after: after.map(ruleIssueDto),
  };
}

/**
 * The proposal of a plan that adds no hard problem to its day (ADR 0020). When the plan would add one, the days of the
 * practitioners involved are kept exactly as they are, with the day of anyone a visit moves between them and another
 * (so no visit crosses into or out of a day kept as it is), and the proposal is checked again, until it adds none.
 * Each round keeps at least one more day as it is, and a run whose days are all kept as they are adds nothing, so
 * it ends. Answers the proposal and the practitioners whose day it kept.
 */
export function proposalWithinTheRules(input: ProposalInput): { proposal: Proposal; keptDays: Set<number> } {
  const bookedWith = new Map(input.check.now.map(({ visit }) => [visit.id, visit.practitionerId]));
  const moves = input.solution.routes.flatMap((route) => route.stops.map((stop) => ({
    to: Number(route.practitionerId), from: bookedWith.get(Number(stop.visitId)) ?? Number(route.practitionerId),
  }))).filter((move) => move.from !== move.to);
  let keptDays = new Set(input.keptDays ?? []);
  for (;;) {
    const proposal = buildProposal({ ...input, keptDays });
    const added = hardIssuesAdded(proposal.checks!);
    if (added.length === 0) return { proposal, keptDays };
    const plannedWith = new Map(proposal.lanes.flatMap((lane) => lane.after.stops.map((stop) => [stop.appointment_id, lane.practitioner_id] as const)));
    const grown = new Set([...keptDays, ...added.flatMap((issue) => issue.appointmentIds.flatMap((id) => [bookedWith.get(id), plannedWith.get(id)]))
      .filter((id): id is number => id !== undefined)]);
    for (let more = true; more;) {
      more = false;
      for (const { from, to } of moves) {
        if (grown.has(from) !== grown.has(to)) {
          grown.add(from);
          grown.add(to);
          more = true;
        }
      }
    }
    // Cannot happen (a problem the plan adds involves a visit it moves); kept so a mistake never loops.
    if (grown.size === keptDays.size) return { proposal, keptDays };
    keptDays = grown;
  }
}
