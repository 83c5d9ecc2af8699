// Drizzle table of practitioners' leave (migration 0080_practitioner_leave.sql is the source of truth).
import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { businessAccounts, practitioners } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** manual: entered in Settings → Practitioners; cliniko: imported from a Cliniko unavailable block. */
export type LeaveSource = 'manual' | 'cliniko';

export const practitionerLeave = pgTable('practitioner_leave', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  practitioner_id: integer('practitioner_id').notNull().references(() => practitioners.id),
  starts_at: tstz('starts_at').notNull(),
  ends_at: tstz('ends_at').notNull(),
  reason: text('reason'),
  source: text('source').$type<LeaveSource>().notNull().default('manual'),
  /** The Cliniko unavailable block's id when imported; null when entered by hand. */
  cliniko_block_id: text('cliniko_block_id'),
  created_by_name: text('created_by_name'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});
