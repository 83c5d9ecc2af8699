// The dashboard's own SQL: a practitioner's next visit (the rest comes from the travel summary).
// Every query is scoped to the business passed first; days are the business's (its time zone).
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

export interface NextVisitRow {
  id: number;
  starts_at: Date | string;
  arrive_at: Date | string | null;
  client_name: string | null;
  suburb: string | null;
  practitioner_id: number;
  practitioner_name: string;
}

/** The first visit of the practitioners that is not cancelled, done or could not be attended, and has not ended at `now`, by arrival. */
export async function nextVisit(db: Db, businessAccountId: number, practitionerIds: readonly number[], now: Date): Promise<NextVisitRow | undefined> {
  if (practitionerIds.length === 0) return undefined;
  const [row] = await queryRows<NextVisitRow>(db, sql`
    SELECT a.id, a.starts_at, a.arrive_at, btrim(c.first_name || ' ' || c.last_name) AS client_name, a.city AS suburb,
           a.practitioner_id, btrim(p.first_name || ' ' || p.last_name) AS practitioner_name
    FROM appointments a
    JOIN practitioners p ON p.id = a.practitioner_id AND p.business_account_id = ${businessAccountId}
    LEFT JOIN clients c ON c.id = a.client_id AND c.business_account_id = ${businessAccountId}
    WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL AND a.visit_state NOT IN ('done', 'could_not_attend')
      AND a.practitioner_id = ANY(${`{${practitionerIds.join(',')}}`}::int[])
      AND a.ends_at > ${now.toISOString()}::timestamptz AND a.starts_at > ${now.toISOString()}::timestamptz - interval '1 day'
    ORDER BY coalesce(a.arrive_at, a.starts_at), a.id
    LIMIT 1`);
  return row;
}
