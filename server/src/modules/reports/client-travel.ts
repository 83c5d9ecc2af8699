// Client travel, for billing: each client's visits with the leg that brought the practitioner to them (the
// travel module's, read from the travel summary of ADR 0017: route legs where a route says them, else the
// optimiser's travel model; the first visit of a day is reached from the start place), the minutes claimable under
// the cap, and the kilometres at the rate. The cap is the report's cap_minutes (default 30), or regional_cap_minutes
// (default 60) for a regional client — a client with the tag "Regional" (any case), the way staff already mark
// clients; the amount of a visit is its km × rate, rounded to the cent, and a client's total is the sum of their
// visits'. Visits without a client, or whose client has no map point (no leg reaches them), are listed with no travel.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { loadPractitionerDays } from '../practitioners';
import { freshTravelSummary, LEGS_COUNTED } from '../travel';
import { pageMeta, reportFiltersOf, reportPageOf, type ReportQuery } from './filters';
import { summaryVisitsWhere, travelRangeOf } from './practitioner-travel';

type Row = Schemas['ClientTravelRow'];
type VisitRow = Schemas['ClientTravelVisit'];
export type ClientTravelReport = { rows: Row[]; meta: Schemas['PageMeta']; largest: Row[]; summary: Schemas['ClientTravelSummary'] };

export interface ClaimRules { capMinutes: number; regionalCapMinutes: number; ratePerKm: number }
export const DEFAULT_CLAIM_RULES: ClaimRules = { capMinutes: 30, regionalCapMinutes: 60, ratePerKm: 0.99 };
/** The tag that marks a client as regional (compared trimmed and in any case). */
export const REGIONAL_TAG = 'regional';

export type ClientTravelQuery = ReportQuery & { cap_minutes?: number; regional_cap_minutes?: number; rate_per_km?: number };

function rulesOf(query: ClientTravelQuery): ClaimRules {
  return {
    capMinutes: query.cap_minutes ?? DEFAULT_CLAIM_RULES.capMinutes,
    regionalCapMinutes: query.regional_cap_minutes ?? DEFAULT_CLAIM_RULES.regionalCapMinutes,
    ratePerKm: query.rate_per_km ?? DEFAULT_CLAIM_RULES.ratePerKm,
  };
}

/**
 * The counted client visits of the summary with whether their client is regional, the claimable seconds and the cents
 * (km × rate as a double, rounded half up: what JavaScript's Math.round does with the same arithmetic).
 */
function claimedVisits(businessAccountId: number, query: ClientTravelQuery, rules: ClaimRules, clientId?: number): SQL {
  const filters = reportFiltersOf(query);
  const range = travelRangeOf(filters);
  return sql`
    WITH regional AS (
      SELECT DISTINCT ct.client_id
      FROM client_tags ct JOIN tags t ON t.id = ct.tag_id AND t.business_account_id = ${businessAccountId}
      WHERE lower(btrim(t.name)) = ${REGIONAL_TAG}
    )
    SELECT v.*, (SELECT c.city FROM clients c WHERE c.id = v.client_id) AS client_suburb, (r.client_id IS NOT NULL) AS regional,
           CASE WHEN r.client_id IS NOT NULL THEN ${rules.regionalCapMinutes}::int ELSE ${rules.capMinutes}::int END AS cap_minutes,
           CASE WHEN v.in_seconds IS NULL THEN 0 ELSE least(v.in_seconds, 60 * CASE WHEN r.client_id IS NOT NULL THEN ${rules.regionalCapMinutes}::int ELSE ${rules.capMinutes}::int END) END AS claimable_seconds,
           coalesce(floor((v.in_metres::float8 / 1000) * ${rules.ratePerKm}::float8 * 100 + 0.5), 0) AS cents
    FROM travel_summary_visits v LEFT JOIN regional r ON r.client_id = v.client_id
    WHERE ${summaryVisitsWhere(businessAccountId, range, filters, filters.practitionerIds)} AND v.client_id IS NOT NULL
      ${clientId === undefined ? sql`` : sql`AND v.client_id = ${clientId}`}`;
}

/** The table's columns the server sorts by (the page's column ids) and what each sorts by. */
export const CLIENT_TRAVEL_SORTS = {
  client: sql`lower(client_name)`, suburb: sql`lower(client_suburb)`, regional: sql`regional`, visits: sql`visits`, without: sql`visits_without_travel`, minutes: sql`travel_seconds`,
  km: sql`travel_metres`, cap: sql`cap_minutes`, claimable: sql`claimable_seconds`, amount: sql`cents`,
} as const;
export type ClientTravelSort = keyof typeof CLIENT_TRAVEL_SORTS;
/** The chart's clients: the largest amounts. */
export const LARGEST_CLIENTS = 12;

interface Totals { clients: number; visits: number; travel_seconds: number; travel_metres: number; claimable_seconds: number; cents: number }

export async function clientTravel(
  ctx: AppContext, businessAccountId: number, query: ClientTravelQuery & { sort?: ClientTravelSort; direction?: 'asc' | 'desc'; page?: number; per_page?: number },
): Promise<ClientTravelReport> {
  const filters = reportFiltersOf(query);
  const rules = rulesOf(query);
  const range = travelRangeOf(filters);
  const page = reportPageOf(query);
  await freshTravelSummary(ctx.db, ctx.config, businessAccountId, range, filters.practitionerIds);
  // Per client over the counted visits (numbers only), then their names and whether they are regional (the claim
  // under either cap is added up and the client's own chosen); then, in the same statement, the totals over every
  // client, the page in the chosen order (empty last, ties by name) and the chart's largest amounts.
  const capped = (minutes: number) => sql`least(coalesce(v.in_seconds, 0), ${minutes * 60}::int)`;
  const order = sql`${CLIENT_TRAVEL_SORTS[query.sort ?? 'client']} ${page.descending ? sql`DESC` : sql`ASC`} NULLS LAST, lower(client_name), client_id`;
  const rowJson = sql`json_build_object('client_id', client_id, 'client_name', client_name, 'client_suburb', client_suburb, 'regional', regional, 'cap_minutes', cap_minutes,
    'visits', visits, 'visits_without_travel', visits_without_travel, 'travel_seconds', travel_seconds, 'travel_metres', travel_metres,
    'claimable_seconds', claimable_seconds, 'amount', round(cents::numeric / 100, 2))`;
  const [answer] = await queryRows<{ totals: Totals; page: Row[]; largest: Row[] }>(ctx.db, sql`
    WITH regional AS (
      SELECT DISTINCT ct.client_id
      FROM client_tags ct JOIN tags t ON t.id = ct.tag_id AND t.business_account_id = ${businessAccountId}
      WHERE lower(btrim(t.name)) = ${REGIONAL_TAG}
    ), per AS (
      SELECT v.client_id, count(*) AS visits, count(*) FILTER (WHERE v.in_seconds IS NULL) AS visits_without_travel,
             coalesce(sum(v.in_seconds), 0) AS travel_seconds, coalesce(sum(v.in_metres), 0) AS travel_metres,
             sum(${capped(rules.capMinutes)}) AS claimable_seconds, sum(${capped(rules.regionalCapMinutes)}) AS regional_claimable_seconds,
             coalesce(sum(floor((v.in_metres::float8 / 1000) * ${rules.ratePerKm}::float8 * 100 + 0.5)), 0)::bigint AS cents
      FROM travel_summary_visits v
      WHERE ${summaryVisitsWhere(businessAccountId, range, filters, filters.practitionerIds)} AND v.client_id IS NOT NULL
      GROUP BY v.client_id
    ), clients_of AS MATERIALIZED (
      SELECT per.client_id, coalesce(btrim(c.first_name || ' ' || c.last_name), '') AS client_name, c.city AS client_suburb, (r.client_id IS NOT NULL) AS regional,
             CASE WHEN r.client_id IS NOT NULL THEN ${rules.regionalCapMinutes}::int ELSE ${rules.capMinutes}::int END AS cap_minutes,
             per.visits, per.visits_without_travel, per.travel_seconds, per.travel_metres,
             CASE WHEN r.client_id IS NOT NULL THEN per.regional_claimable_seconds ELSE per.claimable_seconds END AS claimable_seconds, per.cents
      FROM per
      LEFT JOIN clients c ON c.id = per.client_id AND c.business_account_id = ${businessAccountId}
      LEFT JOIN regional r ON r.client_id = per.client_id
    )
    SELECT
      (SELECT json_build_object('clients', count(*), 'visits', coalesce(sum(visits), 0), 'travel_seconds', coalesce(sum(travel_seconds), 0),
         'travel_metres', coalesce(sum(travel_metres), 0), 'claimable_seconds', coalesce(sum(claimable_seconds), 0), 'cents', coalesce(sum(cents), 0))
       FROM clients_of) AS totals,
      (SELECT coalesce(json_agg(row ORDER BY n), '[]') FROM (
         SELECT ${rowJson} AS row, row_number() OVER (ORDER BY ${order}) AS n FROM clients_of
         ORDER BY ${order} ${page.perPage === null ? sql`` : sql`LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`}) p) AS page,
      (SELECT coalesce(json_agg(row ORDER BY n), '[]') FROM (
         SELECT ${rowJson} AS row, row_number() OVER (ORDER BY cents DESC, lower(client_name), client_id) AS n FROM clients_of
         WHERE cents > 0 ORDER BY cents DESC, lower(client_name), client_id LIMIT ${LARGEST_CLIENTS}) l) AS largest`);
  const { totals } = answer;
  return {
    rows: answer.page,
    meta: pageMeta(page, Number(totals.clients)),
    largest: answer.largest,
    summary: {
      clients: Number(totals.clients), visits: Number(totals.visits), travel_seconds: Number(totals.travel_seconds), travel_metres: Number(totals.travel_metres),
      claimable_seconds: Number(totals.claimable_seconds), amount: Number(totals.cents) / 100,
      cap_minutes: rules.capMinutes, regional_cap_minutes: rules.regionalCapMinutes, rate_per_km: rules.ratePerKm, legs_counted: LEGS_COUNTED,
    },
  };
}

interface VisitFigures {
  appointment_id: number; client_id: number; client_name: string | null; client_suburb: string | null; regional: boolean; day: string; starts_at: Date | string;
  practitioner_id: number; in_from_name: string | null; in_seconds: number | null; in_metres: number | null; in_source: 'route' | 'estimate' | null;
  claimable_seconds: string | number; cents: string | number;
}

/** Each counted client visit (the visits CSV), or one client's. */
export async function clientTravelVisits(ctx: AppContext, businessAccountId: number, query: ClientTravelQuery & { client_id?: number }): Promise<{ visits: VisitRow[] }> {
  const filters = reportFiltersOf(query);
  const range = travelRangeOf(filters);
  await freshTravelSummary(ctx.db, ctx.config, businessAccountId, range, filters.practitionerIds);
  const rows = await queryRows<VisitFigures>(ctx.db, sql`
    SELECT c.appointment_id, c.client_id, c.client_name, c.client_suburb, c.regional, to_char(c.day, 'YYYY-MM-DD') AS day, c.starts_at, c.practitioner_id,
           c.in_from_name, c.in_seconds, c.in_metres, c.in_source, c.claimable_seconds, c.cents
    FROM (${claimedVisits(businessAccountId, query, rulesOf(query), query.client_id)}) c`);
  const names = new Map((await loadPractitionerDays(ctx.db, businessAccountId, [...new Set(rows.map((row) => row.practitioner_id))], range.startDate))
    .map((practitioner) => [practitioner.practitionerId, practitioner.name]));
  const visits: VisitRow[] = rows.map((row) => ({
    appointment_id: row.appointment_id, client_id: row.client_id, client_name: row.client_name ?? '', client_suburb: row.client_suburb, regional: row.regional, day: row.day,
    starts_at: new Date(row.starts_at).toISOString(), practitioner_id: row.practitioner_id,
    practitioner_name: names.get(row.practitioner_id) ?? `Practitioner ${row.practitioner_id}`,
    from_name: row.in_from_name, travel_seconds: row.in_seconds, travel_metres: row.in_metres, source: row.in_source,
    claimable_seconds: Number(row.claimable_seconds), amount: Number(row.cents) / 100,
  }));
  visits.sort((a, b) => a.client_name.localeCompare(b.client_name) || a.client_id - b.client_id || a.starts_at.localeCompare(b.starts_at) || a.appointment_id - b.appointment_id);
  return { visits };
}
