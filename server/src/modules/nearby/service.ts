// Nearby search (/search): from a point or a client, the clients within a radius and which practitioner could take a
// new visit there on a day. The visit does not exist: it is placed in each candidate practitioner's day as it is by
// the optimiser's cheapest insertion, on the problem "Insert into a route" builds (optimizations module), so both
// answer alike. Candidates: practitioners with a visit within the radius that day, and those whose start place is
// within it and who work that day.
import { Temporal } from 'temporal-polyfill';
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid, notFound } from '../../http/errors';
import { cheapestInsertion, type Location } from '../../optimizer';
import { insertionProblem, loadDay, placeOfInsertion, routingProblems } from '../optimizations';
import { availabilityWindows, checkDay, dayBounds, dayStartMs, type DayVisit } from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { loadPractitionerDays } from '../practitioners';
import {
  appointmentTypeMinutes, findClient, nearbyClients, practitionerStartDistances, practitionersWithVisitsNear, type Origin,
} from './repository';
import { longDate } from '../../lib/long-date';

export interface NearbyQuery {
  lat?: number;
  lng?: number;
  client_id?: number;
  radius_km?: number;
  date?: string;
  duration_minutes?: number;
  appointment_type_id?: number;
}

export type NearbySearchDto = Schemas['NearbySearch'];
type NearbyPractitionerDto = Schemas['NearbyPractitioner'];

export const CLIENTS_LIMIT = 50;
/** At most this many practitioners are priced, the nearest first (each is one insertion on their own day). */
export const CANDIDATES_LIMIT = 30;
/** The hypothetical visit's id in the problem: appointments' ids start at 1. */
const NEW_VISIT = 0;


export async function searchNearby(ctx: AppContext, auth: AuthContext, query: NearbyQuery): Promise<NearbySearchDto> {
  const { db } = ctx;
  const business = auth.businessAccountId;
  const timeZone = await businessTimeZone(db, business);

  let origin: Origin;
  let client: Awaited<ReturnType<typeof findClient>>;
  if (query.client_id !== undefined) {
    if (query.lat !== undefined || query.lng !== undefined) throw invalid('client_id: search from a client or from lat and lng, not both.');
    client = await findClient(db, business, query.client_id);
    if (!client) throw notFound('Client');
    if (client.lat === null || client.lng === null) {
      throw invalid(`client_id: ${client.name}'s address has no map position; fix it on the client, or search from an address.`);
    }
    origin = { lat: client.lat, lng: client.lng };
  } else {
    if (query.lat === undefined || query.lng === undefined) throw invalid(`${query.lat === undefined ? 'lat' : 'lng'}: give client_id, or lat and lng.`);
    origin = { lat: query.lat, lng: query.lng };
  }
  const date = query.date ?? Temporal.Now.plainDateISO(timeZone).add({ days: 1 }).toString();
  checkDay(date);
  const radiusMetres = Math.round((query.radius_km ?? 20) * 1000);
  const type = await appointmentTypeMinutes(db, business, query.appointment_type_id);
  if (query.appointment_type_id !== undefined && !type) throw invalid('appointment_type_id: no such appointment type in this business.');
  const durationMinutes = query.duration_minutes ?? type?.duration ?? 60;

  const [clientRows, visitsNear, startDistance] = await Promise.all([
    nearbyClients(db, business, origin, radiusMetres, CLIENTS_LIMIT),
    practitionersWithVisitsNear(db, business, origin, radiusMetres, dayBounds(date, timeZone)),
    practitionerStartDistances(db, business, origin),
  ]);

  // Candidates: active and routable that day, with a visit within the radius or their start place within it (and
  // hours that day); the nearest first. Only the nearest are resolved, a batch at a time, until there are enough.
  const nearest = new Map(visitsNear);
  for (const [id, metres] of startDistance) if (metres <= radiusMetres) nearest.set(id, Math.min(nearest.get(id) ?? Infinity, metres));
  // A practitioner the client asked not to be visited by is never suggested.
  const excluded = new Set(client?.excluded_practitioner_ids ?? []);
  const ordered = [...nearest].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([id]) => id).filter((id) => !excluded.has(id));
  const candidateIds: number[] = [];
  for (let from = 0; from < ordered.length && candidateIds.length < CANDIDATES_LIMIT; from += CANDIDATES_LIMIT * 2) {
    const days = await loadPractitionerDays(db, business, ordered.slice(from, from + CANDIDATES_LIMIT * 2), date);
    for (const day of days) {
      if (candidateIds.length >= CANDIDATES_LIMIT || !day.active || routingProblems(day).length > 0) continue;
      // Only a practitioner known to deliver the visit's type (any known qualifications when no type is asked for):
      // unknown qualifications are never read as "every type".
      if (day.skills === null || (type && query.appointment_type_id !== undefined && !day.skills.includes(type.id))) continue;
      if (visitsNear.has(day.practitionerId) || day.shift) candidateIds.push(day.practitionerId);
    }
  }

  const zeroMs = dayStartMs(date, timeZone);
  const noon = new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone, plainTime: '12:00' }).epochMilliseconds);
  const target: DayVisit = {
    id: NEW_VISIT, practitionerId: NEW_VISIT, practitionerName: '', clientId: client?.id ?? null, clientName: client?.name ?? null,
    clientTimeZone: client?.time_zone ?? null, availability: client?.availability ?? [], appointmentTypeId: type && query.appointment_type_id !== undefined ? type.id : null,
    startsAt: noon, endsAt: new Date(noon.getTime() + durationMinutes * 60_000), arriveAt: null, agreedStartsAt: noon, arrivalLocked: false,
    lat: origin.lat, lng: origin.lng, updatedAt: new Date(), excludedPractitionerIds: [...excluded],
  };
  const windows = availabilityWindows(target, timeZone, zeroMs);
  const unavailable = windows !== null && windows.length === 0;

  const practitioners: (NearbyPractitionerDto & { cost: number })[] = [];
  if (candidateIds.length) {
    const day = await loadDay(db, business, { date, practitionerIds: candidateIds, mode: 'reassign', joiningClientId: client?.id });
    for (const practitioner of day.data.practitioners) {
      const own = day.data.visits.filter((visit) => visit.practitionerId === practitioner.practitionerId);
      // The other candidates' visits stay where they are: the client's among them bound the new visit's time.
      const theirs = day.data.visits.filter((visit) => visit.practitionerId !== practitioner.practitionerId);
      const data = { ...day.data, practitioners: [practitioner], visits: own, otherVisits: [...day.data.otherVisits, ...theirs] };
      const booked = own.reduce((sum, visit) => sum + (visit.endsAt.getTime() - visit.startsAt.getTime()) / 60_000, 0);
      const shift = practitioner.shift!;
      const entry = {
        practitioner_id: practitioner.practitionerId, name: practitioner.name, color: practitioner.color, visits: own.length,
        start_distance_metres: Math.round(startDistance.get(practitioner.practitionerId) ?? 0),
        free_minutes: Math.max(0, Math.round((shift.end - shift.start) / 60 - booked)),
      };
      const { dayProblem, current, matrix } = await insertionProblem(ctx, business, data, target, [practitioner.practitionerId]);
      const places = new Map<string, Location>(dayProblem.problem.visits.map((visit) => [visit.id, visit.location]));
      const start = dayProblem.problem.practitioners[0].startLocation;
      const end = dayProblem.problem.practitioners[0].endLocation;
      // A new visit has no time told to the client yet: no preferred start; nor a client unavailable all day.
      const found = unavailable ? null : cheapestInsertion({
        ...dayProblem.problem,
        visits: dayProblem.problem.visits.map((visit) => {
          if (visit.id !== String(NEW_VISIT)) return visit;
          const { preferredStart: _told, ...free } = visit;
          return free;
        }),
      }, matrix, current, String(NEW_VISIT));
      const order = found ? found.route.stops.map((stop) => stop.visitId) : current[0].visitIds;
      const path = [start, ...order.map((id) => places.get(id)), end].flatMap((point) => (point ? [{ lat: point.lat, lng: point.lng }] : []));
      if (!found) {
        practitioners.push({ ...entry, insertion: null, path, cost: Infinity });
        continue;
      }
      const place = placeOfInsertion(found, zeroMs);
      practitioners.push({
        ...entry,
        insertion: { ...place, leave_at: new Date(Date.parse(place.arrive_at) + durationMinutes * 60_000).toISOString() },
        path,
        cost: found.cost,
      });
    }
  }
  // Cheapest first (the optimiser's objective), then less added travel; those with no room last, nearest first.
  practitioners.sort((a, b) => a.cost - b.cost
    || (a.insertion?.added_travel_seconds ?? 0) - (b.insertion?.added_travel_seconds ?? 0)
    || a.start_distance_metres - b.start_distance_metres || a.practitioner_id - b.practitioner_id);

  return {
    origin: { lat: origin.lat, lng: origin.lng, client_id: client?.id ?? null, label: client?.name ?? null },
    date,
    radius_metres: radiusMetres,
    duration_minutes: durationMinutes,
    clients: clientRows.map((row) => ({ ...row, tags: row.tags ?? [] })),
    practitioners: practitioners.map(({ cost: _cost, ...rest }) => rest),
    message: unavailable ? `${client?.name ?? 'The client'} is not available on ${longDate(date)}, so there is no time for a visit that day.` : null,
  };
}
