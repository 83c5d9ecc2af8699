// Automatic sync (docs/decisions/0003-sync-jobs.md): every hour at :05 an import, and at :35 an export, of
// today..today+ahead_days (business time zone) with the sync settings' filters, for each business with an ACTIVE
// provider account that turned the direction on. Each slot is claimed once across all worker processes (a
// conditional upsert of a cursor), and at most one unfinished automatic job per business and kind exists.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { SyncFilters } from '../db/schema';
import { Temporal } from 'temporal-polyfill';
import { jobEvents } from './queue';

export const AUTOMATIC_SCHEDULE = { IMPORT: { minute: 5 }, EXPORT: { minute: 35 } } as const;

/** The latest slot at or before `now`: hh:mm with mm = `minute`, in UTC (every hour, so the zone does not matter). */
export function latestSlot(now: Date, minute: number): Date {
  const slot = new Date(now);
  slot.setUTCMinutes(minute, 0, 0);
  if (slot > now) slot.setUTCHours(slot.getUTCHours() - 1);
  return slot;
}

interface Candidate {
  business_account_id: number;
  time_zone: string;
  ahead_days: number;
  filters: SyncFilters;
  enable_auto_import: boolean;
  enable_auto_export: boolean;
}

/** What the scheduler is given by the module that owns the ranges (sync). */
export interface SchedulerRules {
  /** The longest range, in days with both ends included, that an import or export may cover. */
  maxRangeDays: number;
}

/** Enqueues the automatic jobs due at `now` (which also fixes their range's first day); returns the ids created. */
export async function scheduleAutomaticSync(db: Db, rules: SchedulerRules, now = new Date()): Promise<number[]> {
  const candidates = await queryRows<Candidate>(db, sql`
    SELECT s.business_account_id, b.time_zone, s.ahead_days, s.filters, s.enable_auto_import, s.enable_auto_export
    FROM sync_settings s
    JOIN business_accounts b ON b.id = s.business_account_id AND b.active
    JOIN provider_accounts p ON p.business_account_id = s.business_account_id AND p.status = 'ACTIVE'
    WHERE s.enable_auto_import OR s.enable_auto_export`);
  const created: number[] = [];
  for (const candidate of candidates) {
    for (const kind of ['IMPORT', 'EXPORT'] as const) {
      if (!(kind === 'IMPORT' ? candidate.enable_auto_import : candidate.enable_auto_export)) continue;
      const slot = latestSlot(now, AUTOMATIC_SCHEDULE[kind].minute);
      const claimed = await queryRows<{ resource: string }>(db, sql`
        INSERT INTO sync_cursors (business_account_id, resource, synced_through)
        VALUES (${candidate.business_account_id}, ${`automatic_${kind.toLowerCase()}`}, ${slot.toISOString()}::timestamptz)
        ON CONFLICT (business_account_id, resource) DO UPDATE SET synced_through = excluded.synced_through
        WHERE sync_cursors.synced_through < excluded.synced_through
        RETURNING resource`);
      if (claimed.length === 0) continue;
      const today = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(candidate.time_zone).toPlainDate();
      const end = today.add({ days: Math.min(candidate.ahead_days, rules.maxRangeDays - 1) });
      const rows = await queryRows<{ id: number }>(db, sql`
        INSERT INTO sync_jobs (business_account_id, kind, start_date, end_date, filters, automatic)
        VALUES (${candidate.business_account_id}, ${kind}, ${today.toString()}::date, ${end.toString()}::date, ${JSON.stringify(candidate.filters)}::jsonb, true)
        ON CONFLICT (business_account_id, kind) WHERE automatic AND status IN ('PENDING', 'INPROGRESS') DO NOTHING
        RETURNING id`);
      for (const row of rows) {
        created.push(row.id);
        jobEvents.emit('enqueued', row.id);
      }
    }
  }
  return created;
}
