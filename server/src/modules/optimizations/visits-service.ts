// "Insert into a route": the optimiser's cheapest place for a visit among chosen practitioners' days as they are, which
// a coordinator sees before applying it through the move (the schedule module's moveVisit); and the same search for a
// hypothetical visit (the nearby search).
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, invalid, notFound } from '../../http/errors';
import { cheapestInsertion, travelMatrixFor, type CurrentRoute, type TravelMatrix } from '../../optimizer';
import { loadDay } from './day';
import { buildDayProblem, type DayData, type DayProblem } from './problem';
import { ownPractitionerIds, usualPractitioners } from './repository';
import { fixedUntil, fixedVisitMessage, hasStarted, isFixedStart, optimizationSettingsOf } from '../optimization-settings';
import {
  availabilityWindows, dayBounds, dayOf, dayStartMs, excludedMessage, findVisit, instantOfSeconds, travelProviderFor, type DayVisit,
} from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { longDate } from '../../lib/long-date';


export type InsertionDto = Schemas['Insertion'];

/**
 * The cheapest place for a visit on its own day among the chosen practitioners' days as they are (their other visits
 * keep their practitioner and arrival): the optimiser's insertion cost under the business's settings, with the
 * practitioners' hours, breaks, skills and limits and the client's availability. Changes nothing; the coordinator
 * applies it with the move. `insertion` is null, with `message` saying why, when it fits nowhere.
 */
/** Where an insertion puts the visit, as the API says it: arrival, when the practitioner gets there, its neighbours, what it adds. */
export function placeOfInsertion(found: NonNullable<ReturnType<typeof cheapestInsertion>>, dayStartMs: number) {
  const stops = found.route.stops;
  const stop = stops[found.position];
  const instant = (seconds: number) => instantOfSeconds(dayStartMs, seconds);
  return {
    arrive_at: instant(stop.start),
    reach_at: instant(stop.arrival),
    after_appointment_id: found.position > 0 ? Number(stops[found.position - 1].visitId) : null,
    before_appointment_id: found.position < stops.length - 1 ? Number(stops[found.position + 1].visitId) : null,
    added_travel_seconds: Math.round(found.addedTravelTime),
    added_travel_metres: Math.round(found.addedTravelDistance),
    lateness_seconds: Math.round(stop.lateness),
  };
}

export async function findInsertion(
  ctx: AppContext, auth: AuthContext, appointmentId: number, practitionerIds: number[],
): Promise<{ insertion: InsertionDto | null; message: string | null }> {
  const { db } = ctx;
  const business = auth.businessAccountId;
  const target = await findVisit(db, business, appointmentId);
  if (!target) throw notFound('Appointment');
  const ids = [...new Set(practitionerIds)];
  const own = await ownPractitionerIds(db, business, ids);
  if (ids.some((id) => !own.has(id))) throw notFound('Practitioner');
  if (target.cancelledAt) throw conflict('This appointment is cancelled; it cannot be inserted into a route.', 'APPOINTMENT_CANCELLED');
  const settings = await optimizationSettingsOf(db, business);
  if (hasStarted(target) || isFixedStart(target.arriveAt ?? target.startsAt, fixedUntil(settings))) throw invalid(fixedVisitMessage(settings.fixed_before_minutes));
  if (target.lat === null || target.lng === null) {
    throw conflict('The visit\'s address has no map position, so the travel to it cannot be worked out.', 'NO_MAP_POSITION');
  }
  const timeZone = await businessTimeZone(db, business);
  const date = dayOf(target.startsAt, timeZone);
  const day = await loadDay(db, business, { date, practitionerIds: ids, mode: 'reassign', joiningClientId: target.clientId });
  if (day.problems.length) throw invalid(`practitioner_ids: ${day.problems.join(' ')}`, day.problems.map((problem) => `practitioner_ids: ${problem}`));
  const windows = availabilityWindows(target, day.data.practitioners[0].timeZone, dayStartMs(date, timeZone));
  if (windows !== null && windows.length === 0) {
    return { insertion: null, message: `${target.clientName ?? 'The client'} is not available on ${longDate(date)}, so there is no time for the visit that day.` };
  }

  const allowed = day.data.practitioners.filter((practitioner) => !target.excludedPractitionerIds?.includes(practitioner.practitionerId));
  if (allowed.length === 0) {
    return { insertion: null, message: excludedMessage(target.clientName, day.data.practitioners.map((practitioner) => practitioner.name)) };
  }

  // Today the visit goes nowhere before now + the margin.
  const data = { ...day.data, fixedUntilMs: fixedUntil(settings) };
  const { dayProblem, current, matrix } = await insertionProblem(ctx, business, data, target, ids);
  const found = cheapestInsertion(dayProblem.problem, matrix, current, String(target.id));
  const names = day.data.practitioners.map((practitioner) => practitioner.name);
  if (!found) {
    return {
      insertion: null,
      message: `There is no room for it on ${longDate(date)} in ${names.join(', ')}'s day${names.length > 1 ? 's' : ''} as they are: `
        + 'within their working hours, breaks and limits and the client\'s availability, without moving their other visits, '
        + 'and only with a practitioner who delivers this type of visit.',
    };
  }
  const practitioner = day.data.practitioners.find((candidate) => String(candidate.practitionerId) === found.practitionerId)!;
  return {
    insertion: {
      appointment_id: target.id,
      practitioner_id: practitioner.practitionerId,
      practitioner_name: practitioner.name,
      ...placeOfInsertion(found, dayProblem.dayStartMs),
      current_arrive_at: (target.arriveAt ?? target.startsAt).toISOString(),
      current_practitioner_id: target.practitionerId,
    },
    message: null,
  };
}

export interface InsertionProblem {
  dayProblem: DayProblem;
  /** Each practitioner's other visits in the order of their arrivals (the target on none). */
  current: CurrentRoute[];
  matrix: TravelMatrix;
}

/**
 * The optimiser's problem for placing one visit (`target`, free: its practitioner and time are the optimiser's to
 * choose) among a loaded day's practitioners as they are: every other visit is kept at its arrival with its
 * practitioner; continuity with the target's client's usual practitioner. "Insert into a route" and the nearby search
 * (a visit that does not exist yet) both place a visit with it.
 */
export async function insertionProblem(
  ctx: AppContext, business: number, data: DayData, target: DayVisit, practitionerIds: number[],
): Promise<InsertionProblem> {
  const others: DayVisit[] = data.visits.filter((visit) => visit.id !== target.id).map((visit) => ({ ...visit, arrivalLocked: true }));
  const usual = target.clientId === null ? new Map<number, number>()
    : await usualPractitioners(ctx.db, business, [target.clientId], dayBounds(data.date, data.businessTimeZone).from, practitionerIds);
  const dayProblem = buildDayProblem({
    ...data, visits: [...others, { ...target, arrivalLocked: false }], rebookedVisitId: target.id,
    otherVisits: data.otherVisits.filter((visit) => visit.id !== target.id),
    usualPractitioner: new Map([...data.usualPractitioner, ...usual]),
  });
  const current: CurrentRoute[] = dayProblem.practitioners.map((practitioner) => ({
    practitionerId: String(practitioner.practitionerId),
    visitIds: dayProblem.problem.visits
      .filter((visit) => visit.id !== String(target.id) && visit.pinnedPractitionerId === String(practitioner.practitionerId))
      .sort((a, b) => a.pinnedStart! - b.pinnedStart! || Number(a.id) - Number(b.id))
      .map((visit) => visit.id),
  }));
  const matrix = await travelMatrixFor(dayProblem.problem, { travel: travelProviderFor(ctx.config) });
  return { dayProblem, current, matrix };
}
