// The travel summary (ADR 0017): the legs of each practitioner-day (./legs), kept in two tables so reports over
// many days add up rows. Triggers (migration 0064) move a day's version when anything its figures depend on
// changes; freshTravelSummary() recomputes the stale days of a range, with the one travelDays() of ./legs, before a report reads the tables. A day is stored only if its version did not move meanwhile; one
// that did (a writer committed while it was computed) is computed again, so a report never reads figures older than
// the data it started from.
import type { AvailabilityEntry } from '../../db/schema';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { Config } from '../../config';
import { businessTimeZone } from '../../db/business-time-zone';
import { availabilityWindows, dayStartMs, secondsOf, startsOutside, type DayVisit } from '../schedule';
import { loadPractitionerDays } from '../practitioners';
import { travelDays, type LegVisit, type TravelDay } from './legs';
import { travelProviderFor } from '../schedule';
import { dayTotals, staleDays, storeDays, type SummaryDay, type SummaryDayTotals, type SummaryVisit } from './summary-repository';
import { travelOfOrderedVisits } from './warnings';

/** The travel model the figures were computed with: a summary of another model is stale. */
export const travelModelOf = (config: Pick<Config, 'osrmUrl'>) => (config.osrmUrl ? `osrm ${config.osrmUrl}` : 'haversine');

/** Rounds of recomputing when writers keep moving the same days (each round computes only what moved). */
const MAX_ROUNDS = 4;
/** Practitioner-days computed and stored together (a month of a large business is computed in parts). */
const DAYS_AT_ONCE = 2000;

const arrivalOf = (visit: LegVisit) => (visit.arriveAt ?? visit.startsAt).getTime();
const durationOf = (visit: LegVisit) => visit.endsAt.getTime() - visit.startsAt.getTime();

/**
 * A working day runs from leaving the start place (the first visit's arrival less the first leg) to reaching the end
 * place (the last visit's end plus the last leg); without those places, from the first arrival to the last visit's end.
 */
export function workingSecondsOf(day: TravelDay): number {
  const startLeg = day.legs.find((leg) => leg.kind === 'start');
  const endLeg = day.legs.find((leg) => leg.kind === 'end');
  const from = arrivalOf(day.visits[0]) - (startLeg ? startLeg.seconds * 1000 : 0);
  const lastEnd = Math.max(...day.visits.map((visit) => arrivalOf(visit) + durationOf(visit)));
  return Math.round((lastEnd + (endLeg ? endLeg.seconds * 1000 : 0) - from) / 1000);
}

/** A client's availability now and before each day it was changed on (client_past_availabilities, by valid_until). */
type ClientAvailability = { time_zone: string | null; availability: AvailabilityEntry[]; past: { valid_until: string; availability: AvailabilityEntry[] }[] };

/** The availability in force when a visit starts: the first kept before a later change, else the current one. */
const availabilityAt = (client: ClientAvailability, startsAt: Date): AvailabilityEntry[] =>
  client.past.find((period) => startsAt.getTime() < Date.parse(period.valid_until))?.availability ?? client.availability;

/** Brings the summary of the range (the practitioners', or everyone's when empty) up to date with the data. */
export async function freshTravelSummary(
  db: Db, config: Pick<Config, 'osrmUrl'>, businessAccountId: number, range: { startDate: string; endDate: string }, practitionerIds: readonly number[],
): Promise<void> {
  const model = travelModelOf(config);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const stale = await staleDays(db, businessAccountId, range, practitionerIds, model);
    if (stale.length === 0) return;
    stale.sort((a, b) => a.practitionerId - b.practitionerId || a.day.localeCompare(b.day));
    for (let from = 0; from < stale.length; from += DAYS_AT_ONCE) {
      const part = stale.slice(from, from + DAYS_AT_ONCE);
      await storeDays(db, businessAccountId, model, await summariseDays(db, config, businessAccountId, part));
    }
  }
}

async function summariseDays(db: Db, config: Pick<Config, 'osrmUrl'>, businessAccountId: number, stale: { practitionerId: number; day: string; version: number }[]): Promise<SummaryDay[]> {
  const days = stale.map((row) => row.day).sort();
  const practitionerIds = [...new Set(stale.map((row) => row.practitionerId))];
  const onlyDays = new Set(stale.map((row) => `${row.practitionerId} ${row.day}`));
  const travel = await travelDays(db, travelProviderFor(config), businessAccountId, {
    startDate: days[0], endDate: days.at(-1)!, practitionerIds, onlyDays,
  });
  const clientIds = [...new Set(travel.flatMap((day) => day.visits.flatMap((visit) => (visit.clientId === null ? [] : [visit.clientId]))))];
  const [availability, practitioners, timeZone] = await Promise.all([
    clientIds.length === 0 ? [] : queryRows<ClientAvailability & { id: number }>(db, sql`
      SELECT c.id, c.time_zone, c.availability, coalesce(past.periods, '[]') AS past
      FROM clients c
      LEFT JOIN LATERAL (
        SELECT json_agg(json_build_object('valid_until', p.valid_until, 'availability', p.availability) ORDER BY p.valid_until) AS periods
        FROM client_past_availabilities p WHERE p.client_id = c.id) past ON true
      WHERE c.business_account_id = ${businessAccountId} AND (jsonb_array_length(c.availability) > 0 OR past.periods IS NOT NULL)
        AND c.id = ANY(${`{${clientIds.join(',')}}`}::int[])`),
    loadPractitionerDays(db, businessAccountId, practitionerIds, days[0]),
    businessTimeZone(db, businessAccountId),
  ]);
  const clientAvailability = new Map(availability.map((client) => [client.id, client]));
  const practitionerTimeZone = new Map(practitioners.map((practitioner) => [practitioner.practitionerId, practitioner.timeZone]));
  const computed = new Map(travel.map((day) => [`${day.practitionerId} ${day.day}`, day]));
  return stale.map((row) => {
    const day = computed.get(`${row.practitionerId} ${row.day}`);
    if (!day) return { ...row, workingSeconds: 0, visits: [] };
    const zeroMs = dayStartMs(day.day, timeZone);
    const punctual = (visit: LegVisit) => {
      const client = visit.clientId === null ? undefined : clientAvailability.get(visit.clientId);
      if (!client) return true;
      const dayVisit: DayVisit = { ...visit, practitionerName: '', clientTimeZone: client.time_zone, availability: availabilityAt(client, visit.startsAt), agreedStartsAt: visit.startsAt, arrivalLocked: false, updatedAt: visit.startsAt };
      const windows = availabilityWindows(dayVisit, practitionerTimeZone.get(day.practitionerId) ?? timeZone, zeroMs);
      return !startsOutside(windows, secondsOf(visit.arriveAt ?? visit.startsAt, zeroMs));
    };
    const byId = new Map(day.visits.map((visit) => [visit.id, visit]));
    const inbound = new Map(day.legs.filter((leg) => leg.toAppointmentId !== null).map((leg) => [leg.toAppointmentId!, leg]));
    const home = day.legs.find((leg) => leg.kind === 'end');
    // day.visits are in order of arrival, then id (legsOfDay's order), as the warning rule reads them.
    const shortfall = new Map(travelOfOrderedVisits(day.visits, day.legs).map((travel) => [travel.appointment_id, travel.needs_more_seconds]));
    const visits = day.visits.map((visit): SummaryVisit => {
      const leg = inbound.get(visit.id);
      const from = leg?.kind === 'between' ? byId.get(leg.fromAppointmentId!)! : null;
      // Idle: between two visits in a row, the time beyond the leg between them.
      const idle = from && leg ? Math.max(0, Math.round((arrivalOf(visit) - (arrivalOf(from) + durationOf(from))) / 1000) - leg.seconds) : null;
      const out = home?.fromAppointmentId === visit.id ? home : null;
      return {
        appointmentId: visit.id, clientId: visit.clientId, clientName: visit.clientName, appointmentTypeId: visit.appointmentTypeId,
        businessLocationId: visit.businessLocationId, startsAt: visit.startsAt, visitMs: durationOf(visit),
        located: visit.lat !== null && visit.lng !== null, punctual: punctual(visit),
        inFromName: leg?.fromName ?? null, inSeconds: leg?.seconds ?? null, inMetres: leg?.metres ?? null, inSource: leg?.source ?? null, inIdleSeconds: idle,
        outSeconds: out?.seconds ?? null, outMetres: out?.metres ?? null, outSource: out?.source ?? null,
        needsMoreSeconds: shortfall.get(visit.id) ?? 0,
      };
    });
    return { ...row, workingSeconds: workingSecondsOf(day), visits };
  });
}

/**
 * Every practitioner-day of the range with visits (fresh first): visits, their booked and travel time, how many are
 * outside their client's availability and how many have a travel warning (the dashboard's tiles).
 */
export async function summaryDayTotals(
  db: Db, config: Pick<Config, 'osrmUrl'>, businessAccountId: number, range: { startDate: string; endDate: string },
): Promise<SummaryDayTotals[]> {
  await freshTravelSummary(db, config, businessAccountId, range, []);
  return dayTotals(db, businessAccountId, range);
}
