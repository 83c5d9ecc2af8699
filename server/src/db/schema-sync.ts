// Drizzle tables of practice-management sync (migration 0020_sync.sql is the source of truth).
import { bigserial, boolean, date, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { appointments, businessAccounts, practitioners, users, type SyncFilters } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The kinds of job the queue runs (migration 0050 added OPTIMIZE: one optimisation run of a day; 0063 REMINDERS: the
 * appointment reminders of one visit day; 0089 ETA_MESSAGE: a client's ETA message after On my way).
 */
export type SyncJobKind = 'IMPORT' | 'EXPORT' | 'PROVIDER_SETUP' | 'OPTIMIZE' | 'REMINDERS' | 'ETA_MESSAGE';
export type SyncJobStatus = 'PENDING' | 'INPROGRESS' | 'COMPLETE' | 'ERROR' | 'CANCELLED';

export const syncJobs = pgTable('sync_jobs', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  kind: text('kind').$type<SyncJobKind>().notNull(),
  status: text('status').$type<SyncJobStatus>().notNull().default('PENDING'),
  start_date: date('start_date', { mode: 'string' }),
  end_date: date('end_date', { mode: 'string' }),
  filters: jsonb('filters').$type<SyncFilters>().notNull(),
  created_by_user_id: integer('created_by_user_id').references(() => users.id),
  created_by_name: text('created_by_name'),
  automatic: boolean('automatic').notNull().default(false),
  result: jsonb('result').$type<Record<string, unknown>>(),
  /** The run's choices (OPTIMIZE: mode, …). */
  params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
  /** The latest progress report while the job runs (OPTIMIZE). */
  progress: jsonb('progress').$type<Record<string, unknown>>(),
  error_message: text('error_message'),
  attempts: integer('attempts').notNull().default(0),
  max_attempts: integer('max_attempts').notNull().default(3),
  run_after: tstz('run_after').notNull().defaultNow(),
  locked_by: text('locked_by'),
  locked_until: tstz('locked_until'),
  heartbeat_at: tstz('heartbeat_at'),
  started_at: tstz('started_at'),
  finished_at: tstz('finished_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});

export const importHistoryEntries = pgTable('import_history_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  appointment_id: integer('appointment_id').notNull().references(() => appointments.id),
  import_id: integer('import_id').references(() => syncJobs.id),
  author_full_name: text('author_full_name'),
  created_at: tstz('created_at').notNull().defaultNow(),
});

export const exportHistoryEntries = pgTable('export_history_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  appointment_id: integer('appointment_id').notNull().references(() => appointments.id),
  export_id: integer('export_id').references(() => syncJobs.id),
  author_full_name: text('author_full_name'),
  created_at: tstz('created_at').notNull().defaultNow(),
});

export const appointmentSyncSnapshots = pgTable('appointment_sync_snapshots', {
  appointment_id: integer('appointment_id').primaryKey().references(() => appointments.id),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  starts_at: tstz('starts_at').notNull(),
  ends_at: tstz('ends_at').notNull(),
  /** The local id of the PMS's practitioner when last synced (migration 0051). */
  practitioner_id: integer('practitioner_id').notNull().references(() => practitioners.id),
  synced_at: tstz('synced_at').notNull().defaultNow(),
});

export const syncCursors = pgTable('sync_cursors', {
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  resource: text('resource').notNull(),
  synced_through: tstz('synced_through').notNull(),
}, (t) => [primaryKey({ columns: [t.business_account_id, t.resource] })]);
