// Drizzle table of a visit's steps (migration 0087_visit_steps.sql is the source of truth).
import { boolean, doublePrecision, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { appointments, businessAccounts, users } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Where a visit is now (appointments.visit_state). */
export type VisitState = 'not_started' | 'on_my_way' | 'arrived' | 'done' | 'could_not_attend';
/** What a step records; 'reopened' is a coordinator's, back to not started. */
export type VisitStepKind = 'on_my_way' | 'arrived' | 'done' | 'could_not_attend' | 'reopened';
export type NotAttendedReason = 'client_not_home' | 'refused' | 'hospital' | 'other';

export const visitSteps = pgTable('visit_steps', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  appointment_id: integer('appointment_id').notNull().references(() => appointments.id),
  step: text('step').$type<VisitStepKind>().notNull(),
  at: tstz('at').notNull(),
  recorded_at: tstz('recorded_at').notNull().defaultNow(),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  accuracy_m: doublePrecision('accuracy_m'),
  distance_m: integer('distance_m'),
  far_from_client: boolean('far_from_client').notNull().default(false),
  reason: text('reason').$type<NotAttendedReason>(),
  reason_text: text('reason_text'),
  note: text('note'),
  idempotency_key: text('idempotency_key').notNull(),
  recorded_by_user_id: integer('recorded_by_user_id').references(() => users.id),
  recorded_by_name: text('recorded_by_name'),
});
