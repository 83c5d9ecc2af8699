// Drizzle table of the appointment reminders (migration 0063_reminders.sql is the source of truth).
import { bigserial, date, integer, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { appointments, businessAccounts, clients } from './schema';
import { visitSteps } from './schema-visits';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type ReminderChannel = 'email' | 'sms';
export type SentReminderStatus = 'PENDING' | 'SENDING' | 'SENT' | 'FAILED' | 'SKIPPED';

export const sentReminders = pgTable('sent_reminders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id),
  visit_date: date('visit_date', { mode: 'string' }).notNull(),
  channel: text('channel').$type<ReminderChannel>().notNull(),
  status: text('status').$type<SentReminderStatus>().notNull().default('PENDING'),
  attempts: integer('attempts').notNull().default(0),
  run_after: tstz('run_after').notNull().defaultNow(),
  locked_by: text('locked_by'),
  locked_until: tstz('locked_until'),
  last_error: text('last_error'),
  sent_at: tstz('sent_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
}, (t) => [unique('sent_reminders_once_key').on(t.client_id, t.visit_date, t.channel)]);

export const reminderRuns = pgTable('reminder_runs', {
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  visit_date: date('visit_date', { mode: 'string' }).notNull(),
  due_at: tstz('due_at').notNull(),
  enumerated_at: tstz('enumerated_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.business_account_id, t.visit_date] })]);

export type EtaMessageKind = 'on_my_way' | 'replan';
export type EtaMessageStatus = 'SENDING' | 'SENT' | 'FAILED' | 'NOT_SENT';

/** A client's ETA message (migration 0089_eta_messages.sql): once per visit, kind and planned arrival. */
export const etaMessages = pgTable('eta_messages', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  appointment_id: integer('appointment_id').notNull().references(() => appointments.id),
  kind: text('kind').$type<EtaMessageKind>().notNull(),
  planned_arrival: tstz('planned_arrival').notNull(),
  visit_step_id: integer('visit_step_id').references(() => visitSteps.id),
  status: text('status').$type<EtaMessageStatus>().notNull().default('SENDING'),
  channel: text('channel').$type<ReminderChannel>(),
  eta: tstz('eta'),
  error: text('error'),
  sent_at: tstz('sent_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
}, (t) => [unique('eta_messages_once_key').on(t.appointment_id, t.kind, t.planned_arrival)]);
