// The optimiser's Problem for one day, built from the day's visits, the practitioners' day (the practitioners
// module's resolver, loadPractitionerDays) and the business's settings (the optimisation settings module's, with the
// meaning of each weight in its objectiveOf). Pure: the repositories read, this shapes.
//
// The clock: every time is seconds from midnight starting the day in the business's time zone (as the appointments
// list counts days), so practitioners and clients on other clocks share one axis.
import { Temporal } from 'temporal-polyfill';
import type { Place } from '../../db/schema';
import type { Practitioner, Problem, StartRoute, TimeWindow, Visit } from '../../optimizer';
import { hasStarted, objectiveOf, type OptimizationSettingsValues } from '../optimization-settings';
import type { PractitionerDay } from '../practitioners';
import {
  availabilityWindows, clientWindows, currentArrival, dayStartMs, secondsOf, toleranceWindow, type ClientVisitTimes, type DayVisit, type RuleBook, type StaffOfDay,
} from '../schedule';

export type OptimizationMode = 'keep_practitioners' | 'reassign';

/** A practitioner of a run: their day as the practitioners module resolves it, and the colour they are shown in. */
export type RunPractitioner = PractitionerDay & { color: string };

/** A run practitioner who can be routed: a start and an end place with a position, and hours that day. */
export type RoutablePractitioner = RunPractitioner & { startPlace: Place; endPlace: Place; shift: { start: number; end: number } };

export interface DayData {
  date: string;
  businessTimeZone: string;
  mode: OptimizationMode;
  settings: OptimizationSettingsValues;
  /** The run's practitioners, in the order lanes are shown. */
  practitioners: RunPractitioner[];
  visits: DayVisit[];
  /** Client → the practitioner of their latest earlier visit (continuity), when that practitioner is in the run. */
  usualPractitioner: Map<number, number>;
  /** Practitioner → working seconds the run planned for them on its earlier days (balance across a week). */
  workedBeforeSeconds?: ReadonlyMap<number, number>;
  /** Epoch ms up to which visits are fixed (now + fixed_before_minutes): started and imminent visits keep their time. */
  fixedUntilMs?: number;
  /** The rule book the plan keeps to (the business's settings and its appointment types' rules). */
  rules: RuleBook;
  /** The day's other visits of the run's clients (with practitioners outside the run): they stay as they are. */
  otherVisits: DayVisit[];
  /** Every practitioner's leave and skills that day, as the rule book checks a plan with them. */
  staff: ReadonlyMap<number, StaffOfDay>;
  /**
   * The visit being rebooked by hand (Insert into a route, the nearby search): its booking is what changes, so any
   * time that keeps the other rules will do, not only one near its old booking.
   */
  rebookedVisitId?: number;
  /** Visits a first search could not place: they stay where they are, and their clients' other visits keep clear. */
  keptAsTheyAre?: ReadonlySet<number>;
  /** Practitioners whose day stays exactly as it is: their visits keep their times, and no other visit goes to them. */
  frozenPractitionerIds?: ReadonlySet<number>;
}

export type KeptReason = 'locked' | 'unavailable-day' | 'started' | 'no-time-fits' | null;

/** Why a visit of the day is kept out of the problem. */
export interface ExcludedVisit { visit: DayVisit; reason: 'no-location' }

export interface DayProblem {
  problem: Problem;
  /** Epoch milliseconds of the day's clock zero (midnight in the business's time zone). */
  dayStartMs: number;
  /** problem.visits[i] is visits[i]. */
  visits: DayVisit[];
  /** problem.practitioners[i] is practitioners[i]. */
  practitioners: RoutablePractitioner[];
  /**
   * Each visit's availability windows on the day's clock (start inclusive, end inclusive: the last second a visit
   * may start); null when the client has no custom availability; empty when the client is not available that day.
   */
  windows: (TimeWindow[] | null)[];
  /**
   * Why a visit is pinned to its time: the user's "Keep this time", a client not available at all that day, a
   * visit that has started or starts too soon to move (today), or no other time keeps to the rules (its tolerance,
   * the client's availability and their other visits).
   */
  kept: KeptReason[];
  excluded: ExcludedVisit[];
  /** The day's visits that stay as they are: the run's clients' with practitioners outside it, and those under way with a practitioner not routed. */
  others: DayVisit[];
  /** The rule book the plan keeps to. */
  rules: RuleBook;
  /** Every practitioner's leave and skills that day (the rule book's check of the plan). */
  staff: ReadonlyMap<number, StaffOfDay>;
}

/**
 * Who reads a problem: an administrator can fix a practitioner's settings, anyone else is told who can (only an
 * administrator opens Settings → Practitioners).
 */
export type Reader = 'admin' | 'staff';

/**
 * What stops a practitioner from being routed on the day, in words naming them and who fixes it where; empty when
 * nothing does. Read from the practitioners module's resolution of their day.
 */
export function routingProblems(day: PractitionerDay, reader: Reader = 'admin'): string[] {
  const weekday = Temporal.PlainDate.from(day.date).toLocaleString('en-AU', { weekday: 'long' });
  const fix = (what: string) => (reader === 'admin' ? `${what} in Settings → Practitioners` : `an administrator can ${what} in Settings → Practitioners`);
  const problems: string[] = [];
  if (!day.startPlace) problems.push(`${day.name} has no start place with a map position: ${fix('set one')}.`);
  else if (!day.endPlace) problems.push(`${day.name}'s end place has no map position or no longer exists: ${fix('choose another')}.`);
  if (!day.shift) problems.push(`${day.name} has no working hours on ${weekday}s: ${fix('set them')}.`);
  else if (day.shift.end <= day.shift.start) problems.push(`${day.name}'s working hours on ${weekday}s end before they start: ${fix('correct them')}.`);
  // Anything else the resolver found (a time zone that is not one), in its own words.
  if (problems.length === 0 && !day.routable) problems.push(...day.problems.map((problem) => `${day.name}: ${problem}`));
  return problems;
}

export const isRoutable = (practitioner: RunPractitioner): practitioner is RoutablePractitioner =>
  routingProblems(practitioner).length === 0 && practitioner.startPlace !== null && practitioner.endPlace !== null && practitioner.shift !== null;

/** Any start on the day's clock (a day is at most 25 hours; shifts may start before its midnight or run past the next). */
const ANY_TIME: TimeWindow = { start: -24 * 3600, end: 48 * 3600 };

/** The parts of `windows` inside `within` (both by start). */
const clip = (windows: TimeWindow[], within: TimeWindow[]): TimeWindow[] => windows.flatMap((window) => within
  .filter((bound) => bound.end >= window.start && bound.start <= window.end)
  .map((bound) => ({ start: Math.max(window.start, bound.start), end: Math.min(window.end, bound.end) })));

export function buildDayProblem(data: DayData): DayProblem {
  const zeroMs = dayStartMs(data.date, data.businessTimeZone);
  const { settings, mode } = data;
  const objective = objectiveOf(settings.weights, settings.balance_workload ? settings.balance_weight : 0);
  const routable = data.practitioners.map((day) => {
    if (!isRoutable(day)) throw new Error(`practitioner ${day.practitionerId} cannot be routed`);
    return day;
  });
  const byId = new Map(routable.map((day) => [day.practitionerId, day]));
  const capacityUsed = routable.some((day) => day.maxVisits !== null);
  const unqualified = routable.filter((day) => day.skills === null).map((day) => day.practitionerId);
  const typesInDay = [...new Set(data.visits.flatMap((visit) => (visit.appointmentTypeId === null ? [] : [visit.appointmentTypeId])))];
  // The fixed instant on the day's clock, when it falls after the day starts (today).
  const fixedFrom = data.fixedUntilMs !== undefined && data.fixedUntilMs > zeroMs ? secondsOf(new Date(data.fixedUntilMs), zeroMs) : null;

  const practitioners: Practitioner[] = routable.map((day) => {
    // The practitioner's day counts from their own midnight; the run's from the business's.
    const offset = (day.dayStart.getTime() - zeroMs) / 1000;
    const practitioner: Practitioner = {
      id: String(day.practitionerId),
      startLocation: { lat: day.startPlace.lat, lng: day.startPlace.lng },
      endLocation: { lat: day.endPlace.lat, lng: day.endPlace.lng },
      shift: { start: day.shift.start + offset, end: day.shift.end + offset },
      costPerHour: objective.costPerHour,
      costPerKm: objective.costPerKm,
      maxOvertimeMinutes: settings.overtime_minutes,
      workedBeforeSeconds: data.workedBeforeSeconds?.get(day.practitionerId) ?? 0,
    };
    if (day.break) {
      practitioner.break = {
        earliestStart: day.break.earliestStart + offset, latestStart: day.break.latestStart + offset, duration: day.break.duration,
      };
    }
    // Qualifications matter only when visits may change hands: a visit kept with its practitioner is theirs already.
    // Unknown ones are never "every type": such a practitioner keeps the visits that are theirs (any type of the day)
    // and is excluded from every other visit below.
    if (mode === 'reassign') practitioner.skills = (day.skills ?? typesInDay).map(String);
    if (day.maxVisits !== null) practitioner.capacity = day.maxVisits;
    if (day.maxTravelSeconds !== null) practitioner.maxTravelTime = day.maxTravelSeconds;
    return practitioner;
  });

  // Each visit's own allowed starts (tolerance around the booked start, hard availability, nothing before the fixed
  // instant), then its client's other visits narrow them (client windows); null: it keeps its time.
  const hasPoint = (visit: DayVisit) => visit.lat !== null && visit.lng !== null;
  // A visit under way (any step recorded) belongs to the practitioner who took it, at its times, whoever is in the run:
  // one whose practitioner is not routed (on leave from now) stays out of the problem, as the day's other visits do.
  const underWayElsewhere = (visit: DayVisit) => hasStarted(visit) && !byId.has(visit.practitionerId);
  const asTheyAre = data.visits.filter(underWayElsewhere);
  const inProblem = data.visits.filter((visit) => !underWayElsewhere(visit));
  const placed = inProblem.filter(hasPoint);
  const excluded: ExcludedVisit[] = inProblem.filter((visit) => !hasPoint(visit)).map((visit) => ({ visit, reason: 'no-location' }));
  const availability = placed.map((visit) => availabilityWindows(visit, (byId.get(visit.practitionerId) ?? routable[0]).timeZone, zeroMs));
  const keptFirst = placed.map((visit, index): KeptReason => {
    if (visit.arrivalLocked) return 'locked';
    // Started by its steps (the practitioner set off, arrived, finished or could not attend), whatever its planned time.
    if (hasStarted(visit)) return 'started';
    if (fixedFrom !== null && secondsOf(currentArrival(visit), zeroMs) <= fixedFrom) return 'started';
    if (availability[index]?.length === 0) return 'unavailable-day';
    return data.keptAsTheyAre?.has(visit.id) || data.frozenPractitionerIds?.has(visit.practitionerId) ? 'no-time-fits' : null;
  });
  const own = placed.map((visit, index) => {
    if (keptFirst[index]) return null;
    // The tolerance is measured from the client's agreed time, never from a start an export wrote (ADR 0023).
    const agreed = secondsOf(visit.agreedStartsAt, zeroMs);
    const tolerance = visit.id === data.rebookedVisitId ? ANY_TIME : toleranceWindow(data.rules, visit.appointmentTypeId, agreed);
    const start = Math.max(tolerance.start, fixedFrom ?? -Infinity);
    const allowed = settings.availability_mode === 'hard' && availability[index] ? availability[index] : [tolerance];
    return allowed.filter((window) => window.end >= start && window.start <= tolerance.end)
      .map((window) => ({ start: Math.max(window.start, start), end: Math.min(window.end, tolerance.end) }));
  });
  const timesOf = (visit: DayVisit, windows: TimeWindow[] | null): ClientVisitTimes => ({
    clientId: visit.clientId, typeId: visit.appointmentTypeId,
    booked: secondsOf(visit.startsAt, zeroMs), duration: Math.max(0, (visit.endsAt.getTime() - visit.startsAt.getTime()) / 1000),
    current: secondsOf(currentArrival(visit), zeroMs), own: windows,
  });
  const others = [...data.otherVisits, ...asTheyAre];
  const fixedNeighbours = [...excluded.map(({ visit }) => visit), ...others].map((visit) => timesOf(visit, null));
  const allowedStarts = clientWindows([...placed.map((visit, index) => timesOf(visit, own[index])), ...fixedNeighbours], data.rules);

  const visits: DayVisit[] = [];
  const problemVisits: Visit[] = [];
  const windows: (TimeWindow[] | null)[] = [];
  const kept: DayProblem['kept'] = [];
  placed.forEach((visit, index) => {
    const booked = Math.max(0, (visit.endsAt.getTime() - visit.startsAt.getTime()) / 1000);
    const entry: Visit = {
      id: String(visit.id),
      location: { lat: visit.lat!, lng: visit.lng! },
      duration: booked + settings.visit_buffer_minutes * 60,
    };
    const allowed = allowedStarts[index];
    const keptBecause = keptFirst[index] ?? (allowed === null ? 'no-time-fits' : null);
    if (keptBecause || allowed === null) {
      // It stays at its arrival with its practitioner: "Keep this time", started, or no other time keeps to the rules.
      entry.pinnedStart = secondsOf(currentArrival(visit), zeroMs);
      entry.pinnedPractitionerId = String(visit.practitionerId);
    } else {
      // The time the client was told: the plan keeps to it where the route allows, rather than the earliest start.
      entry.preferredStart = secondsOf(currentArrival(visit), zeroMs);
      const available = settings.availability_mode === 'soft' && availability[index] ? clip(availability[index], allowed) : [];
      if (available.length > 0) {
        // Soft availability: late within the rules' latest start, by at most the setting.
        entry.timeWindows = available;
        entry.allowLate = true;
        entry.maxLatenessMinutes = Math.min(settings.max_lateness_minutes, Math.floor((allowed.at(-1)!.end - available.at(-1)!.end) / 60));
      } else entry.timeWindows = allowed;
    }
    if (!keptBecause && visit.id !== data.rebookedVisitId) {
      // Every minute the visit starts away from the client's agreed time has a price (its type's, else the business's).
      entry.agreedStart = secondsOf(visit.agreedStartsAt, zeroMs);
      const own = data.rules.movePriceOf(visit.appointmentTypeId);
      if (own !== null && own !== settings.move_price) entry.movedWeight = own;
    }
    // A practitioner whose qualifications are unknown is given no visit that is not already theirs.
    const notTheirs = unqualified.filter((id) => id !== visit.practitionerId);
    if (mode === 'keep_practitioners') entry.pinnedPractitionerId = String(visit.practitionerId);
    else {
      // Continuity with the client's usual practitioner, else the booked one, when they are in the run (an inserted
      // visit may belong to someone else). A client with preferred practitioners: the usual one if preferred, else
      // the first preferred one in the run (in lane order), else the usual one. Never an excluded one.
      const usual = (visit.clientId === null ? undefined : data.usualPractitioner.get(visit.clientId)) ?? visit.practitionerId;
      const preferred = visit.preferredPractitionerIds ?? [];
      const excluded = [...new Set([...(visit.excludedPractitionerIds ?? []), ...(data.frozenPractitionerIds ?? []), ...notTheirs])].filter((id) => byId.has(id));
      const previous = preferred.includes(usual) ? usual : routable.find((day) => preferred.includes(day.practitionerId))?.practitionerId ?? usual;
      if (byId.has(previous) && !excluded.includes(previous)) entry.previousPractitionerId = String(previous);
      if (visit.appointmentTypeId !== null && !keptBecause) entry.requiredSkill = String(visit.appointmentTypeId);
      if (excluded.length && !keptBecause) entry.excludedPractitionerIds = excluded.map(String);
    }
    if (capacityUsed) entry.demand = 1;
    visits.push(visit);
    problemVisits.push(entry);
    windows.push(availability[index]);
    kept.push(keptBecause);
  });

  return {
    problem: {
      visits: problemVisits,
      practitioners,
      weights: { ...objective.weights, moved: settings.move_price },
      arrivalStepSeconds: settings.arrival_rounding_minutes * 60,
    },
    dayStartMs: zeroMs,
    visits,
    practitioners: routable,
    windows,
    kept,
    excluded,
    others,
    rules: data.rules,
    staff: data.staff,
  };
}

/**
 * The day as it is, as a plan the search starts from: each run practitioner's visits in order of arrival. The
 * proposal is then never worse than the day by the run's objective (a visit the day's routes cannot keep where it is
 * is left for the search to place).
 */
export function planAsItIs(day: DayProblem): StartRoute[] {
  const visitsOf = new Map(day.practitioners.map((practitioner) => [practitioner.practitionerId, [] as DayVisit[]]));
  for (const visit of day.visits) visitsOf.get(visit.practitionerId)?.push(visit);
  return [...visitsOf].map(([practitionerId, visits]) => ({
    practitionerId: String(practitionerId),
    visitIds: visits.sort((a, b) => currentArrival(a).getTime() - currentArrival(b).getTime()).map((visit) => String(visit.id)),
  }));
}
