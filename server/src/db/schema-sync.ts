// Drizzle tables of practice-management sync (migration 0020_sync.sql is the source of truth); its jobs are the queue's (schema-jobs.ts).
import { bigserial, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { appointments, businessAccounts, practitioners } from './schema';
import { jobs } from './schema-jobs';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const importHistoryEntries = pgTable('import_history_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  appointment_id: integer('appointment_id').notNull().references(() => appointments.id),
  import_id: integer('import_id').references(() => jobs.id),
  author_full_name: text('author_full_name'),
  created_at: tstz('created_at').notNull().defaultNow(),
});

export const exportHistoryEntries = pgTable('export_history_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  appointment_id: integer('appointment_id').notNull().references(() => appointments.id),
  export_id: integer('export_id').references(() => jobs.id),
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
