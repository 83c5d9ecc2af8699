// Activity: the audit trail, newest first — the sync queue's imports, exports and optimisations, every recorded change
// (the change log, `versions`, in the same words as the appointment modal's change log) and every login-as link used.
// A kind is derived in SQL (an arrival time, availability or tags kind is a change to an existing visit or client;
// a visit or client added or removed is a visit or client change) so that filtering, counting, sorting and paging stay
// in the database (index: migration 0053); a page of rows is answered (every row for the CSV), the counts cover every
// matching row.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { Schemas } from '../../http/contract';
import { describeVersions, type ObjectChanges } from '../audit';
import { pageMeta, type ReportFilters, type ReportPage } from './filters';

type Row = Schemas['ActivityRow'];
export type ActivityKind = Schemas['ActivityKind'];
export type ActivityReport = {
  rows: Row[]; meta: Schemas['PageMeta']; summary: { total: number; by_kind: { kind: ActivityKind; count: number }[] }; authors: string[];
};
/** The table's columns the server sorts by: when (newest first by default), or who (then newest first). */
export type ActivitySort = 'at' | 'who';

/** In the order the summary and the chart list them. */
export const ACTIVITY_KINDS: readonly ActivityKind[] = ['import', 'export', 'optimisation', 'arrival_time', 'visit', 'availability', 'tags', 'client', 'settings', 'user', 'login_as'];
export const LOGIN_AS_AUTHOR = 'Rounds support';
const AUTOMATIC_AUTHOR = 'Automatic sync';

const JOB_STATUS: Record<string, string> = { PENDING: 'Waiting', INPROGRESS: 'Running', COMPLETE: 'Complete', ERROR: 'Failed', CANCELLED: 'Cancelled' };
const JOB_WORDS: Record<string, string> = { import: 'Import', export: 'Export', optimisation: 'Optimisation' };
const SETTINGS_WORDS: Record<string, string> = { OptimizationSettings: 'Optimisation settings', SyncSettings: 'Sync settings', BusinessAccount: 'Account settings' };

export interface ActivityFilters extends ReportFilters {
  kinds: ActivityKind[];
  author: string | null;
}

interface DbRow {
  id: string;
  at: Date | string;
  who: string | null;
  kind: ActivityKind;
  event: string;
  item_type: string | null;
  object_changes: ObjectChanges | null;
  reason: string | null;
  what: string | null;
  job_status: string | null;
}

/**
 * The person behind an author, for the Who filter: an import's or export's changes ("Export #5 by Alex Morgan") are
 * the person's who started it; a job nobody started ("Import #7 (automatic)", "Automatic sync") is no one's.
 */
const personOf = (who: SQL) => sql`CASE
    WHEN ${who} ~ '^(Import|Export) #[0-9]+' THEN substring(${who} from '^(?:Import|Export) #[0-9]+ by (.+)$')
    WHEN ${who} = ${AUTOMATIC_AUTHOR} THEN NULL
    ELSE ${who} END`;

const idsIn = (column: SQL, ids: number[]) => (ids.length ? sql`AND ${column} = ANY(${`{${ids.join(',')}}`}::int[])` : sql``);
const day = (column: SQL) => sql`to_char((${column} AT TIME ZONE b.time_zone), 'DD Mon YYYY')`;

/** Every activity of the business in the range (kind and author filters not applied), as (id, at, who, kind, …). */
function activitySource(businessAccountId: number, filters: ReportFilters, withDetails: boolean): SQL {
  const { range } = filters;
  const inRange = (column: SQL) => (range
    ? sql`AND ${column} >= ((${range.startDate}::date)::timestamp AT TIME ZONE b.time_zone)
          AND ${column} < ((${range.endDate}::date + 1)::timestamp AT TIME ZONE b.time_zone)`
    : sql``);
  const visitFiltered = filters.practitionerIds.length + filters.appointmentTypeIds.length + filters.businessLocationIds.length > 0;
  // Visit filters keep the changes to those visits, and (practitioners chosen alone) those practitioners' working data.
  const versionScope = visitFiltered
    ? sql`AND ((v.item_type = 'Appointment' AND EXISTS (
          SELECT 1 FROM appointments a WHERE a.id = v.item_id AND a.business_account_id = v.business_account_id
          ${idsIn(sql`a.practitioner_id`, filters.practitionerIds)}
          ${idsIn(sql`a.appointment_type_id`, filters.appointmentTypeIds)}
          ${idsIn(sql`a.business_location_id`, filters.businessLocationIds)}))
        ${filters.practitionerIds.length && !filters.appointmentTypeIds.length && !filters.businessLocationIds.length
          ? sql`OR (v.item_type = 'Practitioner' ${idsIn(sql`v.item_id`, filters.practitionerIds)})` : sql``})`
    : sql``;
  // The rows' details (what the page shows) only where they are shown: counting needs the kind and author alone.
  const extra = {
    version: sql`v.item_type, v.object_changes, v.reason, NULL::text AS job_status`,
    job: sql`NULL::text, NULL::jsonb, j.error_message, j.status`,
    login: sql`NULL::text, NULL::jsonb, NULL::text, NULL::text`,
  };
  const columns = (part: keyof typeof extra) => (withDetails ? sql`, ${extra[part]}` : sql``);
  return sql`
    SELECT 'version-' || v.id AS id, v.id::bigint AS n, v.created_at AS at, v.whodunnit AS who,
           CASE
             WHEN v.item_type = 'Appointment' AND v.event = 'update' AND (v.object_changes -> 'arrive_at' IS NOT NULL OR v.object_changes -> 'arrival_locked' IS NOT NULL) THEN 'arrival_time'
             WHEN v.item_type = 'Appointment' THEN 'visit'
             WHEN v.item_type = 'Client' AND v.event = 'update' AND v.object_changes -> 'availability' IS NOT NULL THEN 'availability'
             WHEN v.item_type = 'Client' AND v.event = 'update' AND v.object_changes -> 'tag_ids' IS NOT NULL THEN 'tags'
             WHEN v.item_type = 'Client' THEN 'client'
             WHEN v.item_type = 'Tag' THEN 'tags'
             WHEN v.item_type = 'User' THEN 'user'
             ELSE 'settings'
           END AS kind,
           v.event, v.item_id${columns('version')}
    FROM versions v, business_accounts b
    WHERE b.id = ${businessAccountId} AND v.business_account_id = ${businessAccountId} ${inRange(sql`v.created_at`)} ${versionScope}
    UNION ALL
    SELECT 'job-' || j.id, j.id::bigint, j.created_at, CASE WHEN j.automatic THEN ${AUTOMATIC_AUTHOR} ELSE j.created_by_name END,
           CASE j.kind WHEN 'IMPORT' THEN 'import' WHEN 'EXPORT' THEN 'export' ELSE 'optimisation' END,
           'run', j.id${columns('job')}
    FROM jobs j, business_accounts b
    WHERE b.id = ${businessAccountId} AND j.business_account_id = ${businessAccountId} AND j.kind IN ('IMPORT', 'EXPORT', 'OPTIMIZE')
      ${inRange(sql`j.created_at`)} ${visitFiltered ? sql`AND false` : sql``}
    UNION ALL
    SELECT 'login-' || t.id, t.id::bigint, t.used_at, ${LOGIN_AS_AUTHOR}, 'login_as', 'used', t.user_id${columns('login')}
    FROM one_time_tokens t JOIN users u ON u.id = t.user_id, business_accounts b
    WHERE b.id = ${businessAccountId} AND u.business_account_id = ${businessAccountId} AND t.purpose = 'LOGIN_AS' AND t.used_at IS NOT NULL
      ${inRange(sql`t.used_at`)} ${visitFiltered ? sql`AND false` : sql``}`;
}

export async function activityReport(
  db: Db, businessAccountId: number, filters: ActivityFilters, options: { sort?: ActivitySort; page?: ReportPage } = {},
): Promise<ActivityReport> {
  const page = options.page ?? { page: 1, perPage: null, descending: true };
  const direction = page.descending ? sql`DESC` : sql`ASC`;
  const order = options.sort === 'who' ? sql`x.who ${direction} NULLS LAST, x.at DESC, x.n DESC` : sql`x.at ${direction}, x.n ${direction}`;
  const chosen = sql`WHERE true
    ${filters.kinds.length ? sql`AND x.kind = ANY(${`{${filters.kinds.join(',')}}`}::text[])` : sql``}
    ${filters.author !== null ? sql`AND (x.who = ${filters.author} OR ${personOf(sql`x.who`)} = ${filters.author})` : sql``}`;
  const [counts, authors, rows] = await Promise.all([
    queryRows<{ kind: ActivityKind; count: number | string }>(db, sql`
      SELECT x.kind, count(*) AS count FROM (${activitySource(businessAccountId, filters, false)}) x ${chosen} GROUP BY x.kind`),
    queryRows<{ who: string }>(db, sql`
      SELECT DISTINCT ${personOf(sql`x.who`)} AS who FROM (${activitySource(businessAccountId, filters, false)}) x
      WHERE ${personOf(sql`x.who`)} IS NOT NULL ORDER BY 1`),
    queryRows<DbRow>(db, sql`
      WITH shown AS MATERIALIZED (
        SELECT x.* FROM (${activitySource(businessAccountId, filters, true)}) x ${chosen}
        ORDER BY ${order} ${page.perPage === null ? sql`` : sql`LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`}
      )
      SELECT x.id, x.at, x.who, x.kind, x.event, x.item_type, x.object_changes, x.reason, x.job_status,
        CASE
          WHEN x.item_type = 'Appointment' THEN coalesce(btrim(c.first_name || ' ' || c.last_name) || ', ', '') || ${day(sql`a.starts_at`)}
          WHEN x.item_type = 'Client' THEN btrim(ic.first_name || ' ' || ic.last_name)
          WHEN x.item_type = 'Practitioner' THEN btrim(p.first_name || ' ' || p.last_name)
          WHEN x.item_type = 'CustomLocation' THEN coalesce(cl.name, x.object_changes -> 'name' ->> 1, x.object_changes -> 'name' ->> 0)
          WHEN x.item_type = 'Tag' THEN coalesce(t.name, x.object_changes -> 'name' ->> 1, x.object_changes -> 'name' ->> 0)
          WHEN x.item_type = 'AppointmentType' THEN ty.name
          WHEN x.kind = 'login_as' OR x.item_type = 'User' THEN btrim(u.first_name || ' ' || u.last_name)
          WHEN x.id LIKE 'job-%' THEN ${day(sql`(coalesce(r.first_date, j.start_date)::timestamp AT TIME ZONE b.time_zone)`)}
            || CASE WHEN coalesce(r.last_date, j.end_date) > coalesce(r.first_date, j.start_date)
              THEN ' – ' || ${day(sql`(coalesce(r.last_date, j.end_date)::timestamp AT TIME ZONE b.time_zone)`)} ELSE '' END
        END AS what
      FROM shown x
      JOIN business_accounts b ON b.id = ${businessAccountId}
      LEFT JOIN appointments a ON x.item_type = 'Appointment' AND a.id = x.item_id AND a.business_account_id = ${businessAccountId}
      LEFT JOIN clients c ON c.id = a.client_id
      LEFT JOIN clients ic ON x.item_type = 'Client' AND ic.id = x.item_id AND ic.business_account_id = ${businessAccountId}
      LEFT JOIN practitioners p ON x.item_type = 'Practitioner' AND p.id = x.item_id AND p.business_account_id = ${businessAccountId}
      LEFT JOIN custom_locations cl ON x.item_type = 'CustomLocation' AND cl.id = x.item_id AND cl.business_account_id = ${businessAccountId}
      LEFT JOIN tags t ON x.item_type = 'Tag' AND t.id = x.item_id AND t.business_account_id = ${businessAccountId}
      LEFT JOIN appointment_types ty ON x.item_type = 'AppointmentType' AND ty.id = x.item_id AND ty.business_account_id = ${businessAccountId}
      LEFT JOIN users u ON (x.kind = 'login_as' OR x.item_type = 'User') AND u.id = x.item_id AND u.business_account_id = ${businessAccountId}
      LEFT JOIN jobs j ON x.id LIKE 'job-%' AND j.id = x.item_id AND j.business_account_id = ${businessAccountId}
      LEFT JOIN optimization_runs r ON r.job_id = j.id
      ORDER BY ${order}`),
  ]);

  const versionRows = rows.filter((row) => row.object_changes !== null) as (DbRow & { object_changes: ObjectChanges })[];
  const described = await describeVersions(db, businessAccountId, versionRows);
  const changesOf = new Map(versionRows.map((row, index) => [row.id, described[index]]));
  const countOf = new Map(counts.map((row) => [row.kind, Number(row.count)]));
  const total = [...countOf.values()].reduce((sum, count) => sum + count, 0);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      who: row.who,
      kind: row.kind,
      event: row.event,
      what: whatOf(row),
      changes: row.job_status !== null
        ? [{ field: 'status', label: 'Status', kind: 'text' as const, from: null, to: JOB_STATUS[row.job_status] ?? row.job_status }]
        : changesOf.get(row.id) ?? [],
      reason: row.reason,
    })),
    meta: pageMeta(page, total),
    summary: { total, by_kind: ACTIVITY_KINDS.filter((kind) => countOf.has(kind)).map((kind) => ({ kind, count: countOf.get(kind)! })) },
    authors: authors.map((row) => row.who),
  };
}

function whatOf(row: DbRow): string {
  if (row.item_type && SETTINGS_WORDS[row.item_type]) return SETTINGS_WORDS[row.item_type];
  const words = JOB_WORDS[row.kind];
  if (words) return `${words} ${row.what ?? ''}`.trim();
  if (row.kind === 'login_as') return `Logged in as ${row.what ?? 'a removed user'}`;
  if (row.item_type === 'User') return `User ${row.what ?? 'removed'}`;
  return row.what || (row.item_type === 'Appointment' ? 'A removed visit' : 'A removed record');
}
