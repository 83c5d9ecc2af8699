// Clients missing address: clients whose address is incomplete (address_1 and city are both needed), who have no
// map point, or whose point is only the suburb's centre, with the visit that makes fixing them urgent. One query,
// scoped to the business; the day bounds are taken in the business's time zone by the database.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { Schemas } from '../../http/contract';
import type { ReportFilters } from './filters';

type Row = Schemas['ClientMissingAddressRow'];
export type ClientsMissingAddressReport = { rows: Row[]; summary: { clients: number; incomplete_address: number; no_point: number; approximate_point: number } };

interface DbRow {
  client_id: number;
  first_name: string;
  last_name: string;
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  post_code: string | null;
  geo_precision: Row['geo_precision'];
  incomplete_address: boolean;
  no_point: boolean;
  approximate_point: boolean;
  appointment_id: number | null;
  starts_at: Date | string | null;
  practitioner_id: number | null;
  practitioner_name: string | null;
}

const idsIn = (column: SQL, ids: number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);

export async function clientsMissingAddress(db: Db, businessAccountId: number, filters: ReportFilters): Promise<ClientsMissingAddressReport> {
  const { range } = filters;
  // A range, or any visit filter, limits the report to clients with such a visit.
  const visitRequired = range !== null || filters.practitionerIds.length + filters.appointmentTypeIds.length + filters.businessLocationIds.length > 0;
  const from = range ? sql`(${range.startDate}::date)::timestamp AT TIME ZONE b.time_zone` : sql`now()`;
  const until = range ? sql`AND a.starts_at < ((${range.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone)` : sql``;
  const rows = await queryRows<DbRow>(db, sql`
    WITH flagged AS (
      SELECT c.id, c.first_name, c.last_name, c.address_1, c.address_2, c.city, c.post_code, c.geo_precision,
             (coalesce(btrim(c.address_1), '') = '' OR coalesce(btrim(c.city), '') = '') AS incomplete_address,
             (c.lat IS NULL OR c.lng IS NULL OR c.geo_precision = 'none') AS no_point,
             (c.lat IS NOT NULL AND c.lng IS NOT NULL AND c.geo_precision = 'suburb') AS approximate_point
      FROM clients c
      WHERE c.business_account_id = ${businessAccountId}
    )
    SELECT f.id AS client_id, f.first_name, f.last_name, f.address_1, f.address_2, f.city, f.post_code, f.geo_precision,
           f.incomplete_address, f.no_point, f.approximate_point,
           v.id AS appointment_id, v.starts_at, v.practitioner_id, btrim(p.first_name || ' ' || p.last_name) AS practitioner_name
    FROM flagged f
    JOIN business_accounts b ON b.id = ${businessAccountId}
    LEFT JOIN LATERAL (
      SELECT a.id, a.starts_at, a.practitioner_id
      FROM appointments a
      WHERE a.business_account_id = ${businessAccountId} AND a.client_id = f.id AND a.cancelled_at IS NULL
        AND a.starts_at >= ${from} ${until}
        ${idsIn(sql`a.practitioner_id`, filters.practitionerIds)}
        ${idsIn(sql`a.appointment_type_id`, filters.appointmentTypeIds)}
        ${idsIn(sql`a.business_location_id`, filters.businessLocationIds)}
      ORDER BY a.starts_at, a.id
      LIMIT 1
    ) v ON true
    LEFT JOIN practitioners p ON p.id = v.practitioner_id
    WHERE (f.incomplete_address OR f.no_point OR f.approximate_point) ${visitRequired ? sql`AND v.id IS NOT NULL` : sql``}
    ORDER BY v.starts_at NULLS LAST, lower(f.last_name), lower(f.first_name), f.id`);

  const report: ClientsMissingAddressReport = { rows: [], summary: { clients: 0, incomplete_address: 0, no_point: 0, approximate_point: 0 } };
  for (const row of rows) {
    const problems = (['incomplete_address', 'no_point', 'approximate_point'] as const).filter((problem) => row[problem]);
    for (const problem of problems) report.summary[problem] += 1;
    report.rows.push({
      client_id: row.client_id,
      client_name: `${row.first_name} ${row.last_name}`.trim(),
      address: [row.address_1, row.address_2].map((line) => line?.trim()).filter(Boolean).join(', '),
      city: row.city,
      postcode: row.post_code,
      geo_precision: row.geo_precision,
      problems,
      next_visit: row.appointment_id === null ? null : {
        appointment_id: row.appointment_id,
        starts_at: new Date(row.starts_at!).toISOString(),
        practitioner_id: row.practitioner_id!,
        practitioner_name: row.practitioner_name ?? '',
      },
    });
  }
  report.summary.clients = report.rows.length;
  return report;
}
