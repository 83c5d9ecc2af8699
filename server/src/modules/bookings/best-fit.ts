// Best fit for a new visit (or one being rescheduled): every active practitioner who delivers its type and works that
// day, each priced as nearby search prices a candidate (nearby/service.ts): the visit placed in their day as it is by
// the optimiser's cheapest insertion (optimizations' insertion problem, in reassign mode), inside the window asked for
// and the client's availability. A preferred practitioner, or one who visited the client in the last 8 weeks, comes
// first when what they add is within 10 minutes of travel of the cheapest. A practitioner the client excluded is never
// named. Changes nothing.
import { and, eq, gte, inArray, isNull, lt, ne } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import type { AuthContext } from '../../auth/access';
import { businessTimeZone } from '../../db/business-time-zone';
import { appointments, appointmentTypes, clients, practitioners } from '../../db/schema';
import { clientPractitionerPreferences } from '../../db/schema-clients';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid, notFound } from '../../http/errors';
import { longDate } from '../../lib/long-date';
import { cheapestInsertion, type Problem, type TimeWindow, type TravelMatrix } from '../../optimizer';
import { insertionProblem, loadDay, placeOfInsertion, routingProblems } from '../optimizations';
import { fixedUntil, optimizationSettingsOf } from '../optimization-settings';
import { loadPractitionerDays } from '../practitioners';
import { availabilityWindows, checkDay, dayStartMs, issuesAddedTo, loadEditDay, travelProviderFor, type DayVisit } from '../schedule';

/** The hypothetical visit's id in the problem: appointments' ids start at 1. */
const NEW_VISIT = 0;
const CONTINUITY_WEEKS = 8;
/** How much more travel a preferred or familiar practitioner may add and still come first. */
const FAVOURED_WITHIN_SECONDS = 10 * 60;

type Fit = Schemas['BestFit'] & { cost: number };
type Other = Schemas['BestFitResult']['others'][number];

export async function findBestFit(ctx: AppContext, auth: AuthContext, body: BodyOf<'findBestFit'>): Promise<Schemas['BestFitResult']> {
  const { db } = ctx;
  const business = auth.businessAccountId;
  checkDay(body.date);
  const timeZone = await businessTimeZone(db, business);
  const [client] = await db.select().from(clients).where(and(eq(clients.business_account_id, business), eq(clients.id, body.client_id)));
  if (!client) throw notFound('Client');
  const [type] = await db.select().from(appointmentTypes).where(and(eq(appointmentTypes.business_account_id, business), eq(appointmentTypes.id, body.appointment_type_id)));
  if (!type) throw notFound('Appointment type');
  const clientName = `${client.first_name} ${client.last_name}`.trim();
  if (client.lat === null || client.lng === null) throw invalid(`client_id: ${clientName} has no map position (no address Rounds could place); add their address first.`);
  const durationMinutes = body.duration_minutes ?? type.duration;
  const zeroMs = dayStartMs(body.date, timeZone);
  // Only starts a visit can still be booked at: today, from the fixed-visit margin on (as POST /visits holds them).
  const earliest = Math.max(0, Math.ceil((fixedUntil(await optimizationSettingsOf(db, business)) - zeroMs) / 1000 / 300) * 300);
  const window = fromEarliest(windowOf(body, timeZone, zeroMs, durationMinutes), earliest);

  const preferences = await db.select().from(clientPractitionerPreferences).where(eq(clientPractitionerPreferences.client_id, client.id));
  const excluded = new Set(preferences.filter((row) => row.kind === 'excluded').map((row) => row.practitioner_id));
  const preferred = new Set(preferences.filter((row) => row.kind === 'preferred').map((row) => row.practitioner_id));
  const asked = body.practitioner_ids?.length ? [...new Set(body.practitioner_ids)] : null;
  const staff = await db.select({ id: practitioners.id }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, business), eq(practitioners.active, true), asked ? inArray(practitioners.id, asked) : undefined));
  if (asked && staff.length < asked.length) {
    const known = await db.select({ id: practitioners.id }).from(practitioners).where(and(eq(practitioners.business_account_id, business), inArray(practitioners.id, asked)));
    if (known.length < asked.length) throw notFound('Practitioner');
  }
  const days = (await loadPractitionerDays(db, business, staff.map((row) => row.id).filter((id) => !excluded.has(id)), body.date))
    .filter((day) => day.active && day.skills !== null && day.skills.includes(type.id));
  const dayFrom = new Date(zeroMs);
  const familiar = new Set((await db.selectDistinct({ id: appointments.practitioner_id }).from(appointments).where(and(
    eq(appointments.business_account_id, business), eq(appointments.client_id, client.id), isNull(appointments.cancelled_at),
    gte(appointments.starts_at, new Date(zeroMs - CONTINUITY_WEEKS * 7 * 86_400_000)), lt(appointments.starts_at, dayFrom),
    body.appointment_id === undefined ? undefined : ne(appointments.id, body.appointment_id),
  ))).map((row) => row.id));

  const noon = new Date(Temporal.PlainDate.from(body.date).toZonedDateTime({ timeZone, plainTime: '12:00' }).epochMilliseconds);
  const target: DayVisit = {
    id: NEW_VISIT, practitionerId: NEW_VISIT, practitionerName: '', clientId: client.id, clientName, clientTimeZone: client.time_zone,
    availability: client.availability, appointmentTypeId: type.id, startsAt: noon, endsAt: new Date(noon.getTime() + durationMinutes * 60_000),
    arriveAt: null, agreedStartsAt: noon, arrivalLocked: false, lat: client.lat, lng: client.lng, updatedAt: new Date(), excludedPractitionerIds: [...excluded],
  };
  const available = availabilityWindows(target, timeZone, zeroMs);
  const base = { date: body.date, duration_minutes: durationMinutes, window_start: body.window_start ?? null, window_end: body.window_end ?? null };
  if (available !== null && available.length === 0) {
    return { ...base, fits: [], others: [], message: `${clientName} is not available on ${longDate(body.date)}, so there is no time for a visit that day.` };
  }
  if (window && window.start > window.end) {
    return { ...base, fits: [], others: [], message: `It is too late today for ${body.window_start === undefined ? 'a visit' : `a visit between ${body.window_start} and ${body.window_end}`}: a visit can start from ${instantClock(zeroMs, earliest, timeZone)}.` };
  }
  const windows = narrowed(available, window);
  if (windows !== null && windows.length === 0) {
    const when = body.window_start === undefined ? 'for the rest of today' : `between ${body.window_start} and ${body.window_end} on ${longDate(body.date)}`;
    return { ...base, fits: [], others: [], message: `${clientName} is not available ${when}.` };
  }

  const others: Other[] = [];
  const audience = auth.role === 'ADMIN' ? 'admin' : 'staff';
  const routable = days.filter((day) => {
    const [problem] = day.onLeave || !day.hours ? [] : routingProblems(day, audience);
    if (day.onLeave) others.push({ practitioner_id: day.practitionerId, name: day.name, reason: `On leave${day.onLeave.reason ? ` (${day.onLeave.reason})` : ''}` });
    else if (!day.hours) others.push({ practitioner_id: day.practitionerId, name: day.name, reason: `Not working on ${Temporal.PlainDate.from(body.date).toLocaleString('en-AU', { weekday: 'long' })}s` });
    else if (problem) others.push({ practitioner_id: day.practitionerId, name: day.name, reason: problem });
    else return true;
    return false;
  });

  const fits: Fit[] = [];
  if (routable.length) {
    const day = await loadDay(db, business, { date: body.date, practitionerIds: routable.map((row) => row.practitionerId), mode: 'reassign', joiningClientId: client.id });
    const moving = body.appointment_id;
    const dayVisits = day.data.visits.filter((visit) => visit.id !== moving);
    for (const practitioner of day.data.practitioners) {
      const id = practitioner.practitionerId;
      const own = dayVisits.filter((visit) => visit.practitionerId === id);
      const data = {
        ...day.data, practitioners: [practitioner], visits: own,
        otherVisits: [...day.data.otherVisits.filter((visit) => visit.id !== moving), ...dayVisits.filter((visit) => visit.practitionerId !== id)],
      };
      const { dayProblem, current, matrix } = await insertionProblem(ctx, business, data, target, [id]);
      const problem = {
        ...dayProblem.problem,
        visits: dayProblem.problem.visits.map((visit) => {
          if (visit.id !== String(NEW_VISIT)) return visit;
          // A new visit has no time told to the client yet: no preferred start; the window narrows where it may go.
          const { preferredStart: _told, ...free } = visit;
          return window ? { ...free, timeWindows: narrowed(free.timeWindows?.length ? free.timeWindows : null, window)! } : free;
        }),
      };
      // No start keeps to the client's rules (their availability, the gap to their other visits): the problem keeps
      // such a visit where it is, with nobody.
      if (problem.visits.find((visit) => visit.id === String(NEW_VISIT))?.pinnedPractitionerId !== undefined) {
        others.push({ practitioner_id: id, name: practitioner.name, reason: `No time that day keeps to ${clientName}'s availability and the gap to their other visits` });
        continue;
      }
      const found = cheapestInsertion(problem, matrix, current, String(NEW_VISIT));
      // A day the optimiser finds infeasible as it is (visits booked closer than the travel between them) takes no
      // insertion at all: the visit still fits any gap that leaves its neighbours as they are.
      const place = found ? { ...placeOfInsertion(found, zeroMs), cost: found.cost } : gapInsertion(problem, matrix, current[0]?.visitIds ?? [], zeroMs);
      if (!place) {
        others.push({ practitioner_id: id, name: practitioner.name, reason: body.window_start !== undefined ? `No room between ${body.window_start} and ${body.window_end}` : 'No room in their day' });
        continue;
      }
      fits.push({
        practitioner_id: id, name: practitioner.name, color: practitioner.color, arrive_at: place.arrive_at,
        leave_at: new Date(Date.parse(place.arrive_at) + durationMinutes * 60_000).toISOString(),
        added_travel_seconds: place.added_travel_seconds, added_travel_metres: place.added_travel_metres, visits: own.length,
        continuity: familiar.has(id), preferred: preferred.has(id), warnings: [], cost: place.cost,
      });
    }
  }

  const ranked = rank(fits);
  const offered: Fit[] = [];
  // The day checker on each offered fit, the cheapest first: soft rules come back as warnings, a hard one moves it to others.
  const checkedDay = ranked.length ? await loadEditDay(db, business, body.date) : null;
  for (const fit of ranked) {
    if (offered.length >= (body.limit ?? 5)) break;
    const start = new Date(fit.arrive_at);
    const visit: DayVisit = { ...target, practitionerId: fit.practitioner_id, practitionerName: fit.name, startsAt: start, endsAt: new Date(fit.leave_at), arriveAt: start, agreedStartsAt: start };
    const added = await issuesAddedTo(db, checkedDay!, (now) => [
      ...now.filter((placement) => placement.visit.id !== body.appointment_id), { visit, practitionerId: fit.practitioner_id, start },
    ], new Map([[fit.practitioner_id, fit.name]]), travelProviderFor(ctx.config));
    if (added.hard.length > 0) {
      others.push({ practitioner_id: fit.practitioner_id, name: fit.name, reason: added.hard[0].message });
      continue;
    }
    offered.push({ ...fit, warnings: added.soft.map(({ rule, message }) => ({ rule, message })) });
  }
  const offeredIds = new Set(offered.map((fit) => fit.practitioner_id));
  for (const fit of ranked.slice(offered.length)) {
    if (!offeredIds.has(fit.practitioner_id) && !others.some((other) => other.practitioner_id === fit.practitioner_id)) {
      others.push({ practitioner_id: fit.practitioner_id, name: fit.name, reason: 'Costs more than the fits shown' });
    }
  }
  return {
    ...base,
    fits: offered.map(({ cost: _cost, ...fit }) => fit),
    others: others.sort((a, b) => a.name.localeCompare(b.name) || a.practitioner_id - b.practitioner_id),
    message: offered.length === 0 ? `No qualified practitioner has room for this visit on ${longDate(body.date)}${body.window_start !== undefined ? ` between ${body.window_start} and ${body.window_end}` : ''}.` : null,
  };
}

/** Cheapest first; a preferred or familiar practitioner within FAVOURED_WITHIN_SECONDS of the least added travel goes first. */
export function rank<T extends { cost: number; added_travel_seconds: number; preferred: boolean; continuity: boolean; practitioner_id: number }>(fits: T[]): T[] {
  const byCost = [...fits].sort((a, b) => a.cost - b.cost || a.added_travel_seconds - b.added_travel_seconds || a.practitioner_id - b.practitioner_id);
  const least = Math.min(...fits.map((fit) => fit.added_travel_seconds));
  const favoured = (fit: T) => (fit.preferred || fit.continuity) && fit.added_travel_seconds <= least + FAVOURED_WITHIN_SECONDS;
  return [...byCost.filter(favoured), ...byCost.filter((fit) => !favoured(fit))];
}

/** The window asked for, as the new visit's possible starts on the day's clock (seconds); null when none was asked. */
function windowOf(body: BodyOf<'findBestFit'>, timeZone: string, zeroMs: number, durationMinutes: number): TimeWindow | null {
  if (body.window_start === undefined && body.window_end === undefined) return null;
  if (body.window_start === undefined || body.window_end === undefined) throw invalid(`${body.window_start === undefined ? 'window_start' : 'window_end'}: give both ends of the window, or neither.`);
  const seconds = (clock: string) => (Temporal.PlainDate.from(body.date).toZonedDateTime({ timeZone, plainTime: clock }).epochMilliseconds - zeroMs) / 1000;
  const [start, end] = [seconds(body.window_start), seconds(body.window_end)];
  if (end <= start) throw invalid(`window_end must be after window_start (got ${body.window_start}–${body.window_end}).`);
  if (end - start < durationMinutes * 60) throw invalid(`window_end: the window ${body.window_start}–${body.window_end} is shorter than the visit (${durationMinutes} minutes).`);
  return { start, end: end - durationMinutes * 60 };
}

const STEP_SECONDS = 300;

/**
 * The gap of a practitioner's day (its visits where they are, in `order`) where the new visit adds the least travel,
 * starting on the 5-minute step inside its windows, reached from the visit (or start place) before and leaving time to
 * reach the one (or end place) after; null when no gap has room. Its cost is the travel it adds, priced as the
 * optimiser prices travel (the practitioner's cost per hour and per km), to rank beside the insertions it found.
 */
function gapInsertion(problem: Problem, matrix: TravelMatrix, order: string[], zeroMs: number) {
  const index = new Map(problem.visits.map((visit, k) => [visit.id, k]));
  const newIndex = index.get(String(NEW_VISIT))!;
  const visit = problem.visits[newIndex];
  const practitioner = problem.practitioners[0];
  const [startNode, endNode] = [problem.visits.length, problem.visits.length + 1];
  const leg = (from: number, to: number) => ({ seconds: matrix.durations[from * matrix.size + to], metres: matrix.distances[from * matrix.size + to] });
  const stops = order.map((id) => {
    const node = index.get(id)!;
    const start = problem.visits[node].pinnedStart!;
    return { node, start, end: start + problem.visits[node].duration };
  });
  const windows = visit.timeWindows?.length ? visit.timeWindows : [{ start: practitioner.shift.start, end: practitioner.shift.end }];
  let best: { start: number; position: number; seconds: number; metres: number } | null = null;
  for (let position = 0; position <= stops.length; position++) {
    const before = position === 0 ? { node: startNode, free: practitioner.shift.start } : { node: stops[position - 1].node, free: stops[position - 1].end };
    const after = position === stops.length ? { node: endNode, by: practitioner.shift.end } : { node: stops[position].node, by: stops[position].start };
    const [there, onward, direct] = [leg(before.node, newIndex), leg(newIndex, after.node), leg(before.node, after.node)];
    const latest = after.by - onward.seconds - visit.duration;
    for (const slot of windows) {
      const start = Math.ceil(Math.max(before.free + there.seconds, slot.start) / STEP_SECONDS) * STEP_SECONDS;
      if (start > Math.min(latest, slot.end)) continue;
      const seconds = there.seconds + onward.seconds - direct.seconds;
      if (!best || seconds < best.seconds) best = { start, position, seconds, metres: there.metres + onward.metres - direct.metres };
      break;
    }
  }
  if (!best) return null;
  return {
    arrive_at: new Date(zeroMs + best.start * 1000).toISOString(), added_travel_seconds: Math.round(best.seconds), added_travel_metres: Math.round(best.metres),
    cost: (best.seconds / 3600) * (practitioner.costPerHour ?? 60) + (best.metres / 1000) * (practitioner.costPerKm ?? 0),
  };
}

const instantClock = (zeroMs: number, seconds: number, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(zeroMs + seconds * 1000).toZonedDateTimeISO(timeZone).toPlainTime().toString({ smallestUnit: 'minute' });

/** The window held to starts at or after `earliest` (seconds on the day's clock; 0 on a day to come); null when any. */
function fromEarliest(window: TimeWindow | null, earliest: number): TimeWindow | null {
  if (earliest <= 0) return window;
  return window ? { start: Math.max(window.start, earliest), end: window.end } : { start: earliest, end: 48 * 3600 };
}

/** The starts allowed by both (null: any start). */
function narrowed(windows: TimeWindow[] | null, window: TimeWindow | null): TimeWindow[] | null {
  if (!window) return windows;
  if (!windows) return [window];
  return windows.filter((slot) => slot.end >= window.start && slot.start <= window.end)
    .map((slot) => ({ start: Math.max(slot.start, window.start), end: Math.min(slot.end, window.end) }));
}
