// Drizzle table of the writes of visits to the practice management system (migration 0103_pms_writes.sql is the source
// of truth): bookings, reschedules and cancellations made in Rounds, each with its state (ADR 0024).
import { integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { appointments, businessAccounts } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type PmsWriteKind = 'create' | 'update' | 'cancel';
export type PmsWriteState = 'saving' | 'saved' | 'failed' | 'conflict' | 'discarded';
export interface PmsDifference { field: string; label: string; rounds: string | null; pms: string | null }

/** What a write sends: the visit's values when it was asked for (a create's and an update's), or the cancellation's reason. */
export interface PmsWritePayload {
  starts_at?: string;
  ends_at?: string;
  practitioner_id?: number;
  appointment_type_id?: number;
  client_id?: number;
  business_location_id?: number;
  notes?: string | null;
  cancellation_reason?: number;
  cancellation_note?: string | null;
  /** A retry that writes Rounds' version over the PMS's (a conflict's Overwrite). */
  overwrite?: boolean;
}

export const pmsWrites = pgTable('pms_writes', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  appointment_id: integer('appointment_id').references(() => appointments.id, { onDelete: 'set null' }),
  kind: text('kind').$type<PmsWriteKind>().notNull(),
  state: text('state').$type<PmsWriteState>().notNull().default('saving'),
  reference: text('reference').notNull(),
  payload: jsonb('payload').$type<PmsWritePayload>().notNull().default({}),
  attempts: integer('attempts').notNull().default(0),
  message: text('message'),
  differences: jsonb('differences').$type<PmsDifference[]>().notNull().default([]),
  request_id: text('request_id'),
  created_by: text('created_by'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});
