// The SQL of the travel summary (migration 0064): which practitioner-days are stale, and storing a day's figures
// only when nothing moved its version while they were computed. Every query is scoped to the business.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

export interface StaleDay { practitionerId: number; day: string; version: number }

export interface SummaryVisit {
  appointmentId: number; clientId: number | null; clientName: string | null; appointmentTypeId: number | null; businessLocationId: number | null;
  startsAt: Date; visitMs: number; located: boolean; punctual: boolean;
  inFromName: string | null; inSeconds: number | null; inMetres: number | null; inSource: string | null; inIdleSeconds: number | null;
  outSeconds: number | null; outMetres: number | null; outSource: string | null;
  /** The day schedule's travel warning: how much longer the leg from the visit before is than the time between them. */
  needsMoreSeconds: number;
}

export interface SummaryDay extends StaleDay { workingSeconds: number; visits: SummaryVisit[] }

const idsIn = (column: SQL, ids: readonly number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);

/** The practitioner-days of the range whose figures are missing, older than their version, or of another travel model. */
export async function staleDays(
  db: Db, businessAccountId: number, range: { startDate: string; endDate: string }, practitionerIds: readonly number[], model: string,
): Promise<StaleDay[]> {
  const rows = await queryRows<{ practitioner_id: number; day: string; version: string | number }>(db, sql`
    SELECT d.practitioner_id, to_char(d.day, 'YYYY-MM-DD') AS day, d.version
    FROM travel_summary_days d
    WHERE d.business_account_id = ${businessAccountId} AND d.day BETWEEN ${range.startDate}::date AND ${range.endDate}::date
      ${idsIn(sql`d.practitioner_id`, practitionerIds)}
      AND (d.computed_version IS DISTINCT FROM d.version OR d.model IS DISTINCT FROM ${model})`);
  return rows.map((row) => ({ practitionerId: row.practitioner_id, day: row.day, version: Number(row.version) }));
}

const INSERT_BATCH = 1000;

/**
 * A practitioner-day's totals over some of its visits (`v`: travel_summary_visits rows): a leg counts with the visit
 * it reaches (the leg home: with the visit it leaves). Stored per day for all visits; added up over the chosen ones
 * when a report filters by type or location.
 */
export const DAY_TOTALS = sql.raw(`count(*) AS visits, round(sum(v.visit_ms) / 1000.0) AS visit_seconds,
  coalesce(sum(v.in_seconds), 0) + coalesce(sum(v.out_seconds), 0) AS travel_seconds,
  coalesce(sum(v.in_metres), 0) + coalesce(sum(v.out_metres), 0) AS travel_metres,
  count(*) FILTER (WHERE v.in_source = 'route') + count(*) FILTER (WHERE v.out_source = 'route') AS route_legs,
  count(*) FILTER (WHERE v.in_source = 'estimate') + count(*) FILTER (WHERE v.out_source = 'estimate') AS estimate_legs,
  count(*) FILTER (WHERE NOT v.located) AS unlocated_visits,
  coalesce(sum(v.in_idle_seconds), 0) AS idle_seconds, count(*) FILTER (WHERE v.punctual) AS punctual_visits,
  count(*) FILTER (WHERE v.needs_more_seconds > 0) AS short_legs`);

/**
 * Stores the days' figures (a day without visits: its rows go) where the row's version is still the one read before
 * computing. Rows a writer holds are skipped, not waited for: the writer is moving their version anyway.
 */
export async function storeDays(db: Db, businessAccountId: number, model: string, days: readonly SummaryDay[]): Promise<number> {
  if (days.length === 0) return 0;
  return db.transaction(async (tx) => {
    const ints = (values: readonly (number | string)[]) => `{${values.join(',')}}`;
    const locked = await queryRows<{ practitioner_id: number; day: string }>(tx, sql`
      SELECT d.practitioner_id, to_char(d.day, 'YYYY-MM-DD') AS day
      FROM travel_summary_days d
      JOIN unnest(${ints(days.map((day) => day.practitionerId))}::int[], ${ints(days.map((day) => day.day))}::date[], ${ints(days.map((day) => day.version))}::bigint[])
        AS w (practitioner_id, day, version)
        ON d.practitioner_id = w.practitioner_id AND d.day = w.day AND d.version = w.version
      WHERE d.business_account_id = ${businessAccountId}
      ORDER BY d.day, d.practitioner_id
      FOR UPDATE OF d SKIP LOCKED`);
    if (locked.length === 0) return 0;
    const accepted = new Set(locked.map((row) => `${row.practitioner_id} ${row.day}`));
    const kept = days.filter((day) => accepted.has(`${day.practitionerId} ${day.day}`));
    const pairsOf = (of: readonly SummaryDay[]) => sql`unnest(${ints(of.map((day) => day.practitionerId))}::int[], ${ints(of.map((day) => day.day))}::date[])`;
    await tx.execute(sql`
      DELETE FROM travel_summary_visits v USING ${pairsOf(kept)} AS p (practitioner_id, day)
      WHERE v.business_account_id = ${businessAccountId} AND v.practitioner_id = p.practitioner_id AND v.day = p.day`);
    const empty = kept.filter((day) => day.visits.length === 0);
    if (empty.length) {
      await tx.execute(sql`
        DELETE FROM travel_summary_days d USING ${pairsOf(empty)} AS p (practitioner_id, day)
        WHERE d.business_account_id = ${businessAccountId} AND d.practitioner_id = p.practitioner_id AND d.day = p.day`);
    }
    const full = kept.filter((day) => day.visits.length > 0);
    if (full.length) {
      await tx.execute(sql`
        UPDATE travel_summary_days d SET computed_version = d.version, model = ${model}, working_seconds = w.working_seconds
        FROM unnest(${ints(full.map((day) => day.practitionerId))}::int[], ${ints(full.map((day) => day.day))}::date[], ${ints(full.map((day) => day.workingSeconds))}::int[])
          AS w (practitioner_id, day, working_seconds)
        WHERE d.business_account_id = ${businessAccountId} AND d.practitioner_id = w.practitioner_id AND d.day = w.day`);
    }
    const visits = full.flatMap((day) => day.visits.map((visit) => ({ day, visit })));
    for (let from = 0; from < visits.length; from += INSERT_BATCH) {
      const values = visits.slice(from, from + INSERT_BATCH).map(({ day, visit }) => sql`(
        ${businessAccountId}, ${day.day}::date, ${day.practitionerId}, ${visit.appointmentId}, ${visit.clientId}::int, ${visit.clientName}::text,
        ${visit.appointmentTypeId}::int, ${visit.businessLocationId}::int, ${visit.startsAt.toISOString()}::timestamptz, ${visit.visitMs}::bigint,
        ${visit.located}, ${visit.punctual}, ${visit.inFromName}::text, ${visit.inSeconds}::int, ${visit.inMetres}::int, ${visit.inSource}::text,
        ${visit.inIdleSeconds}::int, ${visit.outSeconds}::int, ${visit.outMetres}::int, ${visit.outSource}::text, ${visit.needsMoreSeconds}::int)`);
      await tx.execute(sql`
        INSERT INTO travel_summary_visits (business_account_id, day, practitioner_id, appointment_id, client_id, client_name,
          appointment_type_id, business_location_id, starts_at, visit_ms, located, punctual, in_from_name, in_seconds, in_metres, in_source,
          in_idle_seconds, out_seconds, out_metres, out_source, needs_more_seconds)
        VALUES ${sql.join(values, sql`, `)}`);
    }
    // The days' totals, added up from the visits just stored.
    if (full.length) {
      await tx.execute(sql`
        UPDATE travel_summary_days d SET visits = t.visits, visit_seconds = t.visit_seconds, travel_seconds = t.travel_seconds,
          travel_metres = t.travel_metres, route_legs = t.route_legs, estimate_legs = t.estimate_legs, unlocated_visits = t.unlocated_visits,
          idle_seconds = t.idle_seconds, punctual_visits = t.punctual_visits, short_legs = t.short_legs
        FROM (
          SELECT v.practitioner_id, v.day, ${DAY_TOTALS}
          FROM travel_summary_visits v JOIN ${pairsOf(full)} AS p (practitioner_id, day) ON v.practitioner_id = p.practitioner_id AND v.day = p.day
          WHERE v.business_account_id = ${businessAccountId}
          GROUP BY v.practitioner_id, v.day
        ) t
        WHERE d.business_account_id = ${businessAccountId} AND d.practitioner_id = t.practitioner_id AND d.day = t.day`);
    }
    return kept.length;
  });
}

/** A practitioner-day's stored figures, as the dashboard reads them. */
export interface SummaryDayTotals {
  practitionerId: number; day: string; visits: number; visitSeconds: number; travelSeconds: number; travelMetres: number;
  /** Visits whose arrival is outside their client's availability (not punctual). */
  outsideVisits: number;
  /** Visits with a travel warning (the leg from the visit before is longer than the time between them). */
  shortLegs: number;
}

/** The stored figures of every practitioner-day of the range (the summary must be fresh for it). */
export async function dayTotals(db: Db, businessAccountId: number, range: { startDate: string; endDate: string }): Promise<SummaryDayTotals[]> {
  type Count = string | number | null;
  const rows = await queryRows<{
    practitioner_id: number; day: string; visits: Count; visit_seconds: Count; travel_seconds: Count; travel_metres: Count; punctual_visits: Count; short_legs: Count;
  }>(db, sql`
    SELECT d.practitioner_id, to_char(d.day, 'YYYY-MM-DD') AS day, d.visits, d.visit_seconds, d.travel_seconds, d.travel_metres,
           d.punctual_visits, d.short_legs
    FROM travel_summary_days d
    WHERE d.business_account_id = ${businessAccountId} AND d.day BETWEEN ${range.startDate}::date AND ${range.endDate}::date
      AND d.visits > 0`);
  return rows.map((row) => ({
    practitionerId: row.practitioner_id, day: row.day, visits: Number(row.visits), visitSeconds: Number(row.visit_seconds ?? 0),
    travelSeconds: Number(row.travel_seconds ?? 0), travelMetres: Number(row.travel_metres ?? 0),
    outsideVisits: Number(row.visits) - Number(row.punctual_visits ?? 0), shortLegs: Number(row.short_legs ?? 0),
  }));
}
