// The dashboard's own SQL: visits counted per practitioner and day over a range, and a practitioner's next visit.
// Every query is scoped to the business passed first; days are the business's (its time zone).
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

/** A practitioner's visits that are not cancelled on one day: how many, and their booked time. */
export interface VisitDayTotal { practitionerId: number; day: string; visits: number; visitSeconds: number }

/** Per practitioner and day from `from` to `to` (inclusive), the visits that are not cancelled, in one query. */
export async function visitDayTotals(db: Db, businessAccountId: number, from: string, to: string): Promise<VisitDayTotal[]> {
  const rows = await queryRows<{ practitioner_id: number; day: string; visits: number | string; visit_seconds: number | string }>(db, sql`
    WITH zone AS (SELECT time_zone FROM business_accounts WHERE id = ${businessAccountId})
    SELECT a.practitioner_id, to_char((a.starts_at AT TIME ZONE zone.time_zone)::date, 'YYYY-MM-DD') AS day,
           count(*) AS visits, coalesce(sum(extract(epoch FROM a.ends_at - a.starts_at)), 0) AS visit_seconds
    FROM appointments a, zone
    WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL
      AND a.starts_at >= (${from}::date)::timestamp AT TIME ZONE zone.time_zone
      AND a.starts_at < (${to}::date + 1)::timestamp AT TIME ZONE zone.time_zone
    GROUP BY 1, 2`);
  return rows.map((row) => ({
    practitionerId: row.practitioner_id, day: row.day, visits: Number(row.visits), visitSeconds: Math.round(Number(row.visit_seconds)),
  }));
}

export interface NextVisitRow {
  id: number;
  starts_at: Date | string;
  arrive_at: Date | string | null;
  client_name: string | null;
  suburb: string | null;
  practitioner_id: number;
  practitioner_name: string;
}

/** The first visit of the practitioners that is not cancelled and has not ended at `now`, by arrival. */
export async function nextVisit(db: Db, businessAccountId: number, practitionerIds: readonly number[], now: Date): Promise<NextVisitRow | undefined> {
  if (practitionerIds.length === 0) return undefined;
  const [row] = await queryRows<NextVisitRow>(db, sql`
    SELECT a.id, a.starts_at, a.arrive_at, btrim(c.first_name || ' ' || c.last_name) AS client_name, a.city AS suburb,
           a.practitioner_id, btrim(p.first_name || ' ' || p.last_name) AS practitioner_name
    FROM appointments a
    JOIN practitioners p ON p.id = a.practitioner_id AND p.business_account_id = ${businessAccountId}
    LEFT JOIN clients c ON c.id = a.client_id AND c.business_account_id = ${businessAccountId}
    WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL
      AND a.practitioner_id = ANY(${`{${practitionerIds.join(',')}}`}::int[])
      AND a.ends_at > ${now.toISOString()}::timestamptz AND a.starts_at > ${now.toISOString()}::timestamptz - interval '1 day'
    ORDER BY coalesce(a.arrive_at, a.starts_at), a.id
    LIMIT 1`);
  return row;
}
