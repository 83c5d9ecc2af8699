// Travel warnings for a day, routed or not: for each practitioner, their visits in order of arrival, and for each
// visit after the first the travel from the one before (the optimiser's travel provider: OSRM_URL when set, else its
// great-circle model) against the time left between the end of the one before and this arrival. A visit whose gap is
// shorter than the travel gets 'Not enough travel time (needs N min)' in the day schedule.
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { checkDay, dayBounds, travelProviderFor } from './day';
import { currentArrival, type DayVisit } from './problem';
import { businessTimeZone, dayVisits } from './repository';

export type VisitTravel = Schemas['VisitTravel'];

/** The travel legs between consecutive visits of one practitioner's day (visits in any order; answered by arrival). */
export async function travelOfDay(
  visits: readonly DayVisit[], matrixOf: (points: { lat: number; lng: number }[]) => Promise<{ size: number; durations: Float64Array; distances: Float64Array }>,
): Promise<VisitTravel[]> {
  const ordered = [...visits].sort((a, b) => currentArrival(a).getTime() - currentArrival(b).getTime() || a.id - b.id);
  const located = ordered.filter((visit) => visit.lat !== null && visit.lng !== null);
  const matrix = located.length > 1 ? await matrixOf(located.map((visit) => ({ lat: visit.lat!, lng: visit.lng! }))) : null;
  const indexOf = new Map(located.map((visit, index) => [visit.id, index]));
  return ordered.map((visit, k): VisitTravel => {
    const previous = k > 0 ? ordered[k - 1] : null;
    const from = previous ? indexOf.get(previous.id) : undefined;
    const to = indexOf.get(visit.id);
    const gap = previous
      ? Math.round((currentArrival(visit).getTime() - (currentArrival(previous).getTime() + previous.endsAt.getTime() - previous.startsAt.getTime())) / 1000)
      : null;
    if (!previous || !matrix || from === undefined || to === undefined) {
      return {
        appointment_id: visit.id, practitioner_id: visit.practitionerId, previous_appointment_id: previous?.id ?? null,
        travel_seconds_from_previous: null, travel_metres: null, gap_seconds: gap, needs_more_seconds: 0,
      };
    }
    const seconds = Math.round(matrix.durations[from * matrix.size + to]);
    return {
      appointment_id: visit.id, practitioner_id: visit.practitionerId, previous_appointment_id: previous.id,
      travel_seconds_from_previous: seconds, travel_metres: Math.round(matrix.distances[from * matrix.size + to]),
      gap_seconds: gap, needs_more_seconds: Math.max(0, seconds - gap!),
    };
  });
}

/** Every visible practitioner's day (a PRACTITIONER: their own), or those of `practitionerIds`. */
export async function travelWarnings(ctx: AppContext, auth: AuthContext, date: string, practitionerIds?: number[]) {
  checkDay(date);
  const { businessAccountId } = auth;
  const scope = practitionerScope(auth);
  const wanted = practitionerIds?.length ? (scope ? practitionerIds.filter((id) => scope.includes(id)) : practitionerIds) : scope;
  const visits = await dayVisits(ctx.db, businessAccountId, wanted, dayBounds(date, await businessTimeZone(ctx.db, businessAccountId)));
  const provider = travelProviderFor(ctx.config);
  const byPractitioner = new Map<number, DayVisit[]>();
  for (const visit of visits) byPractitioner.set(visit.practitionerId, [...(byPractitioner.get(visit.practitionerId) ?? []), visit]);
  const days = await Promise.all([...byPractitioner.values()].map((own) => travelOfDay(own, (points) => provider.matrix(points))));
  return { date, travel: provider.name, appointments: days.flat() };
}
