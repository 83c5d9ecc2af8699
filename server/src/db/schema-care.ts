// Drizzle tables of care plans, open visits, client absences, public holidays and care-plan allocations (migration
// 0104_care_plans.sql is the source of truth). Windows are minutes from local midnight in the business's time zone.
import { date, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { appointments, appointmentTypes, businessAccounts, clients } from './schema';
import { jobs } from './schema-jobs';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const day = (name: string) => date(name, { mode: 'string' });

export const carePlans = pgTable('care_plans', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id),
  appointment_type_id: integer('appointment_type_id').notNull().references(() => appointmentTypes.id),
  /** ISO weekdays, 1 = Monday. */
  weekdays: integer('weekdays').array().notNull(),
  window_start: integer('window_start').notNull(),
  window_end: integer('window_end').notNull(),
  duration_minutes: integer('duration_minutes').notNull(),
  carers: integer('carers').notNull().default(1),
  starts_on: day('starts_on').notNull(),
  ends_on: day('ends_on'),
  preferred_practitioner_ids: integer('preferred_practitioner_ids').array().notNull().default([]),
  notes: text('notes'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});

export type AbsenceReason = 'hospital' | 'away' | 'other';

export const clientAbsences = pgTable('client_absences', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id),
  starts_on: day('starts_on').notNull(),
  ends_on: day('ends_on').notNull(),
  reason: text('reason').$type<AbsenceReason>().notNull(),
  note: text('note'),
  created_at: tstz('created_at').notNull().defaultNow(),
});

export type OpenVisitState = 'open' | 'filled' | 'removed';

export const openVisits = pgTable('open_visits', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id),
  appointment_type_id: integer('appointment_type_id').notNull().references(() => appointmentTypes.id),
  care_plan_id: integer('care_plan_id').references(() => carePlans.id),
  date: day('date').notNull(),
  window_start: integer('window_start').notNull(),
  window_end: integer('window_end').notNull(),
  duration_minutes: integer('duration_minutes').notNull(),
  /** 0, or 1 for the second carer of a two-carer occurrence. */
  carer_index: integer('carer_index').notNull().default(0),
  reason: text('reason').notNull(),
  notes: text('notes'),
  state: text('state').$type<OpenVisitState>().notNull().default('open'),
  /** The visit that filled it (state filled). */
  appointment_id: integer('appointment_id').references(() => appointments.id),
  /** The absence that removed it (deleting the absence forgets the occurrence, so it is generated again). */
  absence_id: integer('absence_id').references(() => clientAbsences.id, { onDelete: 'cascade' }),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});

export const publicHolidays = pgTable('public_holidays', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  date: day('date').notNull(),
  name: text('name').notNull(),
  created_at: tstz('created_at').notNull().defaultNow(),
});

export type AllocationStatus = 'RUNNING' | 'DONE' | 'ERROR' | 'APPLIED';

export const carePlanAllocations = pgTable('care_plan_allocations', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  job_id: integer('job_id').references(() => jobs.id),
  status: text('status').$type<AllocationStatus>().notNull().default('RUNNING'),
  start_date: day('start_date').notNull(),
  end_date: day('end_date').notNull(),
  message: text('message'),
  generated: integer('generated').notNull().default(0),
  result: jsonb('result').$type<Record<string, unknown>>(),
  created_by_name: text('created_by_name'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});
