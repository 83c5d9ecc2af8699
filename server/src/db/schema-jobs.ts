// Drizzle table of the job queue (migrations 0020_sync.sql, 0091_jobs.sql and 0096_job_turns.sql are the source of
// truth): every background job's queue state and progress, whatever its kind.
import { boolean, date, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { businessAccounts, users, type SyncFilters } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The kinds of job the queue runs (migration 0050 added OPTIMIZE: one optimisation run of a day or more, its run in
 * optimization_runs; 0063 REMINDERS: the appointment reminders of one visit day; 0089 ETA_MESSAGE: a client's ETA
 * message after On my way; 0103 PMS_WRITE: one write of a visit to the PMS, its row in pms_writes; 0104 CARE_ALLOCATION:
 * a care-plan allocation's proposal).
 */
export type JobKind = 'IMPORT' | 'EXPORT' | 'PROVIDER_SETUP' | 'OPTIMIZE' | 'REMINDERS' | 'ETA_MESSAGE' | 'PMS_WRITE' | 'CARE_ALLOCATION';
export type JobStatus = 'PENDING' | 'INPROGRESS' | 'COMPLETE' | 'ERROR' | 'CANCELLED';

export const jobs = pgTable('jobs', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  kind: text('kind').$type<JobKind>().notNull(),
  status: text('status').$type<JobStatus>().notNull().default('PENDING'),
  start_date: date('start_date', { mode: 'string' }),
  end_date: date('end_date', { mode: 'string' }),
  filters: jsonb('filters').$type<SyncFilters>().notNull(),
  created_by_user_id: integer('created_by_user_id').references(() => users.id),
  created_by_name: text('created_by_name'),
  automatic: boolean('automatic').notNull().default(false),
  /** What the job has done: written page by page while it runs (imports and exports count what they wrote), then its result. */
  result: jsonb('result').$type<Record<string, unknown>>(),
  /** What the job carries beyond its dates and filters (ETA_MESSAGE: the visit and step). */
  params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
  /** The latest progress report while the job runs (OPTIMIZE: time used, best plan so far). */
  progress: jsonb('progress').$type<Record<string, unknown>>(),
  error_message: text('error_message'),
  attempts: integer('attempts').notNull().default(0),
  max_attempts: integer('max_attempts').notNull().default(3),
  run_after: tstz('run_after').notNull().defaultNow(),
  locked_by: text('locked_by'),
  locked_until: tstz('locked_until'),
  heartbeat_at: tstz('heartbeat_at'),
  started_at: tstz('started_at'),
  /** When a worker last took the job (migration 0096): its business's latest turn in its lane. */
  claimed_at: tstz('claimed_at'),
  finished_at: tstz('finished_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});
