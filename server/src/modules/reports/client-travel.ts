// Client travel, for billing: each client's visits with the leg that brought the practitioner to them (the
// travel-legs module's: route legs where a route says them, else the optimiser's travel model; the first visit of a
// day is reached from the start place), the minutes claimable under the cap, and the kilometres at the rate. The
// cap is the report's cap_minutes (default 30), or regional_cap_minutes (default 60) for a regional client — a client
// with the tag "Regional" (any case), the way staff already mark clients; the amount of a visit is its km × rate,
// rounded to the cent, and a client's total is the sum of their visits'. Visits without a client, or whose client
// has no map point (no leg reaches them), are listed with no travel.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { travelProviderFor } from '../optimizations';
import { LEGS_COUNTED, travelDays, type TravelLeg } from '../travel-legs';
import { reportFiltersOf, type ReportQuery } from './filters';
import { countsVisit, travelRangeOf } from './practitioner-travel';

type Row = Schemas['ClientTravelRow'];
type VisitRow = Schemas['ClientTravelVisit'];
export type ClientTravelReport = { rows: Row[]; visits: VisitRow[]; summary: Schemas['ClientTravelSummary'] };

export interface ClaimRules { capMinutes: number; regionalCapMinutes: number; ratePerKm: number }
export const DEFAULT_CLAIM_RULES: ClaimRules = { capMinutes: 30, regionalCapMinutes: 60, ratePerKm: 0.99 };
/** The tag that marks a client as regional (compared trimmed and in any case). */
export const REGIONAL_TAG = 'regional';

async function regionalClients(ctx: AppContext, businessAccountId: number, clientIds: number[]): Promise<Set<number>> {
  if (clientIds.length === 0) return new Set();
  const rows = await queryRows<{ client_id: number }>(ctx.db, sql`
    SELECT DISTINCT ct.client_id
    FROM client_tags ct
    JOIN tags t ON t.id = ct.tag_id AND t.business_account_id = ${businessAccountId}
    JOIN clients c ON c.id = ct.client_id AND c.business_account_id = ${businessAccountId}
    WHERE lower(btrim(t.name)) = ${REGIONAL_TAG} AND ct.client_id = ANY(${`{${clientIds.join(',')}}`}::int[])`);
  return new Set(rows.map((row) => row.client_id));
}

/** Cents of `metres` at `ratePerKm` dollars a kilometre. */
const centsOf = (metres: number, ratePerKm: number) => Math.round((metres / 1000) * ratePerKm * 100);

export type ClientTravelQuery = ReportQuery & { cap_minutes?: number; regional_cap_minutes?: number; rate_per_km?: number };

export async function clientTravel(ctx: AppContext, businessAccountId: number, query: ClientTravelQuery): Promise<ClientTravelReport> {
  const filters = reportFiltersOf(query);
  const rules: ClaimRules = {
    capMinutes: query.cap_minutes ?? DEFAULT_CLAIM_RULES.capMinutes,
    regionalCapMinutes: query.regional_cap_minutes ?? DEFAULT_CLAIM_RULES.regionalCapMinutes,
    ratePerKm: query.rate_per_km ?? DEFAULT_CLAIM_RULES.ratePerKm,
  };
  const range = travelRangeOf(filters);
  const counts = countsVisit(filters);
  const days = await travelDays(ctx.db, travelProviderFor(ctx.config), businessAccountId, { ...range, practitionerIds: filters.practitionerIds });
  const clientIds = [...new Set(days.flatMap((day) => day.visits.flatMap((visit) => (visit.clientId === null ? [] : [visit.clientId]))))];
  const regional = await regionalClients(ctx, businessAccountId, clientIds);

  const report: ClientTravelReport = {
    rows: [], visits: [],
    summary: {
      clients: 0, visits: 0, travel_seconds: 0, travel_metres: 0, claimable_seconds: 0, amount: 0,
      cap_minutes: rules.capMinutes, regional_cap_minutes: rules.regionalCapMinutes, rate_per_km: rules.ratePerKm, legs_counted: LEGS_COUNTED,
    },
  };
  const rowOf = new Map<number, Row & { cents: number }>();
  for (const day of days) {
    const inbound = new Map<number, TravelLeg>();
    for (const leg of day.legs) if (leg.toAppointmentId !== null) inbound.set(leg.toAppointmentId, leg);
    for (const visit of day.visits) {
      if (visit.clientId === null || !counts(visit)) continue;
      const isRegional = regional.has(visit.clientId);
      const cap = (isRegional ? rules.regionalCapMinutes : rules.capMinutes) * 60;
      const leg = inbound.get(visit.id);
      const cents = leg ? centsOf(leg.metres, rules.ratePerKm) : 0;
      const claimable = leg ? Math.min(leg.seconds, cap) : 0;
      report.visits.push({
        appointment_id: visit.id, client_id: visit.clientId, client_name: visit.clientName ?? '', regional: isRegional,
        day: day.day, starts_at: visit.startsAt.toISOString(), practitioner_id: day.practitionerId, practitioner_name: day.practitionerName,
        from_name: leg?.fromName ?? null, travel_seconds: leg?.seconds ?? null, travel_metres: leg?.metres ?? null, source: leg?.source ?? null,
        claimable_seconds: claimable, amount: cents / 100,
      });
      let row = rowOf.get(visit.clientId);
      if (!row) {
        row = {
          client_id: visit.clientId, client_name: visit.clientName ?? '', regional: isRegional, cap_minutes: cap / 60, visits: 0,
          visits_without_travel: 0, travel_seconds: 0, travel_metres: 0, claimable_seconds: 0, amount: 0, cents: 0,
        };
        rowOf.set(visit.clientId, row);
      }
      row.visits += 1;
      if (!leg) row.visits_without_travel += 1;
      row.travel_seconds += leg?.seconds ?? 0;
      row.travel_metres += leg?.metres ?? 0;
      row.claimable_seconds += claimable;
      row.cents += cents;
    }
  }
  let totalCents = 0;
  for (const { cents, ...row } of [...rowOf.values()].sort((a, b) => a.client_name.localeCompare(b.client_name) || a.client_id - b.client_id)) {
    report.rows.push({ ...row, amount: cents / 100 });
    totalCents += cents;
    report.summary.visits += row.visits;
    report.summary.travel_seconds += row.travel_seconds;
    report.summary.travel_metres += row.travel_metres;
    report.summary.claimable_seconds += row.claimable_seconds;
  }
  report.visits.sort((a, b) => a.client_name.localeCompare(b.client_name) || a.client_id - b.client_id || a.starts_at.localeCompare(b.starts_at) || a.appointment_id - b.appointment_id);
  report.summary.clients = report.rows.length;
  report.summary.amount = totalCents / 100;
  return report;
}
