// Automatic sync (docs/decisions/0003-sync-jobs.md): every hour at :05 an import, and at :35 an export. The scheduler
// knows when; the module that owns automatic sync (sync) is given each slot and answers which jobs it is due: the
// businesses that turned the direction on, each slot handed out once across all worker processes, with the range and
// filters of their sync settings. The scheduler enqueues them, at most one unfinished automatic job per business
// and kind. Every tick it also asks the reminders module which businesses have reminders to send (their daily hour
// is its own to know, in each business's zone) and enqueues a REMINDERS job for each.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { SyncFilters } from '../db/schema';
import { EMPTY_FILTERS, jobEvents } from './queue';

export const AUTOMATIC_SCHEDULE = { IMPORT: { minute: 5 }, EXPORT: { minute: 35 } } as const;
export type AutomaticJobKind = keyof typeof AUTOMATIC_SCHEDULE;

/** The latest slot at or before `now`: hh:mm with mm = `minute`, in UTC (every hour, so the zone does not matter). */
export function latestSlot(now: Date, minute: number): Date {
  const slot = new Date(now);
  slot.setUTCMinutes(minute, 0, 0);
  if (slot > now) slot.setUTCHours(slot.getUTCHours() - 1);
  return slot;
}

/** An automatic job a business is due: its range in whole days (yyyy-MM-dd, both included) and its filters. */
export interface DueAutomaticJob {
  businessAccountId: number;
  startDate: string;
  endDate: string;
  filters: SyncFilters;
}

/** A reminders job a business is due (the first visit day it concerns, for the job's dates). */
export interface DueReminderJob {
  businessAccountId: number;
  visitDate: string;
}

/** What the scheduler is given by the modules that own automatic sync (sync) and the appointment reminders (reminders). */
export interface SchedulerRules {
  /**
   * The jobs of `kind` due for `slot`, their ranges starting on `now`'s day in each business's zone. Each business's
   * slot is handed out once across all processes: asked again for the same slot, it answers without that business.
   */
  claimDueJobs(db: Db, kind: AutomaticJobKind, slot: Date, now: Date): Promise<DueAutomaticJob[]>;
  /** The businesses with reminders to send at `now` (their reminder hour came, or some wait for a retry). */
  claimDueReminders?(db: Db, now: Date): Promise<DueReminderJob[]>;
}

/** Enqueues the automatic jobs due at `now` (which also fixes their range's first day); returns the ids created. */
export async function scheduleAutomaticSync(db: Db, rules: SchedulerRules, now = new Date()): Promise<number[]> {
  const created: number[] = [];
  for (const kind of ['IMPORT', 'EXPORT'] as const) {
    const due = await rules.claimDueJobs(db, kind, latestSlot(now, AUTOMATIC_SCHEDULE[kind].minute), now);
    for (const job of due) {
      const rows = await queryRows<{ id: number }>(db, sql`
        INSERT INTO jobs (business_account_id, kind, start_date, end_date, filters, automatic)
        VALUES (${job.businessAccountId}, ${kind}, ${job.startDate}::date, ${job.endDate}::date, ${JSON.stringify(job.filters)}::jsonb, true)
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

/**
 * Enqueues a REMINDERS job for each business the reminders module says has reminders to send at `now`; at most one
 * unfinished job per business (work that arrives while one runs is picked up by a later tick). Returns the ids.
 */
export async function scheduleReminders(db: Db, rules: SchedulerRules, now = new Date()): Promise<number[]> {
  const created: number[] = [];
  for (const job of await rules.claimDueReminders?.(db, now) ?? []) {
    const rows = await queryRows<{ id: number }>(db, sql`
      INSERT INTO jobs (business_account_id, kind, start_date, end_date, filters, automatic)
      VALUES (${job.businessAccountId}, 'REMINDERS', ${job.visitDate}::date, ${job.visitDate}::date, ${JSON.stringify(EMPTY_FILTERS)}::jsonb, true)
      ON CONFLICT (business_account_id, kind) WHERE automatic AND status IN ('PENDING', 'INPROGRESS') DO NOTHING
      RETURNING id`);
    for (const row of rows) {
      created.push(row.id);
      jobEvents.emit('enqueued', row.id);
    }
  }
  return created;
}

/** One scheduler tick: the automatic imports and exports, then the reminders. */
export async function scheduleDueJobs(db: Db, rules: SchedulerRules, now = new Date()): Promise<number[]> {
  return [...await scheduleAutomaticSync(db, rules, now), ...await scheduleReminders(db, rules, now)];
}
